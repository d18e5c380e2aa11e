/**
 * Issue 45 point 4: graded AI attribution per PR and commit (METRICS.md "AI attribution",
 * docs/ai-attribution.md), seeded the way an organisation's tools send it: pushes and merged PRs
 * through the code host's signed webhook, a session uploaded by a user, Claude Code's telemetry
 * through the real OpenTelemetry SDK exporters.
 *
 * Hand-worked, acme/shop, every PR merged in 2026-05 (no team: organisation-wide):
 *   #1 uploaded session names PR 1, label ai-assisted     → high: "session … (uploaded) names PR #1; label ai-assisted"
 *   #2 commit c2 (eve, 05-03); Claude Code's telemetry of session cc-eve has a tool_result
 *      `git commit` printing `[feat-2 c2c2c2c]`            → high: "session … (telemetry) names commit c2c2c2c in a claude-code tool_result"
 *   #3 commit c3 with `Co-authored-by: Claude <noreply@anthropic.com>` → medium (trailer)
 *   #4 commit c4 with `Made-with: Cursor`                   → medium (trailer)
 *   #5 label ai-assisted                                    → medium (label)
 *   #6 label Copilot-Made                                   → none; medium once the owner adds copilot-made
 *   #7 head branch copilot/fix-x                            → medium (branch)
 *   #8 author copilot-swe-agent[bot]                        → medium (bot author)
 *   #9 commit c9 by dana (05-06, e-mail dana@laptop.local); the register's Dana (login dana,
 *      e-mail dana-…@example.com) sends telemetry on 05-06 → low (her activity on a commit day)
 *   #10 commit c10 by ann (05-07), no AI activity           → none
 * → before the label: high 2, medium 5, low 1, none 2; ai_assisted_pr_share 7/10 = 0.7.
 *   After:            high 2, medium 6, low 1, none 1; 0.8.
 * Signals (after): session 1, vendor_commit 0, telemetry_commit 1, trailer 2, label 3 (#1, #5, #6),
 *   branch 1, bot_author 1, author_activity 1.
 * Commits: c2 high, c3 and c4 medium, c9 low, c10 none.
 * One production deployment on 05-31 ships all ten (change_lead_times by level as the PRs).
 * Tenant B has a PR of its own labelled ai-assisted, and sees none of A's.
 */
import { expect } from 'chai';
import { parse } from 'csv-parse/sync';
import { buildMember, buildTenant, dbFor, type BuiltTenant, type BuiltUser } from '../helpers/factories.js';
import { testServer, type TestServer } from '../helpers/server.js';
import { announceInstallation, codehostEnv, deliver, fixture, mergedPullRequest } from '../activity/helpers.js';
import { eventLogger, logExporter, succeeded } from '../aiTelemetry/sdk.js';

const REPO = 'acme/shop';
const MAY = 'from=2026-05&to=2026-05';
const sha = (c: string) => c.repeat(40 / c.length);
const C2 = sha('c2');
const C3 = sha('c3');
const C4 = sha('c4');
const C9 = sha('c9');
const C10 = sha('ca');

