/**
 * Drill-through (issue 33): the facts behind every measure, read from the cube, add up to the
 * measure. Seeded as users run the product: deployments and incidents through the webhook API,
 * pull requests through the code host's signed webhook, one repository (acme/shop, team payments)
 * plus acme/tools, which no team owns.
 *
 * Hand-worked, window 2026-05 (all times UTC), acme/shop, production unless said:
 *   p1 05-02 10:00 success, sha a…: rolled back by rb1 on 06-03 (a late rollback) → failed.
 *   p2 05-05 08:00 failure → failed; recovered by p3 after 3.5 h.
 *   p3 05-05 11:30 success; INC-2 (opened 05-25, metadata.causedByDeployment p3) → failed.
 *   p4 05-10 09:00 success; INC-1 opened 05-10 12:00 without causedByDeployment: the latest
 *      successful production deployment in the 24 h before is p4 → failed.
 *   p5 05-12 09:00 success. p6 05-20 in_progress (not finished). s1 05-06 staging success.
 *   rb1 06-03 rollback of sha a… (June: outside the window).
 *   Recoveries (next successful, not rolled back, production deployment): p1 → p3 73.5 h,
 *   p2 → p3 3.5 h, p3 → p4 117.5 h, p4 → p5 48 h.
 *   Finished 5 (p1–p5), failed 4 (p1–p4): change failure rate 0.8, n 5. Successful 4 (p1, p3, p4, p5).
 *   acme/tools (no team): o1 05-15 success. Organisation-wide: finished 6, failed 4, successful 5.
 * PRs of acme/shop (no pushes: a change starts at the PR's createdAt):
 *   #1 05-01 00:00 → merged 05-02 08:00 (cycle 32 h), shipped by p1 (lead 34 h).
 *   #2 05-04 00:00 → merged 05-05 09:00 (33 h), after p2 failed: shipped by p3 (lead 35.5 h).
 *   #3 05-11 00:00 → merged 05-11 12:00 (12 h), label ai-assisted, shipped by p5 (lead 33 h).
 *   #4 05-28 00:00 → merged 05-30 00:00 (48 h), shipped by rb1 in June (a later deployment): in
 *      May's merged PRs, not in May's deployed changes.
 * Issues: BUG-1 05-03 → closed 05-07; INC-1 05-10 12:00 → 14:00 (2 h); INC-2 05-25 00:00 → 06:00 (6 h).
 * Paging: 53 successful production deployments of acme/shop in 2026-07, one an hour.
 */
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import pg from 'pg';
import { grantBiCredential, revokeBiCredential } from '../../src/bi/credentials.js';
import { biUrl } from '../bi/biUrl.js';
import { parse } from 'csv-parse/sync';
import { DRILLS, DRILL_MEASURES } from '../../src/facts/definitions.js';
import { download } from '../../src/http/route.js';
import { buildMember, buildTenant, dbFor, type BuiltTenant } from '../helpers/factories.js';
import { testServer, type TestServer } from '../helpers/server.js';
import { announceInstallation, codehostEnv, deliver, mergedPullRequest } from '../activity/helpers.js';
import { mcpClients, structured } from '../mcp/mcpClient.js';

const MAY = 'from=2026-05&to=2026-05';
/** The delivery facts this file seeds (the AI and survey lists: test/facts/aiDrill.test.ts). */
const DELIVERY = DRILL_MEASURES.filter((m) => ['deployments', 'pull_requests', 'change_lead_times', 'issues', 'incidents'].includes(m.split('.')[0]!));
const sha = (c: string) => c.repeat(40);
/**
 * The PR phase and rework counts of this seed (test/facts/prPhases.test.ts works them by hand): no
 * PR has a review or a known commit; #1-#4 are deployed (#4 in June, counted in its merge month);
 * rework: p3 (recovers p1 and p2), p4 (recovers p3), p5 (recovers p4).
 */
const PHASE_COUNTS = {
  'pull_requests.coding_time_count': 0, 'pull_requests.pickup_time_count': 0, 'pull_requests.review_time_count': 0, 'pull_requests.deploy_time_count': 4,
  'pull_requests.merged_without_review_prs': 4, 'pull_requests.reverted_prs': 0, 'deployments.rework_deploys': 3,
};
const H = 3600;

