import { expect } from 'chai';
import type pg from 'pg';
import type { TestServer } from '../helpers/server.js';
import { dbFor, type BuiltTenant } from '../helpers/factories.js';
import { ROLLUPS } from '../../src/cube/rollups.js';
import { serverWithTwoTenants } from '../helpers/suites.js';

const DAY = 86_400;

/**
 * DORA lead time for changes (METRICS.md), values worked out by hand, read through
 * /cubejs-api/v1/load. Tenant A:
 *
 * acme/api (team alpha), deployments:
 *   d0  2025-03-01T00  production success                 before every merge below
 *   d1  2025-03-05T00  production failure                 not successful
 *   d2  2025-03-05T06  staging success                    not production
 *   d3  2025-03-05T12  production success, isProduction false: not production
 *   d4  2025-03-06T00  staging success, isProduction true: production → first eligible in March
 *   d4b 2025-03-06T00  the same as d4: the lower id of the two ships
 *   d5  2025-04-02T00  production success
 * acme/web (team beta): w1 2025-03-03T12 production success.
 * acme/unowned (no team): u1 2025-03-20T00 production success.
 *
 * PRs:
 *   pr1 api, opened 03-01, commits 03-02 and 02-27, merged 03-04 → d4: 02-27 → 03-06 = 7 d (first commit, not createdAt: 5 d)
 *   pr2 api, opened 03-03T12, no commit, merged 03-06T00 → d4 (same instant: at or after): 2.5 d (createdAt fallback)
 *   pr3 api, opened 03-10, commit 03-09, merged 03-31T23 → d5 in April: 24 d (month = deployment's)
 *   pr4 api, merged 04-03, nothing later → undeployed, no lead time
 *   pr5 api, open → not a change
 *   pr6 web, opened 03-01, commit 03-01T12, merged 03-02 → w1: 2 d
 *   pr7 unowned, opened 03-19, merged 03-19T12 → u1: 1 d (no team; tenant-wide only)
 *
 * March: alpha {7 d, 2.5 d} → median 4.75 d, n 2; beta {2 d}; no team {1 d}; tenant {1, 2, 2.5, 7 d} → 2.25 d, n 4.
 * April: alpha {24 d}, n 1; undeployed (by merge month) April 1.
 * Tenant B: one PR in March with a 100-day lead time on its own project.
 */
