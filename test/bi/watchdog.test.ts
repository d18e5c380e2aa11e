/**
 * The BI watchdog (job bi.watchdog): what the views' timeout check leaves open is a session that
 * switched its timeouts off and then reads no view (a long computation, an open transaction). The
 * job stops exactly those past their credential's limit, and nothing else.
 */
import { expect } from 'chai';
import pg from 'pg';
import { grantBiCredential, revokeBiCredential, type BiCredential } from '../../src/bi/credentials.js';
import { loadConfig } from '../../src/config/index.js';
import type { AppContext } from '../../src/context.js';
import { openDatabase, type Database } from '../../src/db/client.js';
import { asSystem } from '../../src/db/tenancy.js';
import { jobCatalog, scheduleCatalog } from '../../src/jobCatalog.js';
import type { JobContext, JobDefinition } from '../../src/jobs/define.js';
import { createJobQueue } from '../../src/jobs/index.js';
import { createLivePublisher } from '../../src/live/publisher.js';
import { createLogger } from '../../src/log.js';
import { biUrl } from './biUrl.js';
import { freshDatabase } from '../helpers/database.js';
import { buildTenant } from '../helpers/factories.js';
import { baseEnv } from '../helpers/server.js';
import { requestHooks } from '../../src/app.js';
import { until } from '../helpers/until.js';

describe('bi.watchdog: BI sessions past their limit are stopped', function () {
  this.timeout(60_000);
  let url: string;
  let database: Database;
  let app: AppContext;
  let tenantId: string;
  const credentials: BiCredential[] = [];
  const clients: pg.Client[] = [];

  const run = () => {
    const ctx: JobContext = { app, job: { id: '00000000-0000-0000-0000-000000000000', name: 'bi.watchdog', retryCount: 0 }, signal: new AbortController().signal, instanceId: 'test', progress: async () => {} };
    // As the runner runs a job without a tenant: maintenance across tenants.
    return asSystem('maintenance', () => (jobCatalog.find((d) => d.name === 'bi.watchdog') as JobDefinition).run(ctx, { schedule: 'manual', windowStart: new Date().toISOString() }));
  };

  /** A session of a new credential with this limit, its timeouts switched off by the client. */
  async function session(name: string, limitMs: number): Promise<{ client: pg.Client; user: string; errors: string[] }> {
    const { credential, password } = await grantBiCredential(database.pool, { tenantId, name }, { connectionLimit: 2, statementTimeoutMs: limitMs });
    credentials.push(credential);
    // The BI database, as a BI tool connects.
    const client = new pg.Client({ connectionString: biUrl(url, credential.user, password) });
    const errors: string[] = [];
    client.on('error', (e: Error & { code?: string }) => errors.push(e.code ?? e.message));
    await client.connect();
    clients.push(client);
    await client.query('set statement_timeout = 0');
    await client.query('set idle_in_transaction_session_timeout = 0');
    return { client, user: credential.user, errors };
  }

  before(async () => {
    url = await freshDatabase();
    database = openDatabase(url, { max: 4 });
    tenantId = (await buildTenant(url)).tenantId;
    const config = loadConfig(baseEnv(url));
    app = { config, database, log: createLogger('silent'), jobs: createJobQueue(database.pool, jobCatalog), live: createLivePublisher(database.pool, config), requestHooks };
  });
  after(async () => {
    for (const c of clients) await c.end().catch(() => {});
    for (const c of credentials) await revokeBiCredential(database.pool, tenantId, c.id).catch(() => {});
    await database.close();
  });

  it('runs every 30 s', () => {
    expect(scheduleCatalog.find((s) => s.job === 'bi.watchdog')).to.include({ everySeconds: 30 });
  });

  it('cancels a statement and ends a transaction left open past the limit, and leaves sessions within it alone', async () => {
    const slow = await session('Slow', 500);
    const idle = await session('Idle', 500);
    const patient = await session('Patient', 60_000);
    const running = slow.client.query('select pg_sleep(30)').then(() => null, (e: { code?: string }) => e.code ?? 'error');
    await idle.client.query('begin');
    // Reading a foreign table leaves the source role's session (the foreign server's, in the
    // application database) idle in the same transaction: its own timeout (the credential's,
    // a role default no client can change) ends it; the watchdog ends the BI session.
    await idle.client.query('select count(*) from bi.teams');
    const { rows: [{ source }] } = await asSystem('test-fixture', () => database.pool.query('select role_name as source from bi_credentials where user_name = $1', [idle.user]));
    const within = patient.client.query('select pg_sleep(3)').then(() => 'done', (e: { code?: string }) => e.code ?? 'error');
    // Observed, not slept: by the database's clock both sessions are past their 500 ms and the
    // watchdog's grace (1 s), and the source role's session has been ended by its own timeout.
    await until('both sessions past limit and grace, the source session ended', async () => {
      const { rows: [seen] } = await asSystem('test-fixture', () => database.pool.query(
        `select count(*) filter (where usename = $1 and state = 'active' and query_start < clock_timestamp() - interval '1500 milliseconds')::int as slow,
                count(*) filter (where usename = $2 and state like 'idle in transaction%' and state_change < clock_timestamp() - interval '1500 milliseconds')::int as idle,
                count(*) filter (where usename = $3)::int as source
         from pg_stat_activity`,
        [slow.user, idle.user, source],
      ));
      return seen.slow === 1 && seen.idle === 1 && seen.source === 0;
    });

    const result = (await run()) as { stopped: { user: string; action: string }[] };
    expect(result.stopped).to.have.deep.members([{ user: slow.user, action: 'cancel' }, { user: idle.user, action: 'terminate' }]);
    expect((await asSystem('test-fixture', () => database.pool.query('select 1 from pg_stat_activity where usename = $1', [source]))).rowCount).to.equal(0);
    expect(await running).to.equal('57014');
    expect(await slow.client.query('select 1 as ok').then((r) => r.rows[0].ok)).to.equal(1);
    let ended = false;
    await idle.client.query('select 1').catch(() => (ended = true));
    expect(ended).to.equal(true);
    expect(await within).to.equal('done');
    expect(((await run()) as { stopped: unknown[] }).stopped).to.deep.equal([]);
  });
});
