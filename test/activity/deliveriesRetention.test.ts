import { expect } from 'chai';
import { loadConfig } from '../../src/config/index.js';
import type { AppContext } from '../../src/context.js';
import { openDatabase, type Database } from '../../src/db/client.js';
import { jobCatalog, scheduleCatalog } from '../../src/jobCatalog.js';
import type { JobContext } from '../../src/jobs/define.js';
import { codehostDeliveriesRetention } from '../../src/codehost/jobs.js';
import { createJobQueue } from '../../src/jobs/index.js';
import { createLivePublisher } from '../../src/live/publisher.js';
import { createLogger } from '../../src/log.js';
import { freshDatabase } from '../helpers/database.js';
import { baseEnv } from '../helpers/server.js';
import { requestHooks } from '../../src/app.js';

describe('code-host delivery retention', function () {
  let database: Database;
  let app: AppContext;
  before(async () => {
    const url = await freshDatabase();
    database = openDatabase(url, { max: 2, unscoped: 'test-fixture' });
    const config = loadConfig(baseEnv(url));
    app = { config, database, log: createLogger('silent'), jobs: createJobQueue(database.pool, jobCatalog), live: createLivePublisher(database.pool, config), requestHooks };
  });
  after(() => database?.close());

  it('is scheduled nightly and deletes delivery ids older than 30 days, once', async () => {
    expect(scheduleCatalog.find((s) => s.job === 'codehost.deliveries-retention')?.everySeconds).to.equal(86_400);
    await database.pool.query(`insert into codehost_deliveries (delivery_id, event, received_at) values
      ('old', 'push', now() - interval '31 days'), ('recent', 'push', now() - interval '29 days')`);
    const ctx: JobContext = { app, job: { id: '00000000-0000-0000-0000-000000000000', name: 'codehost.deliveries-retention', retryCount: 0 }, signal: new AbortController().signal, instanceId: 'test', progress: async () => {} };
    const payload = { schedule: 'manual', windowStart: new Date().toISOString() };
    expect(await codehostDeliveriesRetention.run(ctx, payload)).to.deep.equal({ deleted: 1 });
    expect(await codehostDeliveriesRetention.run(ctx, payload)).to.deep.equal({ deleted: 0 });
    expect((await database.pool.query('select delivery_id from codehost_deliveries')).rows).to.deep.equal([{ delivery_id: 'recent' }]);
  });
});