describe('lead time for changes (cube change_lead_times)', function () {
  this.timeout(60_000);
  let api: TestServer, a: BuiltTenant, b: BuiltTenant;
  let pool: pg.Pool;
  const ids: Record<string, string> = {};

  const one = async (sql: string, params: unknown[]) => (await pool.query(sql, params)).rows[0] as { id: string };
  const team = (t: string, slug: string) => one(`insert into teams (tenant_id, slug, name) values ($1, $2, $2) returning id`, [t, slug]);
  const project = (t: string, key: string, owner: string | null) =>
    one(`insert into projects (tenant_id, provider, project_key, source_type, owning_team_id) values ($1, 'manual', $2, 'manual', $3) returning id`, [t, key, owner]);
  const deploy = (t: string, projectId: string, ext: string, at: string, o: { env?: string; status?: string; prod?: boolean } = {}) =>
    one(
      `insert into deployments (tenant_id, project_id, provider, external_id, ref, sha, environment, status, task, is_production, created_at)
       values ($1, $2, 'manual', $3, 'main', md5($3), $4, $5, 'deploy', $6, $7) returning id`,
      [t, projectId, ext, o.env ?? 'production', o.status ?? 'success', o.prod ?? null, `${at}Z`],
    );
  let n = 0;
  const pr = (t: string, projectId: string, created: string, merged: string | null) =>
    one(
      `insert into pull_requests (tenant_id, project_id, external_id, number, title, state, created_at, merged_at)
       values ($1, $2, $3, $4, 'pr', $5, $6, $7) returning id`,
      [t, projectId, `pr-${++n}`, n, merged ? 'merged' : 'open', `${created}Z`, merged ? `${merged}Z` : null],
    );
  const commit = async (t: string, projectId: string, prId: string, at: string) => {
    const c = await one(`insert into commits (tenant_id, project_id, sha, committed_at, message) values ($1, $2, md5($3), $4, 'm') returning id`, [t, projectId, `${prId}${at}`, `${at}Z`]);
    await pool.query(`insert into pull_request_commits (pull_request_id, commit_id, tenant_id) values ($1, $2, $3)`, [prId, c.id, t]);
  };

  before(async () => {
    ({ api, a, b } = await serverWithTwoTenants());
    pool = dbFor(api.databaseUrl).pool;
    const t = a.tenantId;
    const alpha = (await team(t, 'alpha')).id;
    const beta = (await team(t, 'beta')).id;
    const apiP = (await project(t, 'acme/api', alpha)).id;
    const web = (await project(t, 'acme/web', beta)).id;
    const unowned = (await project(t, 'acme/unowned', null)).id;
    await deploy(t, apiP, 'd0', '2025-03-01T00:00:00');
    await deploy(t, apiP, 'd1', '2025-03-05T00:00:00', { status: 'failure' });
    await deploy(t, apiP, 'd2', '2025-03-05T06:00:00', { env: 'staging' });
    await deploy(t, apiP, 'd3', '2025-03-05T12:00:00', { prod: false });
    ids.d4 = (await deploy(t, apiP, 'd4', '2025-03-06T00:00:00', { env: 'staging', prod: true })).id;
    // Same instant as d4: the lower id ships the changes, each counted once.
    ids.d4b = (await deploy(t, apiP, 'd4b', '2025-03-06T00:00:00', { env: 'staging', prod: true })).id;
    ids.d5 = (await deploy(t, apiP, 'd5', '2025-04-02T00:00:00')).id;
    await deploy(t, web, 'w1', '2025-03-03T12:00:00');
    await deploy(t, unowned, 'u1', '2025-03-20T00:00:00');
    ids.pr1 = (await pr(t, apiP, '2025-03-01T00:00:00', '2025-03-04T00:00:00')).id;
    await commit(t, apiP, ids.pr1, '2025-03-02T00:00:00');
    await commit(t, apiP, ids.pr1, '2025-02-27T00:00:00');
    ids.pr2 = (await pr(t, apiP, '2025-03-03T12:00:00', '2025-03-06T00:00:00')).id;
    ids.pr3 = (await pr(t, apiP, '2025-03-10T00:00:00', '2025-03-31T23:00:00')).id;
    await commit(t, apiP, ids.pr3, '2025-03-09T00:00:00');
    ids.pr4 = (await pr(t, apiP, '2025-04-01T00:00:00', '2025-04-03T00:00:00')).id;
    ids.pr5 = (await pr(t, apiP, '2025-03-01T00:00:00', null)).id;
    ids.pr6 = (await pr(t, web, '2025-03-01T00:00:00', '2025-03-02T00:00:00')).id;
    await commit(t, web, ids.pr6, '2025-03-01T12:00:00');
    ids.pr7 = (await pr(t, unowned, '2025-03-19T00:00:00', '2025-03-19T12:00:00')).id;

    const other = (await project(b.tenantId, 'acme/api', (await team(b.tenantId, 'alpha')).id)).id;
    const prB = (await pr(b.tenantId, other, '2025-01-01T00:00:00', '2025-03-01T00:00:00')).id;
    await commit(b.tenantId, other, prB, '2024-12-01T00:00:00');
    await deploy(b.tenantId, other, 'b1', '2025-03-11T00:00:00');
  });
  after(() => api.close());

  const load = async (tenant: BuiltTenant, query: object) => {
    const res = await api.as(tenant.owner.apiKey).post('/cubejs-api/v1/load', { query, castNumerics: true });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body.data as Record<string, unknown>[];
  };
  const byDeployMonth = { dimension: 'change_lead_times.deployed_at', granularity: 'month', dateRange: ['2025-02-01', '2025-05-31'] };
  const measures = ['change_lead_times.deployed_changes', 'change_lead_times.lead_time_for_changes_p50_seconds'];

  it('is the median from first commit (else createdAt) to the first successful production deployment at or after the merge, by team and deployment month', async () => {
    const rows = await load(a, { measures, dimensions: ['teams.slug'], timeDimensions: [byDeployMonth], order: { 'change_lead_times.deployed_at': 'asc', 'teams.slug': 'asc' } });
    expect(rows.map((r) => [r['change_lead_times.deployed_at.month'], r['teams.slug'], r['change_lead_times.deployed_changes'], r['change_lead_times.lead_time_for_changes_p50_seconds']])).to.deep.equal([
      ['2025-03-01T00:00:00.000', 'alpha', 2, 4.75 * DAY],
      ['2025-03-01T00:00:00.000', 'beta', 1, 2 * DAY],
      ['2025-03-01T00:00:00.000', null, 1, 1 * DAY], // the unowned project: no team
      ['2025-04-01T00:00:00.000', 'alpha', 1, 24 * DAY],
    ]);
  });

  it('counts tenant-wide changes, the unowned project included, and only the tenant’s own', async () => {
    expect(await load(a, { measures, timeDimensions: [byDeployMonth] })).to.deep.equal([
      { 'change_lead_times.deployed_at.month': '2025-03-01T00:00:00.000', 'change_lead_times.deployed_at': '2025-03-01T00:00:00.000', 'change_lead_times.deployed_changes': 4, 'change_lead_times.lead_time_for_changes_p50_seconds': 2.25 * DAY },
      { 'change_lead_times.deployed_at.month': '2025-04-01T00:00:00.000', 'change_lead_times.deployed_at': '2025-04-01T00:00:00.000', 'change_lead_times.deployed_changes': 1, 'change_lead_times.lead_time_for_changes_p50_seconds': 24 * DAY },
    ]);
    expect(await load(b, { measures, dimensions: ['teams.slug'], timeDimensions: [byDeployMonth] })).to.deep.equal([
      { 'teams.slug': 'alpha', 'change_lead_times.deployed_at.month': '2025-03-01T00:00:00.000', 'change_lead_times.deployed_at': '2025-03-01T00:00:00.000', 'change_lead_times.deployed_changes': 1, 'change_lead_times.lead_time_for_changes_p50_seconds': 100 * DAY },
    ]);
  });

  it('names the deploying deployment of each change; an undeployed PR has none and counts as undeployed by its merge month', async () => {
    const rows = await load(a, {
      measures: [...measures, 'change_lead_times.undeployed_changes'],
      dimensions: ['change_lead_times.id', 'change_lead_times.deployment_id', 'change_lead_times.first_commit_known'],
      order: { 'change_lead_times.id': 'asc' },
    });
    const got = Object.fromEntries(rows.map((r) => [r['change_lead_times.id'], [r['change_lead_times.deployment_id'], r['change_lead_times.first_commit_known'], r['change_lead_times.deployed_changes'], r['change_lead_times.lead_time_for_changes_p50_seconds'], r['change_lead_times.undeployed_changes']]]));
    expect(Object.keys(got)).to.have.members([ids.pr1, ids.pr2, ids.pr3, ids.pr4, ids.pr6, ids.pr7]); // pr5 is not merged
    const first = [ids.d4!, ids.d4b!].sort()[0];
    expect(got[ids.pr1!]).to.deep.equal([first, true, 1, 7 * DAY, 0]);
    expect(got[ids.pr2!]).to.deep.equal([first, false, 1, 2.5 * DAY, 0]);
    expect(got[ids.pr3!]).to.deep.equal([ids.d5, true, 1, 24 * DAY, 0]);
    expect(got[ids.pr4!]).to.deep.equal([null, false, 0, null, 1]);
    const undeployed = await load(a, {
      measures: ['change_lead_times.undeployed_changes'],
      dimensions: ['teams.slug'],
      timeDimensions: [{ dimension: 'change_lead_times.merged_at', granularity: 'month', dateRange: ['2025-03-01', '2025-04-30'] }],
    });
    expect(undeployed.map((r) => [r['teams.slug'], r['change_lead_times.merged_at.month'], r['change_lead_times.undeployed_changes']])).to.deep.include.members([
      ['alpha', '2025-03-01T00:00:00.000', 0],
      ['alpha', '2025-04-01T00:00:00.000', 1],
    ]);
  });

  it('merges with deployment measures on team and month, and is not rolled up (deployments are not)', async () => {
    const rows = await load(a, {
      measures: ['change_lead_times.lead_time_for_changes_p50_seconds', 'deployments.production_deploys'],
      dimensions: ['teams.slug'],
      timeDimensions: [byDeployMonth, { ...byDeployMonth, dimension: 'deployments.created_at' }],
      filters: [{ member: 'teams.slug', operator: 'equals', values: ['alpha'] }],
    });
    expect(rows.map((r) => [r['change_lead_times.deployed_at.month'], r['change_lead_times.lead_time_for_changes_p50_seconds'], r['deployments.production_deploys']])).to.deep.equal([
      ['2025-03-01T00:00:00.000', 4.75 * DAY, 3], // d0, d4 and d4b
      ['2025-04-01T00:00:00.000', 24 * DAY, 1],
    ]);
    expect(ROLLUPS.map((r) => r.cube)).not.to.include('change_lead_times');
  });
});
