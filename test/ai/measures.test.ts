/**
 * The AI measures beyond the export (issue 45 point 5, docs/ai-measures.md): AI-added line share,
 * tokens per merged PR, edit acceptance rate, idle seats, from telemetry (the real OpenTelemetry
 * SDK exporter), the vendors' daily reports (rows as their jobs store them) and the seat import; a
 * person-day reported by two sources counts once and its list names both.
 *
 * Hand-worked, month M = the current month (telemetry's day is today, UTC). Ann on alpha, Bo on
 * alpha and beta, Cy on no team (an unmatched Cursor e-mail), Dee on beta (a seat, no activity).
 *   Ann today: telemetry (claude-code) tokens 1000 in + 200 out, 30 lines added, edits 3 accepted
 *     1 rejected; Claude Code Analytics the same day: 1000 in + 300 out, 25 lines, 4 accepted 0
 *     rejected → one day row (sources "claude_code_analytics, telemetry"): lines 30, tokens 1300,
 *     accepted 4, offered 4.
 *   Bo M-01 Copilot (by login): lines 50, tokens 0, accepted 5, rejected 15 → offered 20.
 *   Cy M-01 Cursor (unmatched e-mail): lines 20, tokens 400 + 100, accepted 2, rejected 2.
 *   PRs merged in M: alpha's project +100 and +60, beta's +40; one open PR (not counted).
 *   → organisation: lines 100 ÷ 200 = 0.5; tokens 1800 ÷ 3 PRs = 600; edits 11 ÷ 28.
 *     alpha (Ann, Bo; 2 PRs): 80 ÷ 160 = 0.5; 1300 ÷ 2 = 650; 9 ÷ 24 = 0.375.
 *     beta (Bo; 1 PR): 50 ÷ 40 → capped at 1; 0 ÷ 1 = 0; 5 ÷ 20 = 0.25.
 *   Seats: Ann copilot (active: her activity), Bo cursor (vendor last activity in M), Dee copilot
 *   (no activity) → idle 1 (Dee), beta 1, alpha 0.
 * Tenant B has a vendor day and a PR of its own in M, which A never sees.
 */
import { expect } from 'chai';
import pg from 'pg';
import { buildTenant, dbFor, type BuiltTenant } from '../helpers/factories.js';
import { testServer, type TestServer } from '../helpers/server.js';
import { annBoAndCy, type AnnBoCy } from '../facts/helpers.js';
import { meter, metricExporter, succeeded } from '../aiTelemetry/sdk.js';

const TODAY = new Date().toISOString().slice(0, 10);
const M = TODAY.slice(0, 7);
const FIRST = `${M}-01`;
const LAST = (() => {
  const [y, m] = M.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
})();
const TIME: Record<string, string> = { ai_activity: 'ai_activity.happened_at', seats: 'seats.month', ai_sessions: 'ai_sessions.started_at' };