describe('drill-through: the facts behind every measure', function () {
  this.timeout(180_000);
  let api: TestServer;
  let tenant: BuiltTenant;
  let other: BuiltTenant;
  /** Reads the cube (its own rate-limit bucket, so the facts requests do not share one). */
  let cubeKey: string;
  /** Reads every measure's list (a bucket of its own: that loop alone makes some eighty requests). */
  let listKey: string;

  before(async () => {
    api = await testServer({ env: codehostEnv() });
    tenant = await buildTenant(api.databaseUrl);
    other = await buildTenant(api.databaseUrl);
    cubeKey = (await buildMember(api.databaseUrl, tenant.tenantId)).apiKey;
    listKey = (await buildMember(api.databaseUrl, tenant.tenantId)).apiKey;
    const owner = api.as(tenant.owner.apiKey);
    const { pool } = dbFor(api.databaseUrl);

    const deploy = async (projectKey: string, externalId: string, createdAt: string, status: string, extra: Record<string, unknown> = {}) => {
      const r = await owner.post('/api/webhooks/v1/deployments', { projectKey, externalId, ref: 'main', sha: sha(externalId.slice(-1)), environment: 'production', status, createdAt, ...extra });
      expect(r.status, r.text).to.be.oneOf([200, 201]);
    };
    const issue = async (externalId: string, type: string, createdAt: string, closedAt: string, metadata?: Record<string, unknown>) => {
      const r = await owner.post('/api/webhooks/v1/issues', { projectKey: 'acme/shop', externalId, title: `${type} ${externalId}`, type, state: 'closed', createdAt, closedAt, ...(metadata ? { metadata } : {}) });
      expect(r.status, r.text).to.be.oneOf([200, 201]);
    };
    await deploy('acme/shop', 'p1', '2026-05-02T10:00:00Z', 'success', { sha: sha('a') });
    await deploy('acme/shop', 'p2', '2026-05-05T08:00:00Z', 'failure', { sha: sha('b') });
    await deploy('acme/shop', 'p3', '2026-05-05T11:30:00Z', 'success', { sha: sha('c') });
    await deploy('acme/shop', 's1', '2026-05-06T00:00:00Z', 'success', { sha: sha('9'), environment: 'staging' });
    await deploy('acme/shop', 'p4', '2026-05-10T09:00:00Z', 'success', { sha: sha('d') });
    await deploy('acme/shop', 'p5', '2026-05-12T09:00:00Z', 'success', { sha: sha('e') });
    await deploy('acme/shop', 'p6', '2026-05-20T00:00:00Z', 'in_progress', { sha: sha('f') });
    await deploy('acme/tools', 'o1', '2026-05-15T00:00:00Z', 'success', { sha: sha('1') });
    await issue('BUG-1', 'bug', '2026-05-03T00:00:00Z', '2026-05-07T00:00:00Z');
    await issue('INC-1', 'incident', '2026-05-10T12:00:00Z', '2026-05-10T14:00:00Z');
    await issue('INC-2', 'incident', '2026-05-25T00:00:00Z', '2026-05-25T06:00:00Z', { causedByDeployment: 'p3' });
    // The late rollback, in June.
    await deploy('acme/shop', 'rb1', '2026-06-03T00:00:00Z', 'success', { sha: sha('2'), isRollback: true, rollbackFromSha: 'aaaaaaa' });

    const [team] = (await pool.query(`insert into teams (tenant_id, slug, name) values ($1, 'payments', 'Payments') returning id`, [tenant.tenantId])).rows;
    expect((await owner.patch(`/api/teams/${team.id}`, { projects: ['acme/shop'] })).status).to.equal(200);

    const installationId = Number.parseInt(tenant.tenantId.replace(/-/g, '').slice(0, 7), 16);
    await announceInstallation(api.databaseUrl, installationId);
    expect((await owner.post('/api/integrations/codehost/installations', { installationId })).status).to.equal(201);
    const pr = async (n: number, created: string, merged: string, labels: string[] = []) => {
      const event = mergedPullRequest('acme/shop', {
        id: installationId * 10 + n, number: n, title: `Change ${n}`, user: { login: 'ann' }, additions: 10, deletions: 5, changed_files: 0, commits: 0,
        labels: labels.map((name) => ({ name })), created_at: created, merged_at: merged, merge_commit_sha: sha(String(n)),
      });
      const r = await deliver(api, 'pull_request', event, { installationId });
      expect(r.status, r.text).to.equal(200);
    };
    await pr(1, '2026-05-01T00:00:00Z', '2026-05-02T08:00:00Z');
    await pr(2, '2026-05-04T00:00:00Z', '2026-05-05T09:00:00Z');
    await pr(3, '2026-05-11T00:00:00Z', '2026-05-11T12:00:00Z', ['ai-assisted']);
    await pr(4, '2026-05-28T00:00:00Z', '2026-05-30T00:00:00Z');

    for (let i = 0; i < 53; i += 1) {
      await deploy('acme/shop', `j${String(i).padStart(2, '0')}`, new Date(Date.UTC(2026, 6, 1, i)).toISOString(), 'success');
    }
    // Tenant B has a deployment of its own in May (and must never see A's).
    const b = await api.as(other.owner.apiKey).post('/api/webhooks/v1/deployments', { projectKey: 'acme/shop', externalId: 'b1', ref: 'main', sha: sha('b'), environment: 'production', status: 'failure', createdAt: '2026-05-09T00:00:00Z' });
    expect(b.status).to.equal(201);
  });
  const mcp = mcpClients(() => api.baseUrl);
  after(async () => {
    await mcp.closeAll();
    await api?.close();
  });

  const facts = (query: string, key = tenant.owner.apiKey) => api.as(key).get(`/api/facts?${query}`);

  it('change failure rate: the finished production deployments, newest first, the failed ones marked with why', async () => {
    const res = await facts(`measure=deployments.change_failure_rate&${MAY}&team=payments`);
    expect(res.status, res.text).to.equal(200);
    expect(res.body.meta).to.include({ page: 1, perPage: 50, total: 5, marked: 4, markedColumn: 'failed', measure: 'deployments.change_failure_rate', kind: 'deployments', from: '2026-05', to: '2026-05', team: 'payments', replaced: 0 });
    expect(res.body.data.map((r: Record<string, unknown>) => [r.externalId, r.status, r.failed, r.reason])).to.deep.equal([
      ['p5', 'success', false, null],
      ['p4', 'success', true, 'failed: caused incident INC-1; recovered by p5 after 48 h'],
      ['p3', 'success', true, 'failed: caused incident INC-2; recovered by p4 after 117.5 h'],
      ['p2', 'failure', true, 'failed: status failure; recovered by p3 after 3.5 h'],
      ['p1', 'success', true, 'failed: rolled back by rb1 on 2026-06-03; recovered by p3 after 73.5 h'],
    ]);
    expect(res.body.data[4]).to.deep.include({ project: 'acme/shop', environment: 'production', sha: sha('a'), createdAt: '2026-05-02T10:00:00.000Z' });
    expect(Object.keys(res.body.data[0])).to.deep.equal(['id', ...res.body.meta.columns.map((c: { key: string }) => c.key)]);
  });

  it('recovery time, lead time, time to restore and AI share list their n with the values the medians take', async () => {
    const recovery = await facts(`measure=deployments.failed_deployment_recovery_time_p50_seconds&${MAY}`);
    expect(recovery.body.data.map((r: Record<string, unknown>) => r.externalId)).to.deep.equal(['p4', 'p3', 'p2', 'p1']);
    const lead = await facts(`measure=change_lead_times.lead_time_for_changes_p50_seconds&${MAY}&team=payments`);
    expect(lead.body.data.map((r: Record<string, unknown>) => [r.number, r.deployment, r.leadTimeSeconds, r.firstCommitKnown])).to.deep.equal([
      [3, 'p5', 33 * H, false], [2, 'p3', 35.5 * H, false], [1, 'p1', 34 * H, false],
    ]);
    const june = await facts('measure=change_lead_times.deployed_changes&from=2026-06&to=2026-06');
    expect(june.body.data.map((r: Record<string, unknown>) => [r.number, r.mergedAt, r.deployment, r.deployedAt])).to.deep.equal([[4, '2026-05-30T00:00:00.000Z', 'rb1', '2026-06-03T00:00:00.000Z']]);
    const cycle = await facts(`measure=pull_requests.ai_assisted_pr_share&${MAY}`);
    expect(cycle.body.meta).to.include({ total: 4, marked: 1, markedColumn: 'aiAssisted' });
    expect(cycle.body.data.map((r: Record<string, unknown>) => [r.repository, r.number, r.author, r.cycleTimeSeconds, r.aiAssisted, r.aiAttribution, r.aiEvidence])).to.deep.equal([
      ['acme/shop', 4, 'ann', 48 * H, false, 'none', null], ['acme/shop', 3, 'ann', 12 * H, true, 'medium', 'label ai-assisted'], ['acme/shop', 2, 'ann', 33 * H, false, 'none', null], ['acme/shop', 1, 'ann', 32 * H, false, 'none', null],
    ]);
    const restore = await facts(`measure=incidents.mttr_p50_seconds&${MAY}&team=payments`);
    expect(restore.body.data.map((r: Record<string, unknown>) => [r.key, r.type, r.timeToRestoreSeconds, r.causedBy, r.causeDecidedBy])).to.deep.equal([
      ['INC-2', 'incident', 6 * H, 'p3', 'named by the incident (causedByDeployment)'],
      ['INC-1', 'incident', 2 * H, 'p4', 'latest successful production deployment in the 24 h before'],
    ]);
    const issues = await facts(`measure=issues.issue_lead_time_p50_seconds&${MAY}&team=payments`);
    expect(issues.body.data.map((r: Record<string, unknown>) => [r.key, r.type, r.leadTimeSeconds])).to.deep.equal([['INC-2', 'incident', 6 * H], ['INC-1', 'incident', 2 * H], ['BUG-1', 'bug', 96 * H]]);
  });

  it("every measure's list counts the measure's n (and marks its numerator), organisation-wide and for the team, as /cubejs-api/v1/load says", async () => {
    const cube = api.as(cubeKey);
    const byCube = new Map<string, Set<string>>();
    for (const measure of DELIVERY) {
      const { rows, marked } = DRILLS[measure]!;
      const set = byCube.get(measure.split('.')[0]!) ?? new Set<string>();
      set.add(rows);
      if (marked) set.add(marked);
      byCube.set(measure.split('.')[0]!, set);
    }
    const meta = await cube.get('/cubejs-api/v1/meta');
    const timeOf = (measure: string): string =>
      meta.body.cubes.flatMap((c: { measures: { name: string; meta?: { time_dimension?: string } }[] }) => c.measures).find((x: { name: string }) => x.name === measure).meta.time_dimension;
    for (const team of [undefined, 'payments']) {
      const values: Record<string, number> = {};
      // Each count measure by its own time dimension (the cube's meta says which).
      for (const measure of [...byCube.values()].flatMap((s) => [...s])) {
        const query = { measures: [measure], timeDimensions: [{ dimension: timeOf(measure), dateRange: ['2026-05-01', '2026-05-31'] }], filters: team ? [{ member: 'teams.slug', operator: 'equals', values: [team] }] : [] };
        const loaded = await cube.post('/cubejs-api/v1/load', { query });
        expect(loaded.status, loaded.text).to.equal(200);
        values[measure] = Number(loaded.body.data[0]?.[measure] ?? 0);
      }
      const expected: Record<string, number> = team
        ? { 'deployments.finished_production_deploys': 5, 'deployments.failed_production_deploys': 4, 'deployments.production_deploys': 4, 'deployments.recovered_deploys': 4, 'pull_requests.prs_merged': 4, 'pull_requests.ai_assisted_prs_merged': 1, 'change_lead_times.deployed_changes': 3, 'change_lead_times.undeployed_changes': 0, 'issues.issues_closed': 3, 'incidents.incidents_opened': 2, 'incidents.incidents_restored': 2, ...PHASE_COUNTS }
        : { 'deployments.finished_production_deploys': 6, 'deployments.failed_production_deploys': 4, 'deployments.production_deploys': 5, 'deployments.recovered_deploys': 4, 'pull_requests.prs_merged': 4, 'pull_requests.ai_assisted_prs_merged': 1, 'change_lead_times.deployed_changes': 3, 'change_lead_times.undeployed_changes': 0, 'issues.issues_closed': 3, 'incidents.incidents_opened': 2, 'incidents.incidents_restored': 2, ...PHASE_COUNTS };
      expect(values, `cube values, team ${team}`).to.deep.equal(expected);
      for (const measure of DELIVERY) {
        const res = await facts(`measure=${measure}&${MAY}${team ? `&team=${team}` : ''}`, listKey);
        expect(res.status, `${measure}: ${res.text}`).to.equal(200);
        const source = DRILLS[measure]!;
        expect(res.body.meta.total, `${measure} n, team ${team}`).to.equal(values[source.rows]);
        expect(res.body.data, measure).to.have.length(values[source.rows]!);
        expect(res.body.meta.marked, `${measure} marked, team ${team}`).to.equal(source.marked ? values[source.marked] : 0);
        if (res.body.meta.markedColumn) {
          expect(res.body.data.filter((r: Record<string, unknown>) => r[res.body.meta.markedColumn] === true)).to.have.length(res.body.meta.marked);
        }
      }
    }
  });

  it("each median is the median of the values its list shows (the cube's percentile_cont over the same rows)", async () => {
    const cube = api.as(cubeKey);
    const median = (values: number[]) => {
      const v = [...values].sort((a, b) => a - b);
      const mid = (v.length - 1) / 2;
      return (v[Math.floor(mid)]! + v[Math.ceil(mid)]!) / 2;
    };
    const cases: [string, string, string][] = [
      ['deployments.failed_deployment_recovery_time_p50_seconds', 'deployments.created_at', 'recoverySeconds'],
      ['pull_requests.pr_cycle_time_p50_seconds', 'pull_requests.merged_at', 'cycleTimeSeconds'],
      ['change_lead_times.lead_time_for_changes_p50_seconds', 'change_lead_times.deployed_at', 'leadTimeSeconds'],
      ['incidents.mttr_p50_seconds', 'incidents.closed_at', 'timeToRestoreSeconds'],
      ['issues.issue_lead_time_p50_seconds', 'issues.closed_at', 'leadTimeSeconds'],
    ];
    const seen: Record<string, number> = {};
    for (const [measure, time, key] of cases) {
      const list = await facts(`measure=${measure}&${MAY}&team=payments`);
      const loaded = await cube.post('/cubejs-api/v1/load', { query: { measures: [measure], timeDimensions: [{ dimension: time, dateRange: ['2026-05-01', '2026-05-31'] }], filters: [{ member: 'teams.slug', operator: 'equals', values: ['payments'] }] } });
      const value = Number(loaded.body.data[0][measure]);
      expect(median(list.body.data.map((r: Record<string, number>) => r[key])), measure).to.equal(value);
      seen[measure] = value / H;
    }
    // Worked out by hand in the header: 48, 73.5, 3.5, 117.5 h; 32, 33, 12, 48 h; 33, 35.5, 34 h; 6, 2 h; 96, 2, 6 h.
    expect(seen).to.deep.equal({
      'deployments.failed_deployment_recovery_time_p50_seconds': 60.75, 'pull_requests.pr_cycle_time_p50_seconds': 32.5,
      'change_lead_times.lead_time_for_changes_p50_seconds': 34, 'incidents.mttr_p50_seconds': 4, 'issues.issue_lead_time_p50_seconds': 6,
    });
  });

  it('pages 50 at a time, newest first; the CSV holds the same rows as the JSON pages, byte for byte in its cells', async () => {
    const query = 'measure=deployments.production_deploys&from=2026-07&to=2026-07&team=payments';
    const first = await facts(query);
    expect(first.body.meta).to.include({ total: 53, page: 1, perPage: 50 });
    expect(first.body.data).to.have.length(50);
    expect(first.body.data[0].externalId).to.equal('j52');
    const second = await facts(`${query}&page=2`);
    expect(second.body.meta).to.include({ total: 53, page: 2 });
    expect(second.body.data.map((r: Record<string, unknown>) => r.externalId)).to.deep.equal(['j02', 'j01', 'j00']);
    expect((await facts(`${query}&page=3`)).body.data).to.deep.equal([]);

    for (const [q, pages] of [[query, [first.body.data, second.body.data]], [`measure=deployments.change_failure_rate&${MAY}`, null]] as const) {
      const json = pages ? pages.flat() : (await facts(q)).body.data;
      const csv = await facts(`${q}&format=csv`);
      expect(csv.status).to.equal(200);
      expect(csv.headers.get('content-type')).to.equal('text/csv; charset=utf-8');
      expect(csv.headers.get('content-disposition')).to.match(/^attachment; filename="facts-deployments-/);
      const byAccept = await api.as(tenant.owner.apiKey).get(`/api/facts?${q}`, { accept: 'text/csv' });
      expect(byAccept.text).to.equal(csv.text);
      const [header, ...lines] = parse(csv.text) as string[][];
      expect(header).to.deep.equal(Object.keys(json[0]));
      const cell = (v: unknown) => (v === null ? '' : String(v));
      expect(lines).to.deep.equal(json.map((row: Record<string, unknown>) => header!.map((k) => cell(row[k]))));
    }
  });

  it('the CSV\'s file name is built by RFC 6266/5987 rules: a team value cannot add a second name or break the header', async () => {
    const base = 'measure=deployments.production_deploys&from=2026-07&to=2026-07&format=csv';
    // Request text never reaches the header: an unknown team is a 404 (no file at all)…
    for (const team of ['a"; filename=evil.html', 'a\r\nSet-Cookie: x=1']) {
      const res = await facts(`${base}&team=${encodeURIComponent(team)}`);
      expect([res.status, res.headers.get('content-disposition'), res.headers.get('set-cookie')]).to.deep.equal([404, null, null]);
    }
    // …and whatever name a file has, the header holds exactly one, intact.
    expect(download({ contentType: 'text/csv', filename: 'facts-a"; filename=evil.html.csv', body: '' }).headers).to.deep.equal({
      'Content-Disposition': 'attachment; filename="facts-a\\"; filename=evil.html.csv"', 'Cache-Control': 'no-store',
    });
    expect(download({ contentType: 'text/csv', filename: 'Équipe a\r\nSet-Cookie: x=1.csv', body: '' }).headers!['Content-Disposition']).to.equal(
      "attachment; filename=\"Équipe a??Set-Cookie: x=1.csv\"; filename*=UTF-8''%C3%89quipe%20a%0D%0ASet-Cookie%3A%20x%3D1.csv",
    );
  });

  it('list_facts (MCP) answers the same rows, paged and capped at 50, for the principal\'s tenant only', async () => {
    const client = await mcp.connect(tenant.owner.apiKey);
    const args = { measure: 'deployments.change_failure_rate', from: '2026-05', to: '2026-05', team: 'payments' };
    const answer = structured(await client.callTool({ name: 'list_facts', arguments: args }));
    const rest = await facts(`measure=deployments.change_failure_rate&${MAY}&team=payments`);
    expect(answer.rows).to.deep.equal(rest.body.data);
    expect(answer).to.include({ total: 5, marked: 4, markedColumn: 'failed', page: 1, perPage: 50, truncated: false, kind: 'deployments' });
    const paged = structured(await client.callTool({ name: 'list_facts', arguments: { measure: 'deployments.production_deploys', from: '2026-07', to: '2026-07', page: 1 } }));
    expect(paged).to.include({ total: 53, truncated: true });
    expect(paged.rows).to.have.length(50);
    const last = structured(await client.callTool({ name: 'list_facts', arguments: { measure: 'deployments.production_deploys', from: '2026-07', to: '2026-07', page: 2 } }));
    expect(last.rows.map((r: Record<string, unknown>) => r.externalId)).to.deep.equal(['j02', 'j01', 'j00']);
    expect(last.truncated).to.equal(false);
    // Tenant A's team is no team of B's: refused, naming it (an empty list would read as "none happened").
    const b = await (await mcp.connect(other.owner.apiKey)).callTool({ name: 'list_facts', arguments: args });
    expect(b.isError).to.equal(true);
    expect(b.content).to.deep.equal([{ type: 'text', text: 'Team not found: "payments" is no team of this organisation (teams.slug or teams.id): query.team: No such team' }]);
    const unknown = await client.callTool({ name: 'list_facts', arguments: { ...args, team: 'paymnts' } });
    expect([unknown.isError, (unknown.content as { text: string }[])[0]!.text]).to.deep.equal([true, 'Team not found: "paymnts" is no team of this organisation (teams.slug or teams.id): query.team: No such team']);
  });

  it('the bi queries of docs/drill-through-bi.md give the same lists, run as the tenant\'s BI role', async () => {
    // The delivery lists' queries (the AI lists' are run by test/facts/aiDrill.test.ts).
    const sql = [...readFileSync(new URL('../../docs/drill-through-bi.md', import.meta.url), 'utf8').matchAll(/```sql\n([\s\S]*?)```/g)].map((m) => m[1]!).filter((q) => !/bi\.(ai_sessions|seats|ai_commits|memberships)\b/.test(q));
    const measures = ['deployments.change_failure_rate', 'pull_requests.prs_merged', 'change_lead_times.deployed_changes', 'incidents.incidents_restored', 'issues.issues_closed'];
    expect(sql).to.have.length(measures.length);
    const { pool } = dbFor(api.databaseUrl);
    const { credential, password } = await grantBiCredential(pool, { tenantId: tenant.tenantId, name: 'Drill docs' });
    // As a BI tool reads them: the BI database's foreign tables (docs/bi-database.md "The BI database").
    const client = new pg.Client({ connectionString: biUrl(api.databaseUrl, credential.user, password) });
    await client.connect();
    try {
      for (const [i, measure] of measures.entries()) {
        const { rows } = await client.query(sql[i]!);
        const list = await facts(`measure=${measure}&${MAY}&team=payments`);
        expect(rows.length, measure).to.equal(list.body.meta.total);
        if (i === 0) {
          expect(rows.map((r) => [r.external_id, r.is_failed, r.rolled_back_by, r.caused_incident_key, r.recovered_by])).to.deep.equal(
            list.body.data.map((r: Record<string, unknown>) => [r.externalId, r.failed, (r.reason as string | null)?.match(/rolled back by (\S+)/)?.[1] ?? null, (r.reason as string | null)?.match(/caused incident (\S+?)(;|$)/)?.[1] ?? null, r.recoveredBy]),
          );
        }
      }
    } finally {
      await client.end();
      await revokeBiCredential(pool, tenant.tenantId, credential.id);
    }
  });

  it("tenant B never sees tenant A's facts, by window or by A's team slug", async () => {
    const mine = await facts(`measure=deployments.change_failure_rate&${MAY}`, other.owner.apiKey);
    expect(mine.body.data.map((r: Record<string, unknown>) => [r.externalId, r.failed, r.reason])).to.deep.equal([['b1', true, 'failed: status failure']]);
    expect(mine.body.meta).to.include({ total: 1, marked: 1 });
    const NOT_FOUND = (team: string) => ({ error: { code: 'not_found', message: `Team not found: "${team}" is no team of this organisation (teams.slug or teams.id)`, details: [{ path: 'query.team', message: 'No such team' }] } });
    const slug = await facts(`measure=deployments.change_failure_rate&${MAY}&team=payments`, other.owner.apiKey);
    expect([slug.status, slug.body]).to.deep.equal([404, NOT_FOUND('payments')]);
    const [{ id: paymentsId }] = (await dbFor(api.databaseUrl).pool.query("select id from teams where tenant_id = $1 and slug = 'payments'", [tenant.tenantId])).rows;
    const byId = await facts(`measure=deployments.change_failure_rate&${MAY}&team=${paymentsId}`, other.owner.apiKey);
    expect([byId.status, byId.body]).to.deep.equal([404, NOT_FOUND(paymentsId)]);
    const csv = await facts(`measure=deployments.change_failure_rate&${MAY}&team=payments&format=csv`, other.owner.apiKey);
    expect([csv.status, csv.body]).to.deep.equal([404, NOT_FOUND('payments')]);
    // A's own team by id is A's list, and its CSV is named by the slug.
    const mineById = await facts(`measure=deployments.change_failure_rate&${MAY}&team=${paymentsId}&format=csv`);
    expect(mineById.headers.get('content-disposition')).to.equal('attachment; filename="facts-deployments-change_failure_rate-payments-2026-05-2026-05.csv"');
    const unknownMeasure = await facts(`measure=deployments.nope&${MAY}`);
    expect(unknownMeasure.status).to.equal(400);
    expect(unknownMeasure.body.error.message).to.match(/^deployments\.nope has no drill-through\. Measures with one: /);
    expect((await facts(`measure=pull_requests.prs_merged&${MAY}`, other.owner.apiKey)).body.meta.total).to.equal(0);
  });

  it('takes days as well as months (the web app\'s "last 30 days" and a partial month), validated', async () => {
    // 05-05..05-10 (the whole last day): p2 05-05 08:00 failure, p3 05-05 11:30, p4 05-10 09:00, all failed.
    const days = await facts('measure=deployments.change_failure_rate&from=2026-05-05&to=2026-05-10&team=payments');
    expect(days.status).to.equal(200);
    expect(days.body.meta).to.include({ total: 3, marked: 3, from: '2026-05-05', to: '2026-05-10' });
    expect(days.body.data.map((r: { externalId: string }) => r.externalId)).to.deep.equal(['p4', 'p3', 'p2']);
    // A day, then a month: 05-11 to the end of May: p5 (p6 is not finished).
    const mixed = await facts('measure=deployments.change_failure_rate&from=2026-05-11&to=2026-05&team=payments');
    expect(mixed.body.meta).to.include({ total: 1, marked: 0 });
    const csv = await api.as(tenant.owner.apiKey).get('/api/facts?measure=deployments.change_failure_rate&from=2026-05-05&to=2026-05-10&team=payments&format=csv');
    expect(csv.headers.get('content-disposition')).to.include('facts-deployments-change_failure_rate-payments-2026-05-05-2026-05-10.csv');
    const badDay = await facts('measure=deployments.production_deploys&from=2026-02-30&to=2026-03-01');
    expect(badDay.status).to.equal(400);
    expect(badDay.body.error.details).to.deep.equal([{ path: 'query.from', message: 'Must be a month YYYY-MM or a day YYYY-MM-DD' }]);
    const reversed = await facts('measure=deployments.production_deploys&from=2026-05-10&to=2026-05-05');
    expect(reversed.status).to.equal(400);
    expect(reversed.body.error.details).to.deep.equal([{ path: 'query.from', message: 'Must not be after to (2026-05-05)' }]);
    const long = await facts('measure=deployments.production_deploys&from=2023-01-31&to=2026-01-01');
    expect(long.body.error.details).to.deep.equal([{ path: 'query.to', message: 'The window is at most 36 months (2023-01-31 to 2026-01-01 touches 37)' }]);
  });

  it('refuses a measure without a drill-through, naming those with one, and a bad window, with the 400 body', async () => {
    const res = await facts(`measure=memberships.register_headcount&${MAY}`);
    expect(res.status).to.equal(400);
    expect(res.body.error.code).to.equal('validation_failed');
    expect(res.body.error.message).to.match(/^memberships\.register_headcount has no drill-through\. Measures with one: deployments\.production_deploys, /);
    expect(res.body.error.message).to.include('incidents.mttr_p50_seconds');
    const reversed = await facts('measure=deployments.production_deploys&from=2026-06&to=2026-05');
    expect(reversed.status).to.equal(400);
    expect(reversed.body.error.details).to.deep.include({ path: 'query.from', message: 'Must not be after to (2026-05)' });
    const missing = await facts(MAY);
    expect(missing.status).to.equal(400);
    expect(missing.body.error.details[0].path).to.equal('query.measure');
    expect((await api.get(`/api/facts?measure=deployments.production_deploys&${MAY}`)).status).to.equal(401);
  });
});
