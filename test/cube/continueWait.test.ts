/**
 * Long queries: Cube's "Continue wait" answer after CUBE_CONTINUE_WAIT_SECONDS, the result on a
 * later request, and the statement timeout (CUBE_QUERY_TIMEOUT_SECONDS) that frees the connection.
 * A query is made slow by holding a lock on the table under its cube.
 */
import { expect } from 'chai';
import cube from '@cubejs-client/core';
import pg from 'pg';
import type { TestServer } from '../helpers/server.js';
import { dbFor, type BuiltTenant } from '../helpers/factories.js';
import { DEFAULT_CUBE_SETTINGS, configureCube } from '../../src/cube/settings.js';
import { buildRestFixture } from './restFixture.js';
import { serverWithTwoTenants } from '../helpers/suites.js';

const PRS = 'pull_requests.prs_merged';
const QUERY = { measures: [PRS] };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('Cube REST: long queries', function () {
  this.timeout(60_000);
  let api: TestServer, a: BuiltTenant, b: BuiltTenant;
  let locker: pg.Client;

  before(async () => {
    ({ api, a, b } = await serverWithTwoTenants({ env: { CUBE_CONTINUE_WAIT_SECONDS: '1', CUBE_QUERY_TIMEOUT_SECONDS: '6' } }));
    await buildRestFixture(dbFor(api.databaseUrl).pool, a.tenantId);
    // Compiled and warm before any timing below (compiling alone may take longer than the wait).
    let warm = await api.as(a.owner.apiKey).post('/cubejs-api/v1/load', { query: QUERY });
    while (warm.body.error === 'Continue wait') warm = await api.as(a.owner.apiKey).post('/cubejs-api/v1/load', { query: QUERY });
    expect(warm.body.data).to.deep.equal([{ [PRS]: '10' }]);
  });
  after(async () => {
    await api.close();
    configureCube(DEFAULT_CUBE_SETTINGS);
  });
  beforeEach(async () => {
    locker = new pg.Client({ connectionString: api.databaseUrl });
    await locker.connect();
  });
  afterEach(async () => {
    await locker.query('rollback').catch(() => undefined);
    await locker.end();
  });

  const lock = async () => {
    await locker.query('begin');
    await locker.query('lock table pull_requests in access exclusive mode');
  };
  const ask = (key: string) => api.as(key).get(`/cubejs-api/v1/load?query=${encodeURIComponent(JSON.stringify(QUERY))}`);

  it('answers "Continue wait" (200) while the query runs, then the result; tenants never share an answer', async () => {
    await lock();
    const started = Date.now();
    const first = await ask(a.owner.apiKey);
    // At least the wait; no upper bound: a loaded machine answers later, never sooner.
    expect(Date.now() - started).to.be.greaterThan(900);
    expect(first.status).to.equal(200);
    expect(first.body).to.deep.equal({ error: 'Continue wait', requestId: first.headers.get('x-request-id') });
    // The same query of another tenant is another query.
    const other = await ask(b.owner.apiKey);
    expect(other.body.error).to.equal('Continue wait');
    await locker.query('commit');
    const second = await ask(a.owner.apiKey);
    expect(second.status).to.equal(200);
    expect(second.body.data).to.deep.equal([{ [PRS]: '10' }]);
    expect((await ask(b.owner.apiKey)).body.data).to.deep.equal([{ [PRS]: '0' }]);
  });

  it('@cubejs-client/core asks again on "Continue wait" and reports progress', async () => {
    await lock();
    const progress: unknown[] = [];
    // Observed, not timed: the lock goes once the client has reported a "Continue wait", so the
    // answer it then gets is one it asked for again.
    let committed: Promise<unknown> | undefined;
    const result = await cube(a.owner.apiKey, { apiUrl: `${api.baseUrl}/cubejs-api/v1` }).load(QUERY, {
      progressCallback: (p) => {
        progress.push(p.stage());
        committed ??= locker.query('commit');
      },
    });
    await committed;
    expect(result.rawData()).to.deep.equal([{ [PRS]: '10' }]);
    expect(progress.length).to.be.greaterThan(0);
  });

  it('cancels a query after the statement timeout (504 in Cube\'s body) and frees its connection', async () => {
    await lock();
    let answer = await ask(a.owner.apiKey);
    const started = Date.now();
    while (answer.body.error === 'Continue wait' && Date.now() - started < 20_000) answer = await ask(a.owner.apiKey);
    expect(answer.status).to.equal(504);
    expect(answer.body).to.deep.include({
      error: 'The query ran longer than 6 s (CUBE_QUERY_TIMEOUT_SECONDS) and was cancelled; narrow its date range or its members',
      code: 'timeout',
    });
    // The cancelled statement leaves pg_stat_activity: waited for, as a positive signal.
    const active = async () => (await dbFor(api.databaseUrl).pool.query(`select count(*)::int as n from pg_stat_activity where query like '%cube_pull_requests%' and state = 'active' and pid <> pg_backend_pid()`)).rows[0].n;
    let n = await active();
    for (const deadline = Date.now() + 10_000; n !== 0 && Date.now() < deadline; n = await active()) await sleep(50);
    expect(n).to.equal(0);
  });
});
