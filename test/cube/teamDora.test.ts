import { expect } from 'chai';
import { buildTenant, type BuiltTenant } from '../helpers/factories.js';
import { testServer, type TestServer } from '../helpers/server.js';
import { codehostEnv } from '../activity/helpers.js';
import { doraRating, lowestTier, RATING_QUERY_MEMBERS } from '../../src/shared/doraBands.js';
import { MARCH, seedTeamDora, type SeededTeamDora } from './teamDoraSeed.js';

/**
 * Each team's DORA rating and the organisation's (issue 47 point 4), over the cube's numbers for
 * the tenant of teamDoraSeed.ts, where every value and band is worked out by hand.
 */
describe('DORA rating per team, and the organisation by its median project', function () {
  this.timeout(120_000);
  let api: TestServer;
  let t: BuiltTenant;
  let other: BuiltTenant;
  let seeded: SeededTeamDora;
  const WINDOW = { dimension: 'deployments.created_at', dateRange: [...MARCH] };
  const MEDIAN = ['deployments.project_deploys_per_day_p50', 'deployments.project_deploys_per_week_p50', 'deployments.rated_projects'];

  before(async () => {
    api = await testServer({ env: codehostEnv() });
    t = await buildTenant(api.databaseUrl, 'Team DORA');
    other = await buildTenant(api.databaseUrl, 'Other');
    seeded = await seedTeamDora(api, t.owner.apiKey, t.tenantId);
  });
  after(() => api.close());

  const load = async (query: object, key = t.owner.apiKey) => {
    const res = await api.as(key).post('/cubejs-api/v1/load', { query, castNumerics: true });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body.data as Record<string, unknown>[];
  };
  const round = (v: unknown) => (typeof v === 'number' ? Number(v.toFixed(4)) : v);
  /** The rating's members over March, as the pages ask for them: each fact cube's window a filter of its own time dimension. */
  const ratingQuery = (dimensions: string[] = [], filters: object[] = []) => ({
    measures: [...RATING_QUERY_MEMBERS, 'deployments.production_deploys', 'deployments.finished_production_deploys', 'deployments.recovered_deploys', 'change_lead_times.deployed_changes'],
    dimensions,
    filters: [
      ...filters,
      { member: 'deployments.created_at', operator: 'inDateRange', values: [...MARCH] },
      { member: 'change_lead_times.deployed_at', operator: 'inDateRange', values: [...MARCH] },
      { member: 'incidents.closed_at', operator: 'inDateRange', values: [...MARCH] },
    ],
  });
  const valueOf = (row: Record<string, unknown> | undefined) => (member: string) => (typeof row?.[member] === 'number' ? (row[member] as number) : null);

  it('the organisation\'s deployment frequency: the median project\'s rate (1 and 2/31 a day), not the total', async () => {
    const [org] = await load({ measures: ['deployments.production_deploys', 'deployments.production_deploys_per_day', ...MEDIAN], timeDimensions: [WINDOW] });
    expect(Object.fromEntries(Object.entries(org!).map(([k, v]) => [k, round(v)]))).to.deep.equal({
      'deployments.production_deploys': 33,
      'deployments.production_deploys_per_day': 1.0645,
      'deployments.project_deploys_per_day_p50': 0.5323,
      'deployments.project_deploys_per_week_p50': 3.7258,
      'deployments.rated_projects': 2,
    });
  });

  it('rates the organisation high by its median project; by the total it would have been elite', async () => {
    const [org] = await load(ratingQuery());
    const rating = doraRating(valueOf(org), true);
    expect(rating).to.deep.equal({ deploymentFrequency: 'high', leadTime: 'elite', changeFailureRate: 'elite', recoveryTime: 'high', timeToRestore: null, overall: 'high', measured: 4 });
    // The sum rule's band, for the record: the total rate is elite.
    expect(doraRating(valueOf(org), false).deploymentFrequency).to.equal('elite');
  });

  it('each team: its own values, the band of each measure and its overall band', async () => {
    const rows = await load({ ...ratingQuery(['teams.slug']), order: { 'teams.slug': 'asc' } });
    const pick = (r: Record<string, unknown>) => ({
      slug: r['teams.slug'],
      perDay: round(r['deployments.production_deploys_per_day']),
      deploys: r['deployments.production_deploys'],
      leadTime: r['change_lead_times.lead_time_for_changes_p50_seconds'],
      leadTimeN: r['change_lead_times.deployed_changes'],
      cfr: r['deployments.change_failure_rate'],
      finished: r['deployments.finished_production_deploys'],
      recovery: r['deployments.failed_deployment_recovery_time_p50_seconds'],
      recovered: r['deployments.recovered_deploys'],
      rating: doraRating(valueOf(r), false),
    });
    expect(rows.map(pick)).to.deep.equal([
      {
        slug: 'alpha', perDay: 1, deploys: 31, leadTime: 12 * 3600, leadTimeN: 3, cfr: 0.03125, finished: 32, recovery: 23 * 3600, recovered: 1,
        rating: { deploymentFrequency: 'elite', leadTime: 'elite', changeFailureRate: 'elite', recoveryTime: 'high', timeToRestore: null, overall: 'high', measured: 4 },
      },
      {
        slug: 'beta', perDay: 0.0645, deploys: 2, leadTime: null, leadTimeN: null, cfr: 0, finished: 2, recovery: null, recovered: 0,
        rating: { deploymentFrequency: 'medium', leadTime: null, changeFailureRate: 'elite', recoveryTime: null, timeToRestore: null, overall: 'medium', measured: 2 },
      },
    ]);
  });

  it('one team\'s median project is its own rate; a team filter narrows the median\'s projects', async () => {
    const [beta] = await load({ measures: MEDIAN, timeDimensions: [WINDOW], filters: [{ member: 'teams.id', operator: 'equals', values: [seeded.teams.beta] }] });
    expect([round(beta!['deployments.project_deploys_per_day_p50']), beta!['deployments.rated_projects']]).to.deep.equal([0.0645, 1]);
  });

  it('a window before any deployment has no rated project and no median', async () => {
    const [feb] = await load({ measures: MEDIAN, timeDimensions: [{ ...WINDOW, dateRange: ['2026-02-01', '2026-02-28'] }] });
    expect(feb).to.deep.equal({ 'deployments.project_deploys_per_day_p50': null, 'deployments.project_deploys_per_week_p50': null, 'deployments.rated_projects': 0 });
  });

  it('refuses the median rate by month, like every rate over the window', async () => {
    const res = await api.as(t.owner.apiKey).post('/cubejs-api/v1/load', { query: { measures: ['deployments.project_deploys_per_day_p50'], timeDimensions: [{ ...WINDOW, granularity: 'month' }] } });
    expect(res.status).to.equal(400);
    expect(JSON.stringify(res.body)).to.include("deployments.project_deploys_per_day_p50 is a rate over the query's whole date range");
  });

  it('another tenant sees none of these projects in its median', async () => {
    const [org] = await load({ measures: MEDIAN, timeDimensions: [WINDOW] }, other.owner.apiKey);
    expect(org).to.deep.equal({ 'deployments.project_deploys_per_day_p50': null, 'deployments.project_deploys_per_week_p50': null, 'deployments.rated_projects': 0 });
  });

  it('the overall band is the lowest band with a value', () => {
    expect(lowestTier(['elite', null, 'medium', 'high'])).to.equal('medium');
    expect(lowestTier([null, null])).to.equal(null);
  });
});
