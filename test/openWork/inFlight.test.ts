import { expect } from 'chai';
import { buildTenant, dbFor, type BuiltTenant } from '../helpers/factories.js';
import { testServer, type TestServer } from '../helpers/server.js';
import { codehostEnv } from '../activity/helpers.js';
import { seedInFlight, type SeededInFlight } from './inFlightSeed.js';

/**
 * Work in flight a manager acts on (issue 47 point 5) on `GET /api/open-work`: merged changes not yet
 * deployed, and PRs waiting for a first review longer than their team's pickup median. Rows and
 * numbers worked out by hand in inFlightSeed.ts.
 */
describe('open work: undeployed changes and PRs waiting for a first review', function () {
  this.timeout(60_000);
  let api: TestServer;
  let tenant: BuiltTenant;
  let other: BuiltTenant;
  let seeded: SeededInFlight;
  const HOUR = 3600;

  before(async function () {
    this.timeout(120_000);
    api = await testServer({ env: codehostEnv() });
    tenant = await buildTenant(api.databaseUrl, 'In flight');
    other = await buildTenant(api.databaseUrl, 'Other in flight');
    seeded = await seedInFlight(api, tenant.owner.apiKey, tenant.tenantId);
  });
  after(() => api.close());

  const get = (path: string, key = tenant.owner.apiKey) => api.as(key).get(path);
  const iso = (s: string) => new Date(s).toISOString();
  /** An age counted to meta.asOf from a seeded time. */
  const ageOf = (body: { meta: { asOf: string } }, time: string) => Math.floor((Date.parse(body.meta.asOf) - Date.parse(time)) / 1000);

  it('lists merged changes no production deployment has shipped yet, oldest merge first, with the time since the merge and the PR\'s link', async () => {
    const res = await get('/api/open-work');
    expect(res.status).to.equal(200);
    const alpha = { id: seeded.teams.alpha, slug: 'alpha', name: 'Alpha' };
    expect(res.body.data.undeployedChanges.map(({ id: _i, ...r }: Record<string, unknown>) => r)).to.deep.equal([
      { repository: 'acme/api', number: 3, title: 'Change 3', url: 'https://github.com/acme/api/pull/3', author: 'ann', team: alpha, mergedAt: iso(seeded.at(20)), ageSeconds: ageOf(res.body, seeded.at(20)) },
      { repository: 'acme/api', number: 4, title: 'Change 4', url: 'https://github.com/acme/api/pull/4', author: 'ann', team: alpha, mergedAt: iso(seeded.at(2)), ageSeconds: ageOf(res.body, seeded.at(2)) },
    ]);
    // The ages are the hours since the merge (to the second the seed started, plus the seconds the seed took).
    expect(res.body.data.undeployedChanges.map((r: { ageSeconds: number }) => Math.floor(r.ageSeconds / HOUR))).to.deep.equal([20, 2]);
    expect(res.body.meta.totals).to.deep.include({ undeployedChanges: 2 });
  });

  it('lists open PRs ready for review that no one else has reviewed, waiting longer than their team\'s pickup median', async () => {
    const res = await get('/api/open-work');
    const alpha = { id: seeded.teams.alpha, slug: 'alpha', name: 'Alpha' };
    expect(res.body.data.awaitingFirstReview.map(({ id: _i, ...r }: Record<string, unknown>) => r)).to.deep.equal([
      { repository: 'acme/api', number: 9, title: 'Change 9', url: 'https://github.com/acme/api/pull/9', author: 'ann', team: alpha, readyAt: iso(seeded.at(12)), ageSeconds: ageOf(res.body, seeded.at(12)), pickupMedianSeconds: 4 * HOUR, requested: [] },
      { repository: 'acme/api', number: 5, title: 'Change 5', url: 'https://github.com/acme/api/pull/5', author: 'ann', team: alpha, readyAt: iso(seeded.at(8)), ageSeconds: ageOf(res.body, seeded.at(8)), pickupMedianSeconds: 4 * HOUR, requested: ['bo'] },
    ]);
    expect(res.body.meta.totals).to.deep.include({ awaitingFirstReview: 2 });
    expect(res.body.meta.pickup).to.deep.equal([{ team: alpha, p50Seconds: 4 * HOUR, n: 4 }]);
    expect(res.body.meta.pickupWindowDays).to.equal(90);
  });

  it('the pickup median is the cube\'s pull_requests.pickup_time_p50_seconds over the 90 days to asOf, by team (ready from the draft made ready; the author\'s own review and a bot\'s are no first review)', async () => {
    const res = await get('/api/open-work');
    const asOf = Date.parse(res.body.meta.asOf);
    const load = await api.as(tenant.owner.apiKey).post('/cubejs-api/v1/load', {
      query: {
        measures: ['pull_requests.pickup_time_p50_seconds', 'pull_requests.pickup_time_count'],
        dimensions: ['pull_requests.team_id'],
        timeDimensions: [{ dimension: 'pull_requests.merged_at', dateRange: [new Date(asOf - 90 * 86_400_000).toISOString(), new Date(asOf - 1).toISOString()] }],
        filters: [{ member: 'pull_requests.pickup_time_count', operator: 'gt', values: ['0'] }],
      },
      castNumerics: true,
    });
    expect(load.status, load.text).to.equal(200);
    const cube = (load.body.data as Record<string, unknown>[]).map((r) => ({ team: r['pull_requests.team_id'], p50Seconds: r['pull_requests.pickup_time_p50_seconds'], n: r['pull_requests.pickup_time_count'] }));
    expect(cube).to.deep.equal([{ team: seeded.teams.alpha, p50Seconds: 4 * HOUR, n: 4 }]);
    expect(res.body.meta.pickup.map((p: { team: { id: string } | null; p50Seconds: number; n: number }) => ({ team: p.team?.id ?? null, p50Seconds: p.p50Seconds, n: p.n }))).to.deep.equal(cube);
    // Another tenant's key finds nothing of this one.
    expect((await get('/api/open-work', other.owner.apiKey)).body.meta.pickup).to.deep.equal([]);
  });

  it('narrows to one team: Beta has no deployment source (nothing undeployed) and no pickup median (nothing listed)', async () => {
    const beta = await get(`/api/open-work?team=beta`);
    expect(beta.status).to.equal(200);
    expect([beta.body.data.undeployedChanges, beta.body.data.awaitingFirstReview, beta.body.meta.pickup]).to.deep.equal([[], [], []]);
    const alpha = await get(`/api/open-work?team=${seeded.teams.alpha}`);
    expect([alpha.body.data.undeployedChanges.map((r: { number: number }) => r.number), alpha.body.data.awaitingFirstReview.map((r: { number: number }) => r.number)]).to.deep.equal([[3, 4], [9, 5]]);
  });

  it('shows another tenant none of it, and its teams are not found', async () => {
    const res = await get('/api/open-work', other.owner.apiKey);
    expect(res.status).to.equal(200);
    expect([res.body.data.undeployedChanges, res.body.data.awaitingFirstReview, res.body.meta.pickup]).to.deep.equal([[], [], []]);
    expect(res.body.meta.totals).to.deep.include({ undeployedChanges: 0, awaitingFirstReview: 0 });
    const foreign = await get(`/api/open-work?team=${seeded.teams.alpha}`, other.owner.apiKey);
    expect(foreign.status).to.equal(404);
  });

  it('a first review by someone else takes a PR off the list; a deployment ships the waiting changes', async () => {
    const { pool } = dbFor(api.databaseUrl);
    // bo reviews #9 now; a successful production deployment of acme/api now ships #3 and #4.
    const project = (await pool.query(`select id from projects where tenant_id = $1 and project_key = 'acme/api'`, [tenant.tenantId])).rows[0].id;
    await pool.query(`insert into pull_request_reviewers (tenant_id, project_id, pull_request_number, reviewer, state, at) values ($1, $2, 9, 'bo', 'approved', now())`, [tenant.tenantId, project]);
    const deployed = await api.as(tenant.owner.apiKey).post('/api/webhooks/v1/deployments', { projectKey: 'acme/api', externalId: 'd4', ref: 'main', sha: 'a'.repeat(40), environment: 'production', status: 'success', createdAt: new Date().toISOString() });
    expect(deployed.status).to.be.oneOf([200, 201, 202]);
    const res = await get('/api/open-work?team=alpha');
    expect(res.body.data.undeployedChanges).to.deep.equal([]);
    expect(res.body.data.awaitingFirstReview.map((r: { number: number }) => r.number)).to.deep.equal([5]);
  });
});
