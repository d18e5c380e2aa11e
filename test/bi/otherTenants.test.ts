/**
 * A BI grant changes nothing outside its tenant (issue 32): the database's PUBLIC privileges are
 * taken once, by `migrate` (src/db/privileges.ts), after the application's roles were granted what
 * they use, never by a grant. Before, a grant took TEMPORARY from PUBLIC, and tenant work (as
 * app_tenant, which had it only through PUBLIC) could no longer create the register import's
 * temporary tables on any new connection. That `migrate` takes PUBLIC's privileges on a clone is
 * tested on a cluster of its own (test/bi/cluster.test.ts).
 */
import { setTimeout as delay } from 'node:timers/promises';
import { expect } from 'chai';
import type { BuiltTenant } from '../helpers/factories.js';
import { testServer, type TestServer } from '../helpers/server.js';
import { CSV, EXAMPLE_REGISTER } from '../organisation/helpers.js';
import { serverWithTwoTenants } from '../helpers/suites.js';

const ENV = { JOBS_POLL_INTERVAL_MS: '100' };

describe('a BI grant changes nothing outside its tenant', function () {
  this.timeout(120_000);
  let api: TestServer, a: BuiltTenant, b: BuiltTenant;
  after(() => api?.close());

  it("after tenant B's grant and a restart (new connections), tenant A imports a register synchronously and through the workflow", async () => {
    ({ api, a, b } = await serverWithTwoTenants({ env: ENV }));
    const granted = await api.as(b.owner.apiKey).post('/api/bi/credentials', { name: 'Metabase' });
    expect(granted.status).to.equal(201);
    // The restart: every connection of the pool is new, so none kept a temporary schema from before.
    await api.close();
    api = await testServer({ databaseUrl: api.databaseUrl, env: ENV });

    const sync = await api.as(a.owner.apiKey).post('/api/register/imports', EXAMPLE_REGISTER, CSV);
    expect([sync.status, sync.body.data?.rowCount]).to.deep.equal([201, 6]);

    // The workflow applies a changed file (the same one again would change nothing): one row less.
    const shorter = `${EXAMPLE_REGISTER.trimEnd().split('\n').slice(0, -1).join('\n')}\n`;
    const queued = await api.as(a.owner.apiKey).post('/api/register/imports?mode=async', shorter, CSV);
    expect(queued.status).to.equal(202);
    const { jobId } = queued.body.data;
    let outcome: any;
    for (const end = Date.now() + 60_000; Date.now() < end; await delay(100)) {
      outcome = (await api.as(a.owner.apiKey).get(`/api/register/imports/jobs/${jobId}`)).body;
      if (outcome.data.status === 'completed' || outcome.data.status === 'failed') break;
    }
    expect(outcome.data).to.deep.include({ status: 'completed', rowCount: 5, recorded: true });
    expect((await api.as(a.owner.apiKey).get('/api/register/imports')).body.data).to.have.length(2);
    expect((await api.as(b.owner.apiKey).get('/api/bi/credentials')).body.data).to.have.length(1);
  });
});
