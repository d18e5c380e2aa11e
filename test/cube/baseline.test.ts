import { expect } from 'chai';
import { parse } from 'csv-parse/sync';
import { baseEnv, type TestServer } from '../helpers/server.js';
import { buildMember, buildSessionCookie, dbFor, type BuiltTenant } from '../helpers/factories.js';
import { runCli } from '../helpers/cli.js';
import { apiError, expectRefusal } from '../helpers/refusals.js';
import { BASELINE_COLUMNS } from '../../src/exports/baseline.js';
import { serverWithTwoFixtures, type Fixture } from './fixture.js';

const hc = { headcount: 3, internal_headcount: 1, external_headcount: 1 };
const zeroes = {
  active_authors: 0, issues_closed: 0, prs_merged: 0, pr_cycle_time_p50_seconds: null, issue_lead_time_p50_seconds: null,
  production_deploys: 0, change_failure_rate: null, mttr_p50_seconds: null, ceu_total: 0, ccv_total: 0, ai_assisted_pr_share: null,
  ai_seat_holders: 0, ai_active_users: 0, ai_sessions: 0, ai_commits: 0, survey_response_rate: null, team_experience_score: null,
  aiva_light_overall: 0, aiva_scope: 'adoption',
};

/** Every value worked out by hand from test/cube/fixture.ts (see the comments there and below). */
function expected(f: Fixture) {
  const alpha = {
    team_id: f.teams.alpha, team_slug: 'alpha', team_name: 'Team alpha', team_external_ref: 'EXT-A', cost_centre_code: 'CC-1',
    org_unit_id: f.orgUnit, org_unit_slug: 'eng', supplier_name: 'Acme', delivery_model: 'mixed', location_country: 'NL',
    ...hc, headcount_by_supplier: { Acme: 1 },
  };
  const beta = {
    team_id: f.teams.beta, team_slug: 'beta', team_name: 'Team beta', team_external_ref: null, cost_centre_code: null,
    org_unit_id: f.orgUnit, org_unit_slug: 'eng', supplier_name: null, delivery_model: null, location_country: null,
    headcount: 2, internal_headcount: 1, external_headcount: 1, headcount_by_supplier: { Bolt: 1 },
  };
  return [
    // Feb: dave's commit; p1's seat (15 Feb – 10 Mar).
    { ...alpha, month: '2025-02', ...zeroes, active_authors: 1, ai_seat_holders: 1 },
    {
      ...alpha, month: '2025-03', ...zeroes,
      active_authors: 3, // alice (PR + commit as ALICE), carol, dave
      issues_closed: 3, issue_lead_time_p50_seconds: 64800, // 172800, 64800, 7200 (the incident is an issue too)
      prs_merged: 3, pr_cycle_time_p50_seconds: 36000, ccv_total: 2208, ceu_total: 12, ai_assisted_pr_share: 0.6667,
      production_deploys: 4, // d1, d3 (isProduction), d5 (a rollback), d6; not d4 (staging), d7 (in progress), d8 (isProduction false)
      change_failure_rate: 0.8, // failed d1 (named by an incident), d2 (failure), d3 (rolled back later), d6 (incident within 24 h) ÷ 5 finished
      mttr_p50_seconds: 7200,
      ai_seat_holders: 1, ai_active_users: 1, ai_sessions: 2, ai_commits: 1,
      survey_response_rate: 1, team_experience_score: 50,
      aiva_light_overall: 50, aiva_scope: 'adoption+delivery+perception', // (33.33 + 66.67 + 50) / 3
    },
    {
      ...alpha, month: '2025-04', ...zeroes,
      issues_closed: 2, issue_lead_time_p50_seconds: 388800, mttr_p50_seconds: 388800, // 691200 and 86400
      production_deploys: 2, change_failure_rate: 0, // d10 was "rolled back" by an earlier deployment: not failed
      ai_seat_holders: 1, // p2 from 1 April
    },
    { ...beta, month: '2025-02', ...zeroes, ai_seat_holders: 1 },
    {
      ...beta, month: '2025-03', ...zeroes,
      ai_seat_holders: 1, ai_active_users: 2, ai_sessions: 3, ai_commits: 1, // p1 counts on both teams
      survey_response_rate: 0.5, team_experience_score: null, // one response: below the anonymity floor
      aiva_light_overall: 100, aiva_scope: 'adoption',
    },
    { ...beta, month: '2025-04', ...zeroes },
  ];
}

