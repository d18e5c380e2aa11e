/**
 * Lists a person can act on (issue 46 point 4): the columns that explain the number first, a
 * rate's list filtered to its counted rows, any column sorted, p50 and p90 beside a median's list,
 * people by the register's name, rows linked to their source, and a sum's rows carrying their part.
 *
 * Hand-worked, window 2026-05, acme/shop (team Payments), production:
 *   d1 05-02 10:00 success (url https://ci.example.com/d1); d2 05-05 08:00 failure (url
 *   https://ci.example.com/d2), recovered by d3 05-05 11:30 success after 3.5 h; d4 05-06 09:00
 *   success with url `javascript:alert(1)` (never a link). CFR 1 of 4.
 *   PRs: #1 by ann-gh (Ann Lee in the register) 05-01 00:00 → 05-02 08:00 (32 h), 10 + 5 lines;
 *   #2 by zed (no one in the register) 05-04 00:00 → 05-05 09:00 (33 h), 100 + 50 lines;
 *   #3 by ann-gh 05-10 00:00 → 05-10 02:00 (2 h), 1 + 1 lines. Cycle time p50 32 h, p90
 *   percentile_cont(0.9) of 2, 32, 33 h = 32.8 h. ccv_total 15 + 150 + 2 = 167.
 * Tenant B has a person "Impostor" with the code-host username ann-gh: A never sees the name.
 */
import { expect } from 'chai';
import { parse } from 'csv-parse/sync';
import { buildMember, buildTenant, dbFor, type BuiltTenant } from '../helpers/factories.js';
import { testServer, type TestServer } from '../helpers/server.js';
import { announceInstallation, codehostEnv, deliver, mergedPullRequest } from '../activity/helpers.js';
import { CSV } from '../organisation/helpers.js';

const MAY = 'from=2026-05&to=2026-05';
const H = 3600;
const HEADER = 'external_ref,email,display_name,employment_type,supplier_name,cost_centre_code,location_country,team_slug,team_name,team_external_ref,team_cost_centre_code,org_unit_slug,codehost_usernames';

