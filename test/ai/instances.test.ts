/**
 * Three instances on one database: a session's summary and assessment are made and stored once;
 * the assessment becomes the cube's per-team, per-month measures.
 */
import { expect } from 'chai';
import pg from 'pg';
import { freshDatabase } from '../helpers/database.js';
import { buildTenant } from '../helpers/factories.js';
import { testServer, type TestServer } from '../helpers/server.js';
import { register, CSV } from '../organisation/helpers.js';
import { aiEnv, GOOD_ASSESSMENT, isAssessment, sessionBody, startFakes, until, type Fakes } from './helpers.js';

describe('AI session reviews across three instances', function () {
  this.timeout(120_000);
  let fakes: Fakes;
  let servers: TestServer[] = [];
  let pool: pg.Pool;

  before(async () => {
    fakes = await startFakes();
    const databaseUrl = await freshDatabase();
    const env = aiEnv(fakes);
    for (let i = 0; i < 3; i++) servers.push(await testServer({ databaseUrl, env }));
    pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  });
  after(async () => {
    await Promise.all(servers.map((s) => s.close()));
    servers = [];
    await pool?.end();
    await fakes?.close();
  });

  it('stores each review once, and the cube reports the mean score and count per team and month', async () => {
    const [one, two, three] = servers as [TestServer, TestServer, TestServer];
    const tenant = await buildTenant(one.databaseUrl);
    const key = tenant.owner.apiKey;
    const imported = await one.as(key).post('/api/register/imports', register(`p1,${tenant.owner.email},Owner,employee,,CC1,GB,alpha,Alpha,T-A,CC1,eng`), CSV);
    expect(imported.status).to.be.oneOf([200, 201]);
    let scores = [100, 60, 40];
    fakes.a.respond = (r) => {
      if (!isAssessment(r)) return { text: 'a summary' };
      const score = scores.shift();
      // 100: all good; 60: tests not run and rework needed; 40: task not completed, risky.
      return { text: JSON.stringify(score === 100 ? GOOD_ASSESSMENT : score === 60 ? { ...GOOD_ASSESSMENT, testsRun: false, reworkNeeded: true } : { ...GOOD_ASSESSMENT, taskCompleted: false, riskyActions: true }) };
    };
    const ids: string[] = [];
    const uploads = [[one, '2026-03-03T10:00:00Z'], [two, '2026-03-20T10:00:00Z'], [three, '2026-04-02T10:00:00Z']] as const;
    for (const [server, startedAt] of uploads) {
      ids.push((await server.as(key).post('/api/sessions', sessionBody({ startedAt, endedAt: null }))).body.data.id);
      // One at a time, so the scripted scores meet the sessions in order.
      await until('the assessment', async () => (await pool.query('select 1 from session_assessments where session_id = $1', [ids.at(-1)])).rowCount);
    }
    await until('the summaries', async () => (await pool.query('select count(*)::int as n from session_summaries where tenant_id = $1', [tenant.tenantId])).rows[0].n === 3);
    // Every review job has finished on some instance before anything is counted (a duplicate claim
    // would have called the model by then).
    await until('every review job finished', async () => (await pool.query(
      `select count(*)::int as n from pgboss.job where name in ('ai.session-summary', 'ai.session-assessment') and data->>'tenantId' = $1 and state = 'completed'`,
      [tenant.tenantId])).rows[0].n === 6);
    const summaries = await pool.query('select session_id, text, model from session_summaries where tenant_id = $1', [tenant.tenantId]);
    expect(summaries.rows).to.have.length(3);
    expect(fakes.a.requests.filter((r) => !isAssessment(r))).to.have.length(3);
    expect(fakes.a.requests.filter(isAssessment)).to.have.length(3);
    const calls = await pool.query(`select feature, count(*)::int as n from ai_calls where tenant_id = $1 group by 1 order by 1`, [tenant.tenantId]);
    expect(calls.rows).to.deep.equal([{ feature: 'assessment', n: 3 }, { feature: 'summary', n: 3 }]);

    const query = { measures: ['session_assessments.assessment_score_mean', 'session_assessments.assessed_sessions'], dimensions: ['teams.slug'], timeDimensions: [{ dimension: 'session_assessments.started_at', granularity: 'month', dateRange: ['2026-03-01', '2026-04-30'] }] };
    const res = await three.as(key).get(`/cubejs-api/v1/load?query=${encodeURIComponent(JSON.stringify(query))}`);
    expect(res.status).to.equal(200);
    const rows = res.body.data.map((r: Record<string, unknown>) => [r['teams.slug'], r['session_assessments.started_at.month'], Number(r['session_assessments.assessment_score_mean']), Number(r['session_assessments.assessed_sessions'])]);
    expect(rows).to.deep.equal([
      ['alpha', '2026-03-01T00:00:00.000', 80, 2],
      ['alpha', '2026-04-01T00:00:00.000', 40, 1],
    ]);
    // Another tenant's cube sees none of it.
    const other = await buildTenant(one.databaseUrl);
    const theirs = await one.as(other.owner.apiKey).get(`/cubejs-api/v1/load?query=${encodeURIComponent(JSON.stringify(query))}`);
    expect(theirs.body.data).to.deep.equal([]);
    scores = [];
  });
});