describe('team-baseline export', function () {
  this.timeout(60_000);
  let api: TestServer, a: BuiltTenant, b: BuiltTenant;
  let fa: Fixture;

  before(async () => {
    ({ api, a, b, fa } = await serverWithTwoFixtures());
    // Tenant B has one more merged PR in alpha's March: it must never show in A's numbers.
    await dbFor(api.databaseUrl).pool.query(
      `insert into pull_requests (tenant_id, project_id, external_id, number, title, state, created_at, merged_at)
       select tenant_id, id, 'extra', 99, 'x', 'merged', '2025-03-05Z', '2025-03-06Z' from projects where tenant_id = $1 and project_key = 'acme/api'`,
      [b.tenantId],
    );
  });
  after(() => api.close());

  it('computes every column of the hand-worked fixture (JSON)', async () => {
    const res = await api.as(a.owner.apiKey).get('/api/exports/team-baseline?from=2025-02&to=2025-04&format=json');
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('application/json; charset=utf-8');
    expect(res.body.from).to.equal('2025-02');
    expect(res.body.to).to.equal('2025-04');
    expect(Date.parse(res.body.generatedAt)).to.be.a('number').and.not.NaN;
    expect(res.body.rows.map((r: object) => Object.keys(r))).to.deep.equal(Array(6).fill([...BASELINE_COLUMNS]));
    expect(res.body.rows).to.deep.equal(expected(fa));
  });

  it('writes the same rows as CSV, with the JSON object as a JSON string and empty cells for NULL', async () => {
    const [csv, json] = await Promise.all([
      api.as(a.owner.apiKey).get('/api/exports/team-baseline?from=2025-02&to=2025-04'),
      api.as(a.owner.apiKey).get('/api/exports/team-baseline?from=2025-02&to=2025-04&format=json'),
    ]);
    expect(csv.status).to.equal(200);
    expect(csv.headers.get('content-type')).to.equal('text/csv; charset=utf-8');
    const lines = csv.text.split('\n');
    expect(lines[0]).to.equal(BASELINE_COLUMNS.join(','));
    expect(csv.text).to.contain('"{""Acme"":1}"');
    const records = parse(csv.text, { columns: true }) as Record<string, string>[];
    const asCsv = (v: unknown) => (v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v));
    expect(records).to.deep.equal(json.body.rows.map((r: Record<string, unknown>) => Object.fromEntries(BASELINE_COLUMNS.map((c) => [c, asCsv(r[c])]))));
  });

  it('keeps tenants apart', async () => {
    const res = await api.as(b.owner.apiKey).get('/api/exports/team-baseline?from=2025-03&to=2025-03&format=json');
    expect(res.body.rows.map((r: { team_slug: string; prs_merged: number }) => [r.team_slug, r.prs_merged])).to.deep.equal([['alpha', 4], ['beta', 0]]);
    const mine = await api.as(a.owner.apiKey).get('/api/exports/team-baseline?from=2025-03&to=2025-03&format=json');
    expect(mine.body.rows[0].prs_merged).to.equal(3);
    // Its own enabled teams, as B sees its own (gamma is disabled in the fixture).
    expect(mine.body.rows.map((r: { team_id: string }) => r.team_id)).to.deep.equal([fa.teams.alpha, fa.teams.beta]);
  });

  it('needs authentication and nothing more: a member key or a session works', async () => {
    const member = await buildMember(api.databaseUrl, a.tenantId);
    const url = '/api/exports/team-baseline?from=2025-03&to=2025-03';
    const owner = await api.as(a.owner.apiKey).get(url);
    expect((await api.as(member.apiKey).get(url)).text).to.equal(owner.text);
    const cookie = await buildSessionCookie(api.databaseUrl, member.userId, a.tenantId);
    const session = await api.with({ cookie }).get(url);
    expect(session.status).to.equal(200);
    expect(session.text).to.equal(owner.text);
    expect(session.headers.get('content-disposition')).to.equal('attachment; filename="team-baseline-2025-03-2025-03.csv"');
  });

  it('refuses windows over 36 months or reversed with 400, and applies the defaults', async () => {
    const key = api.as(a.owner.apiKey);
    const long = await key.get('/api/exports/team-baseline?from=2022-01&to=2025-01');
    expect(long.status).to.equal(400);
    expect(long.body).to.deep.equal({
      error: { code: 'validation_failed', message: 'Validation failed', details: [{ path: 'query.to', message: 'The window is at most 36 months (2022-01 to 2025-01 is 37)' }] },
    });
    const reversed = await key.get('/api/exports/team-baseline?from=2025-05&to=2025-04');
    expect(reversed.status).to.equal(400);
    expect(reversed.body.error.details).to.deep.equal([{ path: 'query.from', message: 'Must not be after to (2025-04)' }]);
    expectRefusal(await key.get('/api/exports/team-baseline?from=2025-13'), 400, { error: { code: 'validation_failed', message: 'Validation failed', details: [{ path: 'query.from', message: 'Must be a month YYYY-MM' }] } });
    expectRefusal(await key.get('/api/exports/team-baseline?format=xml'), 400, { error: { code: 'validation_failed', message: 'Validation failed', details: [{ path: 'query.format', message: 'Must be csv or json' }] } });
    expect((await key.get('/api/exports/team-baseline?from=2022-01&to=2024-12&format=json')).body.rows).to.have.length(72);
    const now = new Date().toISOString().slice(0, 7);
    const def = await key.get('/api/exports/team-baseline?format=json');
    expect(def.body.to).to.equal(now);
    expect(def.body.rows).to.have.length(26); // 13 months (to and the twelve before) × 2 enabled teams
    expectRefusal(await api.get('/api/exports/team-baseline'), 401, apiError('unauthorized', 'Missing or invalid credentials'));
  });

  it('the CLI writes the endpoint bytes and refuses the same windows', async function () {
    this.timeout(240_000); // three child processes, each compiling the models
    const env = baseEnv(api.databaseUrl);
    const url = '/api/exports/team-baseline?from=2025-02&to=2025-04';
    const at = '2025-05-01T00:00:00.000Z';
    const args = [`--tenant=${a.tenantId}`, '--from=2025-02', '--to=2025-04'];
    const [csv, http, cli, json, refused] = await Promise.all([
      api.as(a.owner.apiKey).get(url),
      api.as(a.owner.apiKey).get(`${url}&format=json`),
      runCli(['export:team-baseline', ...args], env),
      runCli(['export:team-baseline', ...args, '--format=json', `--generated-at=${at}`], env),
      runCli(['export:team-baseline', `--tenant=${a.tenantId}`, '--from=2022-01', '--to=2025-01'], env),
    ]);
    expect(cli.code, cli.stderr).to.equal(0);
    expect(cli.stdout).to.equal(csv.text);
    expect(json.stdout).to.equal(http.text.replace(/"generatedAt":"[^"]+"/, `"generatedAt":"${at}"`));
    expect(refused.code).to.equal(2);
    expect(refused.stderr).to.contain('--to: The window is at most 36 months');
  });

  it('GET /api/metrics: the same measures by team and month in the general envelope', async () => {
    const res = await api.as(a.owner.apiKey).get('/api/metrics?team=alpha&from=2025-03&to=2025-04');
    expect(res.status).to.equal(200);
    expect(res.body.meta).to.deep.equal({ page: 1, perPage: 25, total: 2, from: '2025-03', to: '2025-04' });
    const march = expected(fa)[1] as Record<string, unknown>;
    expect(res.body.data[0]).to.deep.include({ team_id: fa.teams.alpha, team_slug: 'alpha', month: '2025-03' });
    expect(res.body.data[0].measures).to.deep.equal(Object.fromEntries(Object.keys(res.body.data[0].measures).map((k) => [k, march[k]])));
    expect(Object.keys(res.body.data[0].measures)).to.include.members(['prs_merged', 'change_failure_rate', 'aiva_scope']);
    expectRefusal(await api.as(a.owner.apiKey).get('/api/metrics?from=2020-01&to=2025-01'), 400, { error: { code: 'validation_failed', message: 'Validation failed', details: [{ path: 'query.to', message: 'The window is at most 36 months (2020-01 to 2025-01 is 61)' }] } });
  });
});