describe('AI attribution: a level and its evidence per PR and commit', function () {
  this.timeout(180_000);
  let api: TestServer;
  let tenant: BuiltTenant;
  let other: BuiltTenant;
  let member: BuiltUser;
  let uploaded: string;
  let telemetrySession: string;
  const dana = `dana-${Date.now()}@example.com`;

  const cube = async (key: string, query: object) => {
    const res = await api.as(key).post('/cubejs-api/v1/load', { query });
    expect(res.status, res.text).to.equal(200);
    return res.body.data as Record<string, string | number | boolean | null>[];
  };
  const byLevel = async (key: string, measure: string, time: string) => {
    const rows = await cube(key, { measures: [measure], dimensions: [`${measure.split('.')[0]}.ai_attribution`], timeDimensions: [{ dimension: time, dateRange: ['2026-05-01', '2026-05-31'] }] });
    return Object.fromEntries(rows.map((r) => [r[`${measure.split('.')[0]}.ai_attribution`], Number(r[measure])]));
  };
  const share = async (key: string) =>
    (await cube(key, { measures: ['pull_requests.ai_assisted_pr_share', 'pull_requests.ai_assisted_prs_merged'], timeDimensions: [{ dimension: 'pull_requests.merged_at', dateRange: ['2026-05-01', '2026-05-31'] }] }))[0];
  const drill = async (key = tenant.owner.apiKey) => {
    const res = await api.as(key).get(`/api/facts?measure=pull_requests.ai_assisted_pr_share&${MAY}`);
    expect(res.status, res.text).to.equal(200);
    return res.body;
  };
  const levels = (body: { data: Record<string, unknown>[] }) =>
    Object.fromEntries(body.data.map((r) => [r.number, [r.aiAttribution, r.aiAssisted, r.aiEvidence]]));

  before(async () => {
    api = await testServer({ env: codehostEnv() });
    tenant = await buildTenant(api.databaseUrl);
    other = await buildTenant(api.databaseUrl);
    member = await buildMember(api.databaseUrl, tenant.tenantId);
    const owner = api.as(tenant.owner.apiKey);
    const { pool } = dbFor(api.databaseUrl);

    // The register's Dana: her code-host login and her work e-mail (a manual identity, as an owner sets one).
    const [person] = (await pool.query(`insert into people (tenant_id, external_ref, email) values ($1, 'P-DANA', $2) returning id`, [tenant.tenantId, dana])).rows;
    await pool.query(`insert into person_identities (tenant_id, person_id, kind, value) values ($1, $2, 'email', $3), ($1, $2, 'codehost_username', 'dana')`, [tenant.tenantId, person.id, dana]);

    const installationId = Number.parseInt(tenant.tenantId.replace(/-/g, '').slice(0, 7), 16);
    const otherInstallation = installationId + 1;
    await announceInstallation(api.databaseUrl, installationId, otherInstallation);
    expect((await owner.post('/api/integrations/codehost/installations', { installationId })).status).to.equal(201);
    expect((await api.as(other.owner.apiKey).post('/api/integrations/codehost/installations', { installationId: otherInstallation })).status).to.equal(201);

    // An uploaded session naming PR 1 (before the PR arrives: linked when it does).
    const s = await owner.post('/api/sessions', { tool: 'claude-code', startedAt: '2026-05-01T09:00:00Z', endedAt: '2026-05-01T10:00:00Z', projectKey: REPO, prNumber: 1 });
    expect(s.status, s.text).to.equal(201);
    uploaded = s.body.data.id;

    const push = async (branch: string, id: string, at: string, login: string, email: string, message: string) => {
      const event = fixture('push');
      event.repository.full_name = REPO;
      event.ref = `refs/heads/${branch}`;
      event.deleted = false;
      event.commits = [{ ...event.commits[0], id, message, timestamp: at, author: { name: login, email, username: login } }];
      const r = await deliver(api, 'push', event, { installationId });
      expect(r.status, r.text).to.equal(200);
    };
    await push('feat-2', C2, '2026-05-03T10:00:00Z', 'eve', 'eve@example.com', 'Add export');
    await push('feat-3', C3, '2026-05-04T10:00:00Z', 'ann', 'ann@example.com', 'Fix rounding\n\nCo-authored-by: Claude <noreply@anthropic.com>');
    await push('feat-4', C4, '2026-05-05T10:00:00Z', 'ann', 'ann@example.com', 'Tidy\n\nMade-with: Cursor');
    await push('feat-9', C9, '2026-05-06T10:00:00Z', 'dana', 'dana@laptop.local', 'Speed up search');
    await push('feat-10', C10, '2026-05-07T10:00:00Z', 'ann', 'ann@example.com', 'Rename');

    const pr = async (n: number, fields: { branch?: string; login?: string; labels?: string[] }, installation = installationId) => {
      const day = String(n + 10).padStart(2, '0');
      const event = mergedPullRequest(REPO, {
        id: installation * 100 + n, number: n, title: `Change ${n}`, user: { login: fields.login ?? 'ann' }, additions: 10, deletions: 5, changed_files: 1, commits: 1,
        labels: (fields.labels ?? []).map((name) => ({ name })), created_at: `2026-05-${day}T00:00:00Z`, merged_at: `2026-05-${day}T12:00:00Z`, merge_commit_sha: sha(String(n % 10)),
      });
      const branch = fields.branch ?? `feat-${n}`;
      event.pull_request.head = { ...event.pull_request.head, ref: branch, label: `acme:${branch}`, sha: sha('f') };
      const r = await deliver(api, 'pull_request', event, { installationId: installation });
      expect(r.status, r.text).to.equal(200);
    };
    await pr(1, { labels: ['ai-assisted'] });
    await pr(2, {});
    await pr(3, {});
    await pr(4, {});
    await pr(5, { labels: ['ai-assisted'] });
    await pr(6, { labels: ['Copilot-Made'] });
    await pr(7, { branch: 'copilot/fix-x' });
    await pr(8, { login: 'copilot-swe-agent[bot]' });
    await pr(9, { login: 'dana' });
    await pr(10, {});
    await pr(1, { labels: ['ai-assisted'] }, otherInstallation);

    // Claude Code's own telemetry: Eve's session commits c2 (the tool_result of `git commit`), Dana
    // prompts on 05-06 (her person-day, no commit named).
    const events = eventLogger();
    const exporter = logExporter({ baseUrl: api.baseUrl, apiKey: tenant.owner.apiKey, protocol: 'http/protobuf' });
    events.emit('claude_code.tool_result', {
      'session.id': 'cc-eve', 'user.email': 'eve@example.com', 'event.sequence': 1, tool_name: 'Bash', success: 'true', duration_ms: 300,
      tool_parameters: JSON.stringify({ bash_command: 'git', full_command: 'git commit -m "Add export"', output: `[feat-2 ${C2.slice(0, 7)}] Add export\n 1 file changed` }),
    }, new Date('2026-05-03T09:59:00Z'));
    events.emit('claude_code.user_prompt', { 'session.id': 'cc-dana', 'user.email': dana, 'event.sequence': 1, 'prompt.id': 'p-1', prompt_length: 12 }, new Date('2026-05-06T08:00:00Z'));
    events.emit('claude_code.api_request', { 'session.id': 'cc-dana', 'user.email': dana, 'event.sequence': 2, model: 'claude-sonnet-4-5', input_tokens: 10, output_tokens: 5 }, new Date('2026-05-06T08:00:05Z'));
    expect(succeeded(await exporter.export(await events.take()))).to.equal(true);
    await exporter.shutdown();
    await events.shutdown();
    telemetrySession = (await pool.query(`select id from ai_sessions where tenant_id = $1 and telemetry_id = 'cc-eve'`, [tenant.tenantId])).rows[0].id;

    const d = await owner.post('/api/webhooks/v1/deployments', { projectKey: REPO, externalId: 'p1', ref: 'main', sha: sha('d'), environment: 'production', status: 'success', createdAt: '2026-05-31T00:00:00Z' });
    expect(d.status, d.text).to.be.oneOf([200, 201]);
  });
  after(async () => {
    await api?.close();
  });

  it('gives every merged PR its level and evidence in the drill-through, and ai_assisted_pr_share counts high and medium', async () => {
    const body = await drill();
    expect(body.meta).to.include({ total: 10, marked: 7, markedColumn: 'aiAssisted' });
    expect(body.meta.columns.map((c: { key: string }) => c.key)).to.include.members(['aiAssisted', 'aiAttribution', 'aiEvidence']);
    expect(levels(body)).to.deep.equal({
      1: ['high', true, `session ${uploaded} (uploaded) names PR #1; label ai-assisted`],
      2: ['high', true, `session ${telemetrySession} (telemetry) names commit ${C2.slice(0, 7)} in a claude-code tool_result`],
      3: ['medium', true, `trailer Co-authored-by: Claude <noreply@anthropic.com> (commit ${C3.slice(0, 7)})`],
      4: ['medium', true, `trailer Made-with: Cursor (commit ${C4.slice(0, 7)})`],
      5: ['medium', true, 'label ai-assisted'],
      6: ['none', false, null],
      7: ['medium', true, 'branch copilot/fix-x'],
      8: ['medium', true, 'author copilot-swe-agent[bot] (an AI agent account)'],
      9: ['low', false, `author dana: AI activity (telemetry, claude-code) on 2026-05-06, the day of commit ${C9.slice(0, 7)}`],
      10: ['none', false, null],
    });
    expect(await share(tenant.owner.apiKey)).to.deep.include({ 'pull_requests.ai_assisted_prs_merged': '7' });
    expect(Number((await share(tenant.owner.apiKey))!['pull_requests.ai_assisted_pr_share'])).to.equal(0.7);
    expect(await byLevel(tenant.owner.apiKey, 'pull_requests.prs_merged', 'pull_requests.merged_at')).to.deep.equal({ high: 2, medium: 5, low: 1, none: 2 });
  });

  it('lets an owner add a label of their own (validated, lower-cased), which re-grades the PRs carrying it', async () => {
    const owner = api.as(tenant.owner.apiKey);
    expect((await owner.get('/api/ai/attribution/settings')).body.data).to.deep.include({ defaultLabel: 'ai-assisted', labels: [] });
    for (const [body, path] of [
      [{ labels: ['x'.repeat(51)] }, 'labels.0'],
      [{ labels: ['bad\u0007label'] }, 'labels.0'],
      [{ labels: '  ' }, 'labels'],
      [{ labels: Array.from({ length: 21 }, (_, i) => `l${i}`) }, 'labels'],
      [{ labels: [], extra: true }, ''],
    ] as const) {
      const res = await owner.put('/api/ai/attribution/settings', body);
      expect(res.status, JSON.stringify(body)).to.equal(400);
      expect(res.body.error.code).to.equal('validation_failed');
      if (path) expect(res.body.error.details.map((d: { path: string }) => d.path)).to.include(path);
    }
    expect((await api.as(member.apiKey).put('/api/ai/attribution/settings', { labels: ['copilot-made'] })).status).to.equal(403);
    const saved = await owner.put('/api/ai/attribution/settings', { labels: ['Copilot-Made', 'copilot-made', 'AI-Assisted'] });
    expect(saved.status, saved.text).to.equal(200);
    expect(saved.body.data).to.deep.include({ labels: ['copilot-made'] });
    expect((await api.as(member.apiKey).get('/api/ai/attribution/settings')).body.data.labels).to.deep.equal(['copilot-made']);

    const body = await drill();
    expect(body.meta).to.include({ total: 10, marked: 8 });
    expect(levels(body)[6]).to.deep.equal(['medium', true, 'label Copilot-Made']);
    expect(Number((await share(tenant.owner.apiKey))!['pull_requests.ai_assisted_pr_share'])).to.equal(0.8);
    expect(await byLevel(tenant.owner.apiKey, 'pull_requests.prs_merged', 'pull_requests.merged_at')).to.deep.equal({ high: 2, medium: 6, low: 1, none: 1 });
  });

  it('has the same dimension on change_lead_times, and a level per commit on commits', async () => {
    expect(await byLevel(tenant.owner.apiKey, 'change_lead_times.deployed_changes', 'change_lead_times.deployed_at')).to.deep.equal({ high: 2, medium: 6, low: 1, none: 1 });
    const lead = await api.as(tenant.owner.apiKey).get(`/api/facts?measure=change_lead_times.deployed_changes&${MAY}`);
    expect(Object.fromEntries(lead.body.data.map((r: Record<string, unknown>) => [r.number, r.aiAttribution]))).to.deep.equal({ 1: 'high', 2: 'high', 3: 'medium', 4: 'medium', 5: 'medium', 6: 'medium', 7: 'medium', 8: 'medium', 9: 'low', 10: 'none' });
    const commits = await cube(tenant.owner.apiKey, { dimensions: ['commits.ai_attribution', 'commits.ai_attribution_evidence'], measures: ['commits.commits'], timeDimensions: [{ dimension: 'commits.committed_at', dateRange: ['2026-05-01', '2026-05-31'] }], order: [['commits.ai_attribution', 'asc'], ['commits.ai_attribution_evidence', 'asc']] });
    expect(commits.map((r) => [r['commits.ai_attribution'], r['commits.ai_attribution_evidence'], Number(r['commits.commits'])])).to.deep.equal([
      ['high', `session ${telemetrySession} (telemetry) names commit ${C2.slice(0, 7)} in a claude-code tool_result`, 1],
      ['low', 'author dana: AI activity (telemetry, claude-code) on 2026-05-06', 1],
      ['medium', 'trailer Co-authored-by: Claude <noreply@anthropic.com>', 1],
      ['medium', 'trailer Made-with: Cursor', 1],
      ['none', null, 1],
    ]);
  });

  it('writes the level and the evidence into the CSV of the list', async () => {
    const res = await api.as(tenant.owner.apiKey).get(`/api/facts?measure=pull_requests.prs_merged&${MAY}&format=csv`);
    expect(res.status).to.equal(200);
    const rows = parse(res.text, { columns: true }) as Record<string, string>[];
    expect(Object.keys(rows[0]!)).to.include.members(['aiAttribution', 'aiEvidence']);
    expect(rows.find((r) => r.number === '7')).to.deep.include({ aiAttribution: 'medium', aiEvidence: 'branch copilot/fix-x' });
    expect(rows.find((r) => r.number === '10')).to.deep.include({ aiAttribution: 'none', aiEvidence: '' });
  });

  it('shows an owner, and only an owner, how many merged PRs each signal found', async () => {
    const res = await api.as(tenant.owner.apiKey).get(`/api/ai/attribution/signals?${MAY}`);
    expect(res.status, res.text).to.equal(200);
    expect(res.body.data).to.deep.include({ from: '2026-05-01', to: '2026-05-31', prsMerged: 10, levels: { high: 2, medium: 6, low: 1, none: 1 } });
    expect(Object.fromEntries(res.body.data.signals.map((s: { signal: string; prs: number }) => [s.signal, s.prs]))).to.deep.equal({
      session: 1, vendor_commit: 0, telemetry_commit: 1, trailer: 2, label: 3, branch: 1, bot_author: 1, author_activity: 1,
    });
    expect((await api.as(member.apiKey).get(`/api/ai/attribution/signals?${MAY}`)).status).to.equal(403);
    const bad = await api.as(tenant.owner.apiKey).get('/api/ai/attribution/signals?from=2026-13');
    expect(bad.status).to.equal(400);
    expect(bad.body.error.details.map((d: { path: string }) => d.path)).to.include('query.from');
  });

  it("keeps each tenant's labels, levels and counts its own", async () => {
    const b = api.as(other.owner.apiKey);
    expect((await b.get('/api/ai/attribution/settings')).body.data.labels).to.deep.equal([]);
    expect((await b.put('/api/ai/attribution/settings', { labels: ['made-by-robots'] })).status).to.equal(200);
    expect((await api.as(tenant.owner.apiKey).get('/api/ai/attribution/settings')).body.data.labels).to.deep.equal(['copilot-made']);
    const counts = (await b.get(`/api/ai/attribution/signals?${MAY}`)).body.data;
    expect(counts).to.deep.include({ prsMerged: 1, levels: { high: 0, medium: 1, low: 0, none: 0 } });
    expect(await byLevel(other.owner.apiKey, 'pull_requests.prs_merged', 'pull_requests.merged_at')).to.deep.equal({ medium: 1 });
    expect(levels(await drill(other.owner.apiKey))).to.deep.equal({ 1: ['medium', true, 'label ai-assisted'] });
    expect(await byLevel(tenant.owner.apiKey, 'pull_requests.prs_merged', 'pull_requests.merged_at')).to.deep.equal({ high: 2, medium: 6, low: 1, none: 1 });
  });
  it("reads a vendor's per-commit AI lines as high evidence (ai_vendor_commits), and a vendor's day as activity", async () => {
    const { pool } = dbFor(api.databaseUrl);
    const [commit] = (await pool.query(
      `select c.sha from pull_request_commits prc join commits c on c.id = prc.commit_id join pull_requests pr on pr.id = prc.pull_request_id
       where pr.tenant_id = $1 and pr.number = 10 order by c.sha limit 1`, [tenant.tenantId])).rows;
    expect(commit, 'PR #10 has a commit').to.not.equal(undefined);
    await pool.query(
      `insert into ai_vendor_commits (tenant_id, source, sha, ai_lines_added, tab_lines_added, composer_lines_added, total_lines_added) values ($1, 'cursor', $2, 40, 10, 30, 50)`,
      [tenant.tenantId, commit.sha]);
    try {
      expect(levels(await drill(tenant.owner.apiKey))[10]).to.deep.equal(['high', true, `cursor: 80 % of added lines from AI (tab 10, composer 30), vendor data, commit ${String(commit.sha).slice(0, 7)}`]);
      const [days] = (await pool.query(`select count(*)::int as n from ai_activity_days where tenant_id = $1 and source = 'vendor'`, [tenant.tenantId])).rows;
      expect(days.n).to.equal(0);
      await pool.query(`insert into ai_vendor_days (tenant_id, source, day, person_key, person_login, requests) values ($1, 'copilot', '2026-05-07', 'login:erin', 'erin', 3)`, [tenant.tenantId]);
      expect((await pool.query(`select person_key, day::text, source, tool from ai_activity_days where tenant_id = $1 and source = 'vendor'`, [tenant.tenantId])).rows).to.deep.equal([
        { person_key: 'login:erin', day: '2026-05-07', source: 'vendor', tool: 'copilot' },
      ]);
    } finally {
      await pool.query('delete from ai_vendor_commits where tenant_id = $1', [tenant.tenantId]);
      await pool.query('delete from ai_vendor_days where tenant_id = $1', [tenant.tenantId]);
    }
  });
});