describe('AI measures from every source: line share, tokens per merged PR, edit acceptance, idle seats', function () {
  this.timeout(180_000);
  let api: TestServer;
  let tenant: BuiltTenant;
  let other: BuiltTenant;
  let shared: AnnBoCy;
  let pool: pg.Pool;

  const cube = async (measure: string, team?: string, key = tenant.owner.apiKey) => {
    const res = await api.as(key).post('/cubejs-api/v1/load', {
      query: {
        measures: [measure],
        timeDimensions: [{ dimension: TIME[measure.split('.')[0]!], dateRange: [FIRST, LAST] }],
        ...(team ? { filters: [{ member: 'teams.slug', operator: 'equals', values: [team] }] } : {}),
      },
    });
    expect(res.status, res.text).to.equal(200);
    const v = res.body.data[0]?.[measure];
    return v === null || v === undefined ? null : Number(v);
  };
  const facts = (query: string, key = tenant.owner.apiKey) => api.as(key).get(`/api/facts?${query}`);

  const vendorDay = (tenantId: string, source: string, day: string, who: { email?: string; login?: string }, v: { lines: number; input: number; output: number; accepted: number; rejected: number; sessions?: number; requests?: number }) =>
    pool.query(
      `insert into ai_vendor_days (tenant_id, source, day, person_key, person_email, person_login, sessions, requests, lines_added, edits_accepted, edits_rejected, input_tokens, output_tokens)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
      [tenantId, source, day, who.email ?? `login:${who.login}`, who.email ?? null, who.login ?? null, v.sessions ?? 1, v.requests ?? 1, v.lines, v.accepted, v.rejected, v.input, v.output],
    );

  const mergedPr = async (tenantId: string, projectId: string, n: number, additions: number, merged: boolean) =>
    pool.query(
      `insert into pull_requests (tenant_id, project_id, external_id, number, title, state, additions, deletions, created_at, merged_at)
       values ($1, $2, $3, $4, 'pr', $5, $6, 0, $7, $8)`,
      [tenantId, projectId, `pr-${n}`, n, merged ? 'merged' : 'open', additions, `${FIRST}T00:00:00Z`, merged ? `${FIRST}T12:00:00Z` : null],
    );
  const project = async (tenantId: string, key: string, team: string | null) =>
    (await pool.query(`insert into projects (tenant_id, provider, project_key, source_type, owning_team_id) values ($1, 'manual', $2, 'manual', $3) returning id`, [tenantId, key, team])).rows[0].id as string;

  before(async () => {
    api = await testServer();
    tenant = await buildTenant(api.databaseUrl);
    other = await buildTenant(api.databaseUrl);
    shared = await annBoAndCy(api, tenant);
    pool = dbFor(api.databaseUrl).pool;
    const t = tenant.tenantId;

    // Ann's telemetry, through the real SDK exporter.
    const sdk = meter('delta');
    const exporter = metricExporter({ baseUrl: api.baseUrl, apiKey: tenant.owner.apiKey, protocol: 'http/protobuf', gzip: true });
    const attrs = { 'session.id': 'measures-1', 'user.email': shared.email('ann'), 'organization.id': 'org-1' };
    sdk.meter.createCounter('claude_code.session.count').add(1, attrs);
    const tokens = sdk.meter.createCounter('claude_code.token.usage', { unit: 'tokens' });
    tokens.add(1000, { ...attrs, type: 'input', model: 'claude-sonnet-4-5' });
    tokens.add(200, { ...attrs, type: 'output', model: 'claude-sonnet-4-5' });
    tokens.add(5000, { ...attrs, type: 'cacheRead', model: 'claude-sonnet-4-5' });
    sdk.meter.createCounter('claude_code.lines_of_code.count').add(30, { ...attrs, type: 'added' });
    const decisions = sdk.meter.createCounter('claude_code.code_edit_tool.decision');
    decisions.add(3, { ...attrs, decision: 'accept', tool: 'Edit', language: 'TypeScript' });
    decisions.add(1, { ...attrs, decision: 'reject', tool: 'Edit', language: 'TypeScript' });
    expect(succeeded(await exporter.export(await sdk.collect()))).to.equal(true);
    await exporter.shutdown();
    await sdk.shutdown();

    await vendorDay(t, 'claude_code_analytics', TODAY, { email: shared.email('ann') }, { lines: 25, input: 1000, output: 300, accepted: 4, rejected: 0 });
    await pool.query(`insert into person_identities (tenant_id, person_id, kind, value) values ($1, $2, 'codehost_username', 'bo-gh')`, [t, shared.people.bo]);
    await vendorDay(t, 'copilot', FIRST, { login: 'bo-gh' }, { lines: 50, input: 0, output: 0, accepted: 5, rejected: 15, sessions: 0 });
    await vendorDay(t, 'cursor', FIRST, { email: shared.email('cy') }, { lines: 20, input: 400, output: 100, accepted: 2, rejected: 2, sessions: 0 });

    const alphaProject = await project(t, 'acme/alpha', shared.teams.alpha!);
    const betaProject = await project(t, 'acme/beta', shared.teams.beta!);
    await mergedPr(t, alphaProject, 1, 100, true);
    await mergedPr(t, alphaProject, 2, 60, true);
    await mergedPr(t, betaProject, 3, 40, true);
    await mergedPr(t, betaProject, 4, 999, false);

    const dee = (await pool.query(`insert into people (tenant_id, external_ref, email, display_name, employment_type) values ($1, 'dee', $2, 'Dee', 'employee') returning id`, [t, shared.email('dee')])).rows[0].id as string;
    await pool.query(`insert into team_memberships (tenant_id, team_id, person_id, membership_source) values ($1, $2, $3, 'register')`, [t, shared.teams.beta, dee]);
    await pool.query(
      `insert into seats (tenant_id, person_id, tool, assigned_on, last_activity_at) values ($1, $2, 'copilot', '2025-01-01', null), ($1, $3, 'cursor', '2025-01-01', $5), ($1, $4, 'copilot', '2025-01-01', '2025-02-01T00:00:00Z')`,
      [t, shared.people.ann, shared.people.bo, dee, `${FIRST}T08:00:00Z`],
    );

    // Tenant B: its own day and PR in M.
    await vendorDay(other.tenantId, 'cursor', FIRST, { email: 'zed@example.com' }, { lines: 7000, input: 90000, output: 1, accepted: 70, rejected: 1 });
    await mergedPr(other.tenantId, await project(other.tenantId, 'b/one', null), 1, 10, true);
  });

  after(async () => {
    await api.close();
  });

  it('computes each measure as worked by hand, organisation-wide and per team', async () => {
    const expected: Record<string, [number | null, number | null, number | null]> = {
      // organisation, alpha, beta
      'ai_activity.ai_lines_added': [100, 80, 50],
      'ai_activity.merged_pr_lines_added': [200, 160, 40],
      'ai_activity.ai_added_line_share': [0.5, 0.5, 1],
      'ai_activity.ai_tool_tokens': [1800, 1300, 0],
      'ai_activity.merged_prs': [3, 2, 1],
      'ai_activity.tokens_per_merged_pr': [600, 650, 0],
      'ai_activity.edits_accepted': [11, 9, 5],
      'ai_activity.edits_offered': [28, 24, 20],
      'ai_activity.edit_acceptance_rate': [11 / 28, 0.375, 0.25],
      'seats.idle_seats': [1, 0, 1],
      'seats.ai_seat_holders': [3, 2, 2],
    };
    for (const [measure, values] of Object.entries(expected)) {
      for (const [i, team] of [undefined, 'alpha', 'beta'].entries()) {
        const value = await cube(measure, team);
        if (values[i] === null) expect(value, `${measure} ${team}`).to.equal(null);
        else expect(value, `${measure} ${team}`).to.be.closeTo(values[i]!, 1e-9);
      }
    }
  });

  it("each measure's list adds up to its number (a ratio's to its n), per team too", async () => {
    const cases: [string, string][] = [
      ['ai_activity.ai_lines_added', 'aiLinesAdded'],
      ['ai_activity.ai_tool_tokens', 'tokens'],
      ['ai_activity.tokens_per_merged_pr', 'prsMerged'],
      ['ai_activity.ai_added_line_share', 'mergedPrLinesAdded'],
      ['ai_activity.edit_acceptance_rate', 'editsOffered'],
      ['ai_activity.edits_accepted', 'editsAccepted'],
    ];
    for (const [measure, column] of cases) {
      const n = (measure.endsWith('_share') ? 'ai_activity.merged_pr_lines_added' : measure.endsWith('_pr') ? 'ai_activity.merged_prs' : measure.endsWith('_rate') ? 'ai_activity.edits_offered' : measure);
      for (const team of [undefined, 'alpha', 'beta']) {
        const res = await facts(`measure=${measure}&from=${M}&to=${M}${team ? `&team=${team}` : ''}`);
        expect(res.status, res.text).to.equal(200);
        const rows = res.body.data as Record<string, number>[];
        const total = rows.reduce((a, r) => a + Number(r[column]), 0);
        expect(res.body.meta.sum, `${measure} ${team}`).to.deep.equal({ column, value: await cube(n, team) });
        expect(total, `${measure} ${team}`).to.equal(await cube(n, team));
      }
    }
    // The ratio's numerator is beside the denominator on the same rows.
    const rate = (await facts(`measure=ai_activity.edit_acceptance_rate&from=${M}&to=${M}`)).body.data as Record<string, number>[];
    expect(rate.reduce((a, r) => a + r.editsAccepted!, 0)).to.equal(11);
  });

  it('counts the person-day that telemetry and a vendor both report once, and names both sources', async () => {
    const res = await facts(`measure=ai_activity.ai_lines_added&from=${M}&to=${M}&team=alpha`);
    const ann = (res.body.data as Record<string, unknown>[]).filter((r) => r.user === shared.people.ann);
    expect(ann.map((r) => ({ day: String(r.day).slice(0, 10), tool: r.tool, sources: r.sources, lines: r.aiLinesAdded, tokens: r.tokens, accepted: r.editsAccepted, offered: r.editsOffered })))
      .to.deep.equal([{ day: TODAY, tool: 'claude-code', sources: 'claude_code_analytics, telemetry', lines: 30, tokens: 1300, accepted: 4, offered: 4 }]);

    // ai_active_users: Ann once (two sources), Bo, Cy → 3; her row names both sources.
    expect(await cube('ai_sessions.ai_active_users')).to.equal(3);
    const users = await facts(`measure=ai_sessions.ai_active_users&from=${M}&to=${M}`);
    expect(users.status, users.text).to.equal(200);
    const byUser = Object.fromEntries((users.body.data as { user: string; sources: string }[]).map((r) => [r.user, r.sources]));
    expect(byUser[shared.people.ann!]).to.equal('claude_code_analytics, telemetry');
    expect(byUser[shared.people.bo!]).to.equal('copilot');
    expect(users.body.meta.total).to.equal(3);
  });

  it('lists the idle seats: the seat of a holder with no activity in the month', async () => {
    const res = await facts(`measure=seats.idle_seats&from=${M}&to=${M}`);
    expect(res.status, res.text).to.equal(200);
    const rows = res.body.data as { person: string; tool: string; lastActivityAt: string | null }[];
    expect(rows.map((r) => [r.tool, r.lastActivityAt])).to.deep.equal([['copilot', '2025-02-01T00:00:00.000Z']]);
    expect(rows[0]!.person).to.not.equal(shared.people.ann).and.not.equal(shared.people.bo);
  });

  it("keeps tenant B's activity and PRs out of A's measures, and A's out of B's", async () => {
    const bKey = other.owner.apiKey;
    expect(await cube('ai_activity.ai_lines_added', undefined, bKey)).to.equal(7000);
    expect(await cube('ai_activity.tokens_per_merged_pr', undefined, bKey)).to.equal(90001);
    expect(await cube('seats.idle_seats', undefined, bKey)).to.equal(0);
    const list = await facts(`measure=ai_activity.ai_tool_tokens&from=${M}&to=${M}`, bKey);
    expect(list.body.meta.sum).to.deep.equal({ column: 'tokens', value: 90001 });
    expect(await cube('ai_activity.ai_tool_tokens')).to.equal(1800);
  });
});
