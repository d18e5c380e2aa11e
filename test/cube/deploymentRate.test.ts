import { expect } from 'chai';
import { buildTenant, type BuiltTenant } from '../helpers/factories.js';
import { testServer, type TestServer } from '../helpers/server.js';
import { SEED_ENV, seedTenant } from '../web/seed.js';
import { seedRatesAndUnowned } from '../web/seedRates.js';

/**
 * Deployment frequency as a rate (issue 38): production deployments per day and per week over the
 * days the scope had a deployment source in the date range. Numbers worked out in
 * test/web/seedRates.ts.
 */
describe('deployment frequency as a rate (deployments cube)', function () {
  this.timeout(120_000);
  let api: TestServer;
  let t: BuiltTenant;
  let teams: Record<string, string>;
  const MEASURES = ['deployments.production_deploys', 'deployments.deployment_source_since', 'deployments.deployment_source_days', 'deployments.production_deploys_per_day', 'deployments.production_deploys_per_week'];
  const WINDOW = { dimension: 'deployments.created_at', dateRange: ['2026-01-01', '2026-03-31'] };

  before(async () => {
    api = await testServer({ env: SEED_ENV });
    t = await buildTenant(api.databaseUrl, 'Rates');
    teams = (await seedTenant(api, t.owner.apiKey, t.tenantId)).teams;
    await seedRatesAndUnowned(api, t.owner.apiKey);
  });
  after(() => api.close());

  const load = async (query: object) => {
    const res = await api.as(t.owner.apiKey).post('/cubejs-api/v1/load', { query, castNumerics: true });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body.data as Record<string, unknown>[];
  };
  const cells = (r: Record<string, unknown>) => [
    r['deployments.production_deploys'], r['deployments.deployment_source_since'], r['deployments.deployment_source_days'],
    Number((r['deployments.production_deploys_per_day'] as number).toFixed(4)), Number((r['deployments.production_deploys_per_week'] as number).toFixed(4)),
  ];

  it('by team: each team over the days since its first deployment, the projects no team owns as their own row', async () => {
    const rows = await load({ measures: MEASURES, dimensions: ['teams.slug'], timeDimensions: [WINDOW], order: { 'teams.slug': 'asc' } });
    expect(rows.map((r) => [r['teams.slug'], ...cells(r)])).to.deep.equal([
      ['alpha', 4, '2026-01-01T00:00:00.000', 90, 0.0444, 0.3111],
      ['beta', 5, '2026-03-02T00:00:00.000', 30, 0.1667, 1.1667],
      [null, 2, '2026-02-10T00:00:00.000', 50, 0.04, 0.28],
    ]);
  });

  it('the organisation over the whole window (its first deployment precedes it); a team filter narrows the scope', async () => {
    expect((await load({ measures: MEASURES, timeDimensions: [WINDOW] })).map(cells)).to.deep.equal([[11, '2026-01-01T00:00:00.000', 90, 0.1222, 0.8556]]);
    expect((await load({ measures: MEASURES, timeDimensions: [WINDOW], filters: [{ member: 'teams.id', operator: 'equals', values: [teams.beta] }] })).map(cells))
      .to.deep.equal([[5, '2026-03-02T00:00:00.000', 30, 0.1667, 1.1667]]);
    // The previous window: only Alpha's 2025-11-01 deployment, over Nov 1..Dec 31.
    expect((await load({ measures: MEASURES, timeDimensions: [{ ...WINDOW, dateRange: ['2025-10-01', '2025-12-31'] }] })).map(cells))
      .to.deep.equal([[1, '2025-11-01T00:00:00.000', 61, 0.0164, 0.1148]]);
  });

  it('a team with a source but no deployment in the window has a rate of 0; one without a source has none', async () => {
    const january = { ...WINDOW, dateRange: ['2026-01-01', '2026-01-31'] };
    const beta = await load({ measures: MEASURES, timeDimensions: [january], filters: [{ member: 'teams.id', operator: 'equals', values: [teams.beta] }] });
    // Beta's source starts after January: no day of January had one.
    expect(beta.map((r) => [r['deployments.production_deploys'], r['deployments.deployment_source_days'], r['deployments.production_deploys_per_day']])).to.deep.equal([[0, null, null]]);
    const alphaInApril = await load({ measures: MEASURES, timeDimensions: [{ ...WINDOW, dateRange: ['2026-04-01', '2026-04-30'] }], filters: [{ member: 'teams.id', operator: 'equals', values: [teams.alpha] }] });
    expect(alphaInApril.map(cells)).to.deep.equal([[0, '2026-04-01T00:00:00.000', 30, 0, 0]]);
  });

  it('refuses the rate by month: it is over the whole date range', async () => {
    const res = await api.as(t.owner.apiKey).post('/cubejs-api/v1/load', { query: { measures: ['deployments.production_deploys_per_week'], timeDimensions: [{ ...WINDOW, granularity: 'month' }] } });
    expect(res.status).to.equal(400);
    expect(JSON.stringify(res.body)).to.include("deployments.production_deploys_per_week is a rate over the query's whole date range, not per month");
  });
});