describe('facts lists a person can act on', function () {
  this.timeout(120_000);
  let api: TestServer;
  let tenant: BuiltTenant;
  let other: BuiltTenant;
  let cubeKey: string;
  let teamId: string;

  before(async () => {
    api = await testServer({ env: codehostEnv() });
    tenant = await buildTenant(api.databaseUrl);
    other = await buildTenant(api.databaseUrl);
    cubeKey = (await buildMember(api.databaseUrl, tenant.tenantId)).apiKey;
    const owner = api.as(tenant.owner.apiKey);
    const { pool } = dbFor(api.databaseUrl);
    const tag = tenant.tenantId.slice(0, 8);
    const imported = await owner.post('/api/register/imports', `${HEADER}\nE1,ann-${tag}@example.com,Ann Lee,employee,,CC-1,NL,payments,Payments,,,eng,ann-gh\n`, CSV);
    expect(imported.status, imported.text).to.be.oneOf([200, 201]);
    const theirs = await api.as(other.owner.apiKey).post('/api/register/imports', `${HEADER}\nX1,imp-${tag}@example.com,Impostor,employee,,CC-1,NL,other,Other,,,eng,ann-gh\n`, CSV);
    expect(theirs.status, theirs.text).to.be.oneOf([200, 201]);
    teamId = (await pool.query(`select id from teams where tenant_id = $1 and slug = 'payments'`, [tenant.tenantId])).rows[0].id;
    expect((await owner.patch(`/api/teams/${teamId}`, { projects: ['acme/shop'] })).status).to.equal(200);

    const deploy = async (externalId: string, createdAt: string, status: string, url: string, sha: string) => {
      const r = await owner.post('/api/webhooks/v1/deployments', { projectKey: 'acme/shop', externalId, ref: 'main', sha: sha.repeat(40), environment: 'production', status, createdAt, url });
      expect(r.status, r.text).to.be.oneOf([200, 201]);
    };
    await deploy('d1', '2026-05-02T10:00:00Z', 'success', 'https://ci.example.com/d1', 'a');
    await deploy('d2', '2026-05-05T08:00:00Z', 'failure', 'https://ci.example.com/d2', 'b');
    await deploy('d3', '2026-05-05T11:30:00Z', 'success', 'https://ci.example.com/d3', 'c');
    await deploy('d4', '2026-05-06T09:00:00Z', 'success', 'javascript:alert(1)', 'd');

    const installationId = Number.parseInt(tenant.tenantId.replace(/-/g, '').slice(0, 7), 16);
    await announceInstallation(api.databaseUrl, installationId);
    expect((await owner.post('/api/integrations/codehost/installations', { installationId })).status).to.equal(201);
    const pr = async (n: number, login: string, created: string, merged: string, additions: number, deletions: number) => {
      const event = mergedPullRequest('acme/shop', {
        id: installationId * 10 + n, number: n, title: `Change ${n}`, user: { login }, additions, deletions, changed_files: 1, commits: 0,
        labels: [], created_at: created, merged_at: merged, merge_commit_sha: String(n).repeat(40),
      });
      const r = await deliver(api, 'pull_request', event, { installationId });
      expect(r.status, r.text).to.equal(200);
    };
    await pr(1, 'ann-gh', '2026-05-01T00:00:00Z', '2026-05-02T08:00:00Z', 10, 5);
    await pr(2, 'zed', '2026-05-04T00:00:00Z', '2026-05-05T09:00:00Z', 100, 50);
    await pr(3, 'ann-gh', '2026-05-10T00:00:00Z', '2026-05-10T02:00:00Z', 1, 1);
  });

  after(async () => {
    await api?.close();
  });

  const facts = (query: string) => api.as(tenant.owner.apiKey).get(`/api/facts?${query}`);

  it('puts the columns that explain the number first, the rest as detail; names the team; links each row to its source (http(s) only)', async () => {
    const res = await facts(`measure=deployments.change_failure_rate&${MAY}&team=${teamId}`);
    expect(res.status, res.text).to.equal(200);
    const columns = res.body.meta.columns as { key: string; detail?: boolean; link?: string; short?: boolean }[];
    expect(columns.filter((c) => !c.detail).map((c) => c.key)).to.deep.equal(['failed', 'reason', 'createdAt', 'recoverySeconds', 'sha', 'project']);
    expect(columns.find((c) => c.key === 'sha')).to.deep.include({ short: true, link: 'url' });
    expect(res.body.meta.teamName).to.equal('Payments');
    expect(Object.keys(res.body.data[0])).to.deep.equal(['id', ...columns.map((c) => c.key)]);
    expect(res.body.data.map((r: { externalId: string; url: string | null }) => [r.externalId, r.url])).to.deep.equal([
      ['d4', null], ['d3', 'https://ci.example.com/d3'], ['d2', 'https://ci.example.com/d2'], ['d1', 'https://ci.example.com/d1'],
    ]);
    // The same list opened from the recovery time leads with the recovery time.
    const recovery = await facts(`measure=deployments.failed_deployment_recovery_time_p50_seconds&${MAY}`);
    expect(recovery.body.meta.columns.slice(0, 2).map((c: { key: string }) => c.key)).to.deep.equal(['recoverySeconds', 'reason']);
    // Every row of a PR list links to the PR on the code host.
    const prs = await facts(`measure=pull_requests.prs_merged&${MAY}`);
    expect(prs.body.data.map((r: { url: string }) => r.url)).to.deep.equal([3, 2, 1].map((n) => `https://github.com/acme/shop/pull/${n}`));
  });

  it('filters a rate to its counted rows (JSON and CSV), and refuses the filter where every row counts', async () => {
    const res = await facts(`measure=deployments.change_failure_rate&${MAY}&marked=true`);
    expect(res.status, res.text).to.equal(200);
    expect(res.body.data.map((r: { externalId: string }) => r.externalId)).to.deep.equal(['d2']);
    expect(res.body.meta).to.deep.include({ total: 4, marked: 1, matching: 1, filter: 'marked' });
    const csv = await facts(`measure=deployments.change_failure_rate&${MAY}&marked=true&format=csv`);
    const [header, ...lines] = parse(csv.text) as string[][];
    expect(lines.map((l) => l[header!.indexOf('externalId')])).to.deep.equal(['d2']);
    expect(csv.headers.get('content-disposition')).to.include('facts-deployments-change_failure_rate-marked-2026-05-2026-05.csv');
    const refused = await facts(`measure=pull_requests.prs_merged&${MAY}&marked=true`);
    expect(refused.status).to.equal(400);
    expect(refused.body.error.details[0].path).to.equal('query.marked');
  });

  it('sorts by any column, the ones no cube member holds included, and names an unknown one', async () => {
    const byRecovery = await facts(`measure=deployments.change_failure_rate&${MAY}&sort=recoverySeconds&dir=desc`);
    expect(byRecovery.body.data.map((r: { externalId: string }) => r.externalId)).to.deep.equal(['d2', 'd4', 'd3', 'd1']);
    expect(byRecovery.body.meta.sort).to.deep.equal({ column: 'recoverySeconds', dir: 'desc' });
    const byCycle = await facts(`measure=pull_requests.pr_cycle_time_p50_seconds&${MAY}&sort=cycleTimeSeconds&dir=asc`);
    expect(byCycle.body.data.map((r: { number: number }) => r.number)).to.deep.equal([3, 1, 2]);
    // The author's name is no cube member: the whole list is read, named, then sorted.
    const byName = await facts(`measure=pull_requests.prs_merged&${MAY}&sort=authorName&dir=asc`);
    expect(byName.body.data.map((r: { authorName: string }) => r.authorName)).to.deep.equal(['Ann Lee', 'Ann Lee', 'zed']);
    const bad = await facts(`measure=pull_requests.prs_merged&${MAY}&sort=nope`);
    expect(bad.status).to.equal(400);
    expect(bad.body.error.message).to.include('Cannot sort on "nope"');
  });

  it("gives a median's list its 50th and 90th percentile, as the cube computes them", async () => {
    const res = await facts(`measure=pull_requests.pr_cycle_time_p50_seconds&${MAY}&team=payments`);
    expect(res.body.meta.percentiles).to.deep.equal({ column: 'cycleTimeSeconds', p50: 32 * H, p90: 118_080 });
    const loaded = await api.as(cubeKey).post('/cubejs-api/v1/load', { query: { measures: ['pull_requests.pr_cycle_time_p90_seconds'], timeDimensions: [{ dimension: 'pull_requests.merged_at', dateRange: ['2026-05-01', '2026-05-31'] }] } });
    expect(Number(loaded.body.data[0]['pull_requests.pr_cycle_time_p90_seconds'])).to.equal(118_080);
    expect((await facts(`measure=pull_requests.prs_merged&${MAY}`)).body.meta.percentiles).to.equal(null);
  });

  it("names people by the register (this organisation's only), in the JSON and the CSV", async () => {
    const res = await facts(`measure=pull_requests.prs_merged&${MAY}`);
    expect(res.body.data.map((r: { author: string; authorName: string }) => [r.author, r.authorName])).to.deep.equal([['ann-gh', 'Ann Lee'], ['zed', 'zed'], ['ann-gh', 'Ann Lee']]);
    const csv = parse((await facts(`measure=pull_requests.prs_merged&${MAY}&format=csv`)).text, { columns: true }) as Record<string, string>[];
    expect(csv.map((r) => r.authorName)).to.deep.equal(['Ann Lee', 'zed', 'Ann Lee']);
    const members = await facts(`measure=memberships.headcount&${MAY}&team=payments`);
    expect(members.body.data.map((r: { name: string }) => r.name)).to.deep.equal(['Ann Lee']);
  });

  it('lists ccv_total and ceu_total with each PR\'s part, adding up to the cube\'s number', async () => {
    for (const [measure, column, expected] of [['pull_requests.ccv_total', 'changeVolume', 167], ['pull_requests.ceu_total', 'changeEffortUnits', 2 + 3 + 1]] as const) {
      const res = await facts(`measure=${measure}&${MAY}`);
      expect(res.body.meta.columns[0]).to.deep.equal({ key: column, title: column === 'changeVolume' ? 'Lines changed' : 'Effort units', type: 'number' });
      const parts = res.body.data.map((r: Record<string, number>) => r[column]);
      const loaded = await api.as(cubeKey).post('/cubejs-api/v1/load', { query: { measures: [measure], timeDimensions: [{ dimension: 'pull_requests.merged_at', dateRange: ['2026-05-01', '2026-05-31'] }] } });
      expect([parts.reduce((a: number, b: number) => a + b, 0), res.body.meta.sum.value, Number(loaded.body.data[0][measure])], measure).to.deep.equal([expected, expected, expected]);
      expect(res.body.meta.sum.column).to.equal(column);
    }
  });
});
