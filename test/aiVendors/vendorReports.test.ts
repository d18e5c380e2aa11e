/**
 * Issue 45 point 2: the AI tools' vendor reports (docs/ai-vendor-reports.md), pulled from local
 * fakes of Anthropic's Claude Code Analytics report, GitHub's Copilot reports and seats, and
 * Cursor's Admin and AI Code Tracking APIs (test/aiVendors/fakes.ts).
 *
 * The pulls run as the job runs them (pullSource as the tenant), at a fixed "now" of 2026-11-02
 * 12:00 UTC, with a 40-day backfill (2026-09-23 on), and a sleep that records instead of waiting.
 *
 * Hand-worked, for Ann (team alpha; e-mail ann-<tag>@example.com, GitHub login ann-gh):
 *   Claude Code, 2026-10-05: two records (vscode, cli) → sessions 2+1 = 3, lines 100+20 / 10+5,
 *     commits 1, PRs 1, edits accepted 5+2+1 = 8, rejected 1, tokens sonnet 1000+100 in,
 *     200+20 out, 300 cache read, 50 cache write, haiku 10 / 5; the cost is never stored.
 *     Also 10-06 (1 session), 11-01 (3 sessions); an API key `ci-bot` (no person) on 10-05; an
 *     unmatched zed-<tag>@example.com on 10-07.
 *   → October: ai_active_users 2 (Ann, zed), team alpha 1 (Ann), ai_sessions 0 (vendor reports
 *     count person-days, not sessions); November: 1.
 *   Telemetry for Ann on 10-05 adds nobody (one person-day, two sources).
 *   Copilot, 10-05: Ann by login (4 interactions, 6 of 10 generations accepted); `stranger` on
 *     10-08 (matches nobody) → October: 3 (Ann once, zed, stranger); seats: Ann matched, two not.
 *   Cursor: Ann on 10-05; AI Code Tracking: c0ffee01 (5 tab + 15 composer lines, ours) counts in
 *     ai_commits, c0ffee02 (0 AI lines, ours) and c0ffee03 (AI lines, not ours) do not → 1.
 */
import { expect } from 'chai';
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import pg from 'pg';
import { aiVendorPull, aiVendorsPullDue } from '../../src/aiVendors/jobs.js';
import { pullSource, type PullResult } from '../../src/aiVendors/service.js';
import type { JobContext } from '../../src/jobs/define.js';
import type { AiVendorSource } from '../../src/db/schema/index.js';
import { withTenant } from '../../src/db/tenancy.js';
import { annBoAndCy, type AnnBoCy } from '../facts/helpers.js';
import { buildTenant, dbFor, type BuiltTenant } from '../helpers/factories.js';
import { testServer, type TestServer } from '../helpers/server.js';
import { fakeVendors, type FakeVendors } from './fakes.js';

const NOW = new Date('2026-11-02T12:00:00Z');
const ms = (day: string) => Date.parse(`${day}T00:00:00Z`);

describe('AI tools: vendor reports pulled into person-days, commits and seats', function () {
  this.timeout(180_000);
  let api: TestServer;
  let fake: FakeVendors;
  let tenant: BuiltTenant;
  let other: BuiltTenant;
  let shared: AnnBoCy;
  let pool: pg.Pool;
  let sleeps: number[];

  const q = (text: string, values: unknown[] = []) => pool.query(text, values);
  const pull = (t: BuiltTenant, source: AiVendorSource, maxWaitSeconds = 120): Promise<PullResult> =>
    withTenant(t.tenantId, () => pullSource(api.running.app, t.tenantId, source, {
      jobId: randomUUID(),
      signal: new AbortController().signal,
      pace: { sleep: async (ms) => void sleeps.push(ms), maxWaitSeconds },
      now: () => NOW,
    }));
  const cube = async (t: BuiltTenant, measure: string, time: string, month: string, team?: string) => {
    const [y, m] = month.split('-').map(Number) as [number, number];
    const res = await api.as(t.owner.apiKey).post('/cubejs-api/v1/load', {
      query: {
        measures: [measure],
        timeDimensions: [{ dimension: time, dateRange: [`${month}-01`, new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10)] }],
        ...(team ? { filters: [{ member: 'teams.slug', operator: 'equals', values: [team] }] } : {}),
      },
    });
    expect(res.status, res.text).to.equal(200);
    return Number(res.body.data[0]?.[measure] ?? 0);
  };
  const activeUsers = (t: BuiltTenant, month: string, team?: string) => cube(t, 'ai_sessions.ai_active_users', 'ai_sessions.started_at', month, team);
  const dayRow = async (t: BuiltTenant, source: string, day: string, personKey: string) =>
    (await q(`select * from ai_vendor_days where tenant_id = $1 and source = $2 and day = $3 and person_key = $4`, [t.tenantId, source, day, personKey])).rows[0];
  const save = (t: BuiltTenant, source: string, body: unknown) => api.as(t.owner.apiKey).put(`/api/ai/vendors/${source}`, body);

  before(async () => {
    fake = await fakeVendors();
    // The code-host application too, whose installation on the organisation can read Copilot's reports.
    const appKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
    api = await testServer({ env: {
      ANTHROPIC_ADMIN_API_URL: fake.url, COPILOT_API_URL: fake.url, CURSOR_API_URL: fake.url, JOBS_WORKER_ENABLED: 'false',
      CODEHOST_APP_ID: '1048576', CODEHOST_APP_PRIVATE_KEY: appKey, CODEHOST_APP_API_URL: fake.url,
    } });
    tenant = await buildTenant(api.databaseUrl);
    other = await buildTenant(api.databaseUrl);
    shared = await annBoAndCy(api, tenant);
    pool = dbFor(api.databaseUrl).pool;
    await q(`insert into person_identities (tenant_id, person_id, kind, value) values ($1, $2, 'codehost_username', 'ann-gh')`, [tenant.tenantId, shared.people.ann]);
    const ann = shared.email('ann');
    const user = (email: string) => ({ type: 'user_actor', email_address: email });
    const claudeDay = (sessions: number) => ({ actor: user(ann), terminal_type: 'vscode', core_metrics: { num_sessions: sessions, lines_of_code: { added: 5, removed: 0 }, commits_by_claude_code: 0, pull_requests_by_claude_code: 0 }, tool_actions: {}, model_breakdown: [] });
    fake.claude.days = {
      '2026-10-05': [
        {
          actor: user(ann.toUpperCase()), terminal_type: 'vscode',
          core_metrics: { num_sessions: 2, lines_of_code: { added: 100, removed: 10 }, commits_by_claude_code: 1, pull_requests_by_claude_code: 1 },
          tool_actions: { edit_tool: { accepted: 5, rejected: 1 }, write_tool: { accepted: 2, rejected: 0 }, multi_edit_tool: { accepted: 0, rejected: 0 }, notebook_edit_tool: { accepted: 0, rejected: 0 } },
          model_breakdown: [{ model: 'claude-sonnet-4-5', tokens: { input: 1000, output: 200, cache_read: 300, cache_creation: 50 }, estimated_cost: { currency: 'USD', amount: 123 } }],
        },
        { actor: { type: 'api_actor', api_key_name: 'ci-bot' }, terminal_type: 'non-interactive', core_metrics: { num_sessions: 4, lines_of_code: { added: 0, removed: 0 }, commits_by_claude_code: 0, pull_requests_by_claude_code: 0 }, tool_actions: {}, model_breakdown: [] },
        {
          actor: user(ann), terminal_type: 'cli',
          core_metrics: { num_sessions: 1, lines_of_code: { added: 20, removed: 5 }, commits_by_claude_code: 0, pull_requests_by_claude_code: 0 },
          tool_actions: { edit_tool: { accepted: 1, rejected: 0 } },
          model_breakdown: [
            { model: 'claude-sonnet-4-5', tokens: { input: 100, output: 20, cache_read: 0, cache_creation: 0 }, estimated_cost: { currency: 'USD', amount: 9 } },
            { model: 'claude-haiku-4-5', tokens: { input: 10, output: 5, cache_read: 0, cache_creation: 0 }, estimated_cost: { currency: 'USD', amount: 1 } },
          ],
        },
      ],
      '2026-10-06': [claudeDay(1)],
      '2026-10-07': [{ ...claudeDay(1), actor: user(shared.email('zed')) }],
      '2026-11-01': [claudeDay(3)],
    };
    sleeps = [];
  });

  after(async () => {
    await api.close();
    await fake.close();
  });

  it('tests the key on save and keeps it sealed: the column is not the key, and no answer carries it', async () => {
    const saved = await save(tenant, 'claude_code_analytics', { apiKey: fake.claude.key, backfillDays: 40 });
    expect(saved.status, saved.text).to.equal(200);
    expect(saved.body.data).to.include({ source: 'claude_code_analytics', configured: true, keySet: true, backfillDays: 40 });
    const test = fake.seen.filter((s) => s.path === '/v1/organizations/usage_report/claude_code').at(-1)!;
    expect([test.headers['x-api-key'], test.query.limit, test.status]).to.deep.equal([fake.claude.key, '1', 200]);
    const row = (await q(`select key_sealed from ai_vendor_sources where tenant_id = $1`, [tenant.tenantId])).rows[0];
    expect(row.key_sealed).to.be.a('string').and.not.include(fake.claude.key).and.not.include(Buffer.from(fake.claude.key).toString('base64url'));
    const listed = await api.as(tenant.owner.apiKey).get('/api/ai/vendors');
    expect(listed.status).to.equal(200);
    expect(listed.text).to.not.include(fake.claude.key);
    expect(listed.text).to.not.include(row.key_sealed);
    expect((listed.body.data as { source: string; configured: boolean }[]).map((s) => [s.source, s.configured]))
      .to.deep.equal([['claude_code_analytics', true], ['copilot', false], ['cursor', false]]);
  });

  it('refuses a key the vendor refuses, with 400 on apiKey (or org), and stores nothing', async () => {
    const before = fake.seen.length;
    const claude = await save(other, 'claude_code_analytics', { apiKey: 'sk-ant-admin01-wrong' });
    expect(claude.status, claude.text).to.equal(400);
    expect(claude.body.error.details[0].path).to.equal('apiKey');
    expect(claude.body.error.details[0].message).to.include('HTTP 401');
    const cursor = await save(other, 'cursor', { apiKey: 'key_cursor_wrong' });
    expect([cursor.status, cursor.body.error.details[0].path]).to.deep.equal([400, 'apiKey']);
    const copilot = await save(other, 'copilot', { org: 'not-acme', apiKey: fake.copilot.token });
    expect([copilot.status, copilot.body.error.details[0].path]).to.deep.equal([400, 'org']);
    const noKey = await save(other, 'claude_code_analytics', {});
    expect([noKey.status, noKey.body.error.details[0].path]).to.deep.equal([400, 'apiKey']);
    expect(fake.seen.slice(before).map((s) => s.status)).to.deep.equal([401, 401, 404]);
    expect((await q(`select count(*)::int as n from ai_vendor_sources where tenant_id = $1`, [other.tenantId])).rows[0].n).to.equal(0);
  });

  it('keeps each tenant to its own sources: another tenant reads none, changes none; a member reads and cannot change', async () => {
    const theirs = await api.as(other.owner.apiKey).get('/api/ai/vendors');
    expect((theirs.body.data as { configured: boolean }[]).every((s) => !s.configured)).to.equal(true);
    expect((await api.as(other.owner.apiKey).delete('/api/ai/vendors/claude_code_analytics')).status).to.equal(204);
    expect((await api.as(other.owner.apiKey).post('/api/ai/vendors/claude_code_analytics/pull')).status).to.equal(404);
    expect((await q(`select count(*)::int as n from ai_vendor_sources where tenant_id = $1`, [tenant.tenantId])).rows[0].n).to.equal(1);
    const member = api.as(shared.users.cy!.apiKey);
    expect((await member.get('/api/ai/vendors')).body.data[0].configured).to.equal(true);
    const refused = await member.put('/api/ai/vendors/claude_code_analytics', { apiKey: 'sk-ant-admin01-other' });
    expect(refused.status, refused.text).to.equal(403);
    expect((await api.as(tenant.owner.apiKey).post('/api/ai/vendors/claude_code_analytics/pull')).status).to.equal(202);
  });

  it('pulls a person-month from Claude Code Analytics: person-days summed per person, tokens by model, never cost; the AI measures as hand-computed', async () => {
    const result = await pull(tenant, 'claude_code_analytics');
    expect(result.outcome).to.equal('pulled');
    const ann = shared.email('ann');
    const row = await dayRow(tenant, 'claude_code_analytics', '2026-10-05', ann);
    expect({
      email: row.person_email, sessions: row.sessions, added: Number(row.lines_added), removed: Number(row.lines_removed), commits: row.commits, prs: row.pull_requests,
      accepted: row.edits_accepted, rejected: row.edits_rejected, input: Number(row.input_tokens), output: Number(row.output_tokens), cacheRead: Number(row.cache_read_tokens), cacheWrite: Number(row.cache_write_tokens),
      byModel: row.tokens_by_model,
    }).to.deep.equal({
      email: ann, sessions: 3, added: 120, removed: 15, commits: 1, prs: 1, accepted: 8, rejected: 1, input: 1110, output: 225, cacheRead: 300, cacheWrite: 50,
      byModel: { 'claude-sonnet-4-5': { input: 1100, output: 220, cacheRead: 300, cacheWrite: 50 }, 'claude-haiku-4-5': { input: 10, output: 5, cacheRead: 0, cacheWrite: 0 } },
    });
    expect(JSON.stringify([row.tokens_by_model, row.details])).to.not.match(/cost|amount|USD/);
    // The day of three records came in two pages, the second asked for with the first's cursor.
    expect(fake.seen.filter((s) => s.query.starting_at === '2026-10-05' && s.query.limit === '1000').map((s) => s.query.page ?? null)).to.deep.equal([null, 'page_2']);
    const days = (await q(`select day::text, person_key from ai_vendor_days where tenant_id = $1 order by day, person_key`, [tenant.tenantId])).rows.map((r) => `${r.day} ${r.person_key}`);
    expect(days).to.deep.equal([`2026-10-05 ${ann}`, '2026-10-05 api_key:ci-bot', `2026-10-06 ${ann}`, `2026-10-07 ${shared.email('zed')}`, `2026-11-01 ${ann}`]);
    expect(await activeUsers(tenant, '2026-10')).to.equal(2);
    expect(await activeUsers(tenant, '2026-10', 'alpha')).to.equal(1);
    expect(await activeUsers(tenant, '2026-11')).to.equal(1);
    expect(await cube(tenant, 'ai_sessions.ai_sessions', 'ai_sessions.started_at', '2026-10')).to.equal(0);
    const status = (await api.as(tenant.owner.apiKey).get('/api/ai/vendors')).body.data[0];
    expect(status).to.include({ syncedThrough: '2026-11-02', lastError: null, running: false });
    expect(status.lastRunAt).to.be.a('string');
    expect(status.lastSuccessAt).to.be.a('string');
  });

  it('replaces a day pulled again instead of adding to it', async () => {
    fake.claude.days['2026-11-01']![0] = { ...fake.claude.days['2026-11-01']![0], core_metrics: { num_sessions: 5, lines_of_code: { added: 7, removed: 0 }, commits_by_claude_code: 0, pull_requests_by_claude_code: 0 } };
    const count = async () => (await q(`select count(*)::int as n from ai_vendor_days where tenant_id = $1`, [tenant.tenantId])).rows[0].n;
    const rowsBefore = await count();
    expect((await pull(tenant, 'claude_code_analytics')).outcome).to.equal('pulled');
    expect((await pull(tenant, 'claude_code_analytics')).outcome).to.equal('pulled');
    const ann = shared.email('ann');
    expect((await dayRow(tenant, 'claude_code_analytics', '2026-11-01', ann)).sessions).to.equal(5);
    expect(Number((await dayRow(tenant, 'claude_code_analytics', '2026-11-01', ann)).lines_added)).to.equal(7);
    expect((await dayRow(tenant, 'claude_code_analytics', '2026-10-05', ann)).sessions).to.equal(3);
    expect(await count()).to.equal(rowsBefore);
    expect(await activeUsers(tenant, '2026-10')).to.equal(2);
    expect(await activeUsers(tenant, '2026-11')).to.equal(1);
  });

  it('counts a person once in ai_active_users whether telemetry or a vendor report says so', async () => {
    await q(`insert into ai_telemetry_days (tenant_id, person_key, person_email, day, tool, sessions) values ($1, $2, $2, '2026-10-05', 'claude-code', 1)`, [tenant.tenantId, shared.email('ann')]);
    expect(await activeUsers(tenant, '2026-10')).to.equal(2);
    expect(await activeUsers(tenant, '2026-10', 'alpha')).to.equal(1);
  });

  it('resumes a pull that failed between two pages at the page it had not written', async () => {
    const third = await buildTenant(api.databaseUrl);
    expect((await save(third, 'claude_code_analytics', { apiKey: fake.claude.key, backfillDays: 40 })).status).to.equal(200);
    fake.once((s) => s.query.starting_at === '2026-10-05' && s.query.page === 'page_2', 500);
    const crashed = await pull(third, 'claude_code_analytics').catch((e: Error) => e);
    expect(crashed).to.be.instanceOf(Error);
    const stopped = (await q(`select cursor, last_error from ai_vendor_sources where tenant_id = $1`, [third.tenantId])).rows[0];
    expect(stopped.cursor).to.deep.equal({ syncedThrough: '2026-10-04', day: '2026-10-05', page: 'page_2' });
    expect(stopped.last_error).to.include('HTTP 500');
    const mark = fake.seen.length;
    expect((await pull(third, 'claude_code_analytics')).outcome).to.equal('pulled');
    const next = fake.seen.slice(mark).filter((s) => s.path === '/v1/organizations/usage_report/claude_code')[0]!;
    expect([next.query.starting_at, next.query.page]).to.deep.equal(['2026-10-05', 'page_2']);
    const row = await dayRow(third, 'claude_code_analytics', '2026-10-05', shared.email('ann'));
    expect([row.sessions, row.edits_accepted, Number(row.input_tokens)]).to.deep.equal([3, 8, 1110]);
    expect((await q(`select last_error from ai_vendor_sources where tenant_id = $1`, [third.tenantId])).rows[0].last_error).to.equal(null);
  });

  it('waits a 429’s Retry-After and asks again; a longer one ends the run to come back then', async () => {
    fake.once((s) => s.query.starting_at === '2026-11-01' && s.query.limit === '1000', 429, { 'retry-after': '7' });
    sleeps = [];
    const mark = fake.seen.length;
    expect((await pull(tenant, 'claude_code_analytics')).outcome).to.equal('pulled');
    const asked = fake.seen.slice(mark).filter((s) => s.query.starting_at === '2026-11-01').map((s) => s.status);
    expect(asked).to.deep.equal([429, 200]);
    expect(sleeps).to.deep.equal([7000]);

    fake.once((s) => s.query.starting_at === '2026-11-01' && s.query.limit === '1000', 429, { 'retry-after': '3600' });
    sleeps = [];
    const limited = await pull(tenant, 'claude_code_analytics');
    expect(limited).to.deep.equal({ outcome: 'rate limited', retryAfterSeconds: 3600 });
    expect(sleeps).to.deep.equal([]);
    expect((await q(`select last_error from ai_vendor_sources where tenant_id = $1 and source = 'claude_code_analytics'`, [tenant.tenantId])).rows[0].last_error).to.include('resumes in 3600 s');
    expect((await pull(tenant, 'claude_code_analytics')).outcome).to.equal('pulled');
  });

  it('records a key the vendor refuses at pull time, without a retry', async () => {
    const good = fake.claude.key;
    fake.claude.key = 'sk-ant-admin01-rotated';
    const refused = await pull(tenant, 'claude_code_analytics');
    fake.claude.key = good;
    expect(refused.outcome).to.equal('key refused');
    const status = (await api.as(tenant.owner.apiKey).get('/api/ai/vendors')).body.data[0];
    expect(status.lastError).to.include('HTTP 401').and.include('save a working key');
    expect((await pull(tenant, 'claude_code_analytics')).outcome).to.equal('pulled');
  });

  it('pulls Copilot’s daily reports from their NDJSON files and its seats, matching people by code-host username', async () => {
    const ann = (extra: Record<string, unknown> = {}) => ({
      user_login: 'Ann-GH', day: '2026-10-05', enterprise_id: '1',
      user_initiated_interaction_count: 4, code_generation_activity_count: 10, code_acceptance_activity_count: 6,
      loc_added_sum: 30, loc_deleted_sum: 2, loc_suggested_to_add_sum: 40, loc_suggested_to_delete_sum: 0,
      used_agent: false, used_chat: true,
      totals_by_ide: [{ ide: 'vscode', code_generation_activity_count: 10, code_acceptance_activity_count: 6 }],
      totals_by_feature: [{ feature: 'code_completion', code_generation_activity_count: 10 }],
      totals_by_model_feature: [{ model: 'gpt-4.1', feature: 'chat_panel' }],
      totals_by_cli: { session_count: 1, request_count: 2, prompt_count: 2, token_usage: { prompt_tokens_sum: 500, output_tokens_sum: 100, avg_tokens_per_request: 300 } },
      ...extra,
    });
    fake.copilot.users = {
      '2026-10-05': [ann(), { user_login: 'quiet-one', day: '2026-10-05', user_initiated_interaction_count: 0, code_generation_activity_count: 0, code_acceptance_activity_count: 0 }],
      '2026-10-08': [{ user_login: 'stranger', day: '2026-10-08', user_initiated_interaction_count: 2 }],
    };
    // The documented row of organization_user_teams_1_day: the team's slug is `slug`.
    fake.copilot.teams = { '2026-10-05': [{ user_id: 7001, user_login: 'Ann-GH', day: '2026-10-05', organization_id: 9001, team_id: 4201, slug: 'platform' }] };
    fake.copilot.seats = [
      { created_at: '2026-08-01T09:00:00Z', last_activity_at: '2026-10-05T10:00:00Z', assignee: { login: 'ann-gh', type: 'User' } },
      { created_at: '2026-08-01T09:00:00Z', last_activity_at: null, assignee: { login: 'stranger', type: 'User' } },
      { created_at: '2026-09-01T09:00:00Z', last_activity_at: null, assignee: { login: 'ghost', type: 'User' } },
    ];
    expect((await save(tenant, 'copilot', { org: 'acme', apiKey: fake.copilot.token, backfillDays: 40 })).status).to.equal(200);
    const result = await pull(tenant, 'copilot');
    expect(result).to.deep.include({ outcome: 'pulled' });
    expect((result as { details: Record<string, unknown> }).details.seats).to.deep.equal({ matched: 1, unmatched: 2, revoked: 0 });
    const row = await dayRow(tenant, 'copilot', '2026-10-05', 'login:ann-gh');
    expect({ login: row.person_login, sessions: row.sessions, requests: row.requests, added: Number(row.lines_added), suggested: Number(row.lines_suggested), accepted: row.edits_accepted, rejected: row.edits_rejected, input: Number(row.input_tokens), teams: row.details.githubTeams })
      .to.deep.equal({ login: 'ann-gh', sessions: 1, requests: 4, added: 30, suggested: 40, accepted: 6, rejected: 4, input: 500, teams: ['platform'] });
    // Both files of the day were read, without the token.
    const files = fake.seen.filter((s) => s.path.startsWith('/files/users-1-day/2026-10-05/'));
    expect(files.map((f) => [f.status, f.headers.authorization ?? null])).to.deep.equal([[200, null], [200, null]]);
    // Ann counts once with her Claude Code days; the stranger is a third user; the quiet one had no activity.
    expect(await activeUsers(tenant, '2026-10')).to.equal(3);
    expect(await activeUsers(tenant, '2026-10', 'alpha')).to.equal(1);
    const seat = (await q(`select tool, source, assigned_on::text, revoked_on, last_activity_at, external_login from seats where tenant_id = $1`, [tenant.tenantId])).rows;
    expect(seat).to.deep.equal([{ tool: 'copilot', source: 'copilot', assigned_on: '2026-08-01', revoked_on: null, last_activity_at: new Date('2026-10-05T10:00:00Z'), external_login: 'ann-gh' }]);
    // The test call on save, then the seat list's two pages, the second by the first's Link header.
    expect(fake.seen.filter((s) => s.path === '/orgs/acme/copilot/billing/seats').map((s) => `${s.query.per_page}:${s.query.page ?? '1'}`)).to.deep.equal(['1:1', '100:1', '2:2']);
  });

  it('reaches Copilot through the code-host application’s installation on the organisation when no token is saved', async () => {
    const fourth = await buildTenant(api.databaseUrl);
    const refused = await save(fourth, 'copilot', { org: 'acme' });
    expect([refused.status, refused.body.error?.details?.[0]?.path]).to.deep.equal([400, 'apiKey']);
    await q(`insert into codehost_installations (installation_id, tenant_id, account_login, account_type, linked_at) values (4242, $1, 'Acme', 'Organization', now())`, [fourth.tenantId]);
    const saved = await save(fourth, 'copilot', { org: 'acme', backfillDays: 40 });
    expect(saved.status, saved.text).to.equal(200);
    expect(saved.body.data).to.include({ keySet: false, org: 'acme' });
    const mark = fake.seen.length;
    expect((await pull(fourth, 'copilot')).outcome).to.equal('pulled');
    const calls = fake.seen.slice(mark);
    expect(calls.filter((s) => s.path === '/app/installations/4242/access_tokens').length).to.be.at.least(1);
    expect(calls.filter((s) => s.path.startsWith('/orgs/acme/')).every((s) => s.headers.authorization === `Bearer ${fake.copilot.token}`)).to.equal(true);
    expect((await dayRow(fourth, 'copilot', '2026-10-05', 'login:ann-gh')).requests).to.equal(4);
  });

  it('pulls Cursor’s daily usage in ranges of at most 30 days and AI Code Tracking’s commits by page; ai_commits counts a commit of ours with AI lines', async () => {
    const ann = shared.email('ann');
    fake.cursor.usage = [
      { date: ms('2026-10-05'), email: ann.toUpperCase(), isActive: true, totalLinesAdded: 50, totalLinesDeleted: 4, acceptedLinesAdded: 20, acceptedLinesDeleted: 2, totalApplies: 3, totalAccepts: 3, totalRejects: 1, totalTabsShown: 10, totalTabsAccepted: 4, composerRequests: 2, chatRequests: 1, agentRequests: 1, cmdkUsages: 0, mostUsedModel: 'gpt-5' },
      { date: ms('2026-10-09'), email: 'idle@example.com', isActive: false, totalLinesAdded: 0, acceptedLinesAdded: 0, totalAccepts: 0, totalRejects: 0, composerRequests: 0, chatRequests: 0, agentRequests: 0 },
    ];
    const project = (await q(`insert into projects (tenant_id, provider, project_key, source_type) values ($1, 'manual', 'acme/app', 'manual') returning id`, [tenant.tenantId])).rows[0].id;
    for (const sha of ['c0ffee01', 'c0ffee02']) await q(`insert into commits (tenant_id, project_id, sha, committed_at, message) values ($1, $2, $3, '2026-10-05T15:00:00Z', 'm')`, [tenant.tenantId, project, sha]);
    const commit = (sha: string, tab: number, composer: number) => ({ commitHash: sha.toUpperCase(), userId: 'user_abc', userEmail: ann, repoName: 'app', branchName: 'main', isPrimaryBranch: true, totalLinesAdded: tab + composer + 10, totalLinesDeleted: 1, tabLinesAdded: tab, tabLinesDeleted: 0, composerLinesAdded: composer, composerLinesDeleted: 0, nonAiLinesAdded: 10, nonAiLinesDeleted: 1, commitTs: '2026-10-05T15:00:00Z' });
    fake.cursor.commits = [commit('c0ffee01', 5, 15), commit('c0ffee02', 0, 0), commit('c0ffee03', 3, 0)];
    expect((await save(tenant, 'cursor', { apiKey: fake.cursor.key, backfillDays: 40 })).status).to.equal(200);
    sleeps = [];
    const mark = fake.seen.length;
    expect((await pull(tenant, 'cursor')).outcome).to.equal('pulled');
    const ranges = fake.seen.slice(mark).filter((s) => s.path === '/teams/daily-usage-data').map((s) => JSON.parse(s.body) as { startDate: number; endDate: number });
    expect(ranges.map((r) => [new Date(r.startDate).toISOString(), new Date(r.endDate).toISOString()])).to.deep.equal([
      ['2026-09-23T00:00:00.000Z', '2026-10-22T23:59:59.999Z'],
      ['2026-10-23T00:00:00.000Z', NOW.toISOString()],
    ]);
    expect(fake.seen.slice(mark).filter((s) => s.path === '/analytics/ai-code/commits').map((s) => s.query.page)).to.deep.equal(['1', '2']);
    // 20 requests a minute: the four calls were spaced (the recorded waits), never a wall-clock wait here.
    expect(sleeps.length).to.equal(3);
    const row = await dayRow(tenant, 'cursor', '2026-10-05', ann);
    expect({ requests: row.requests, added: Number(row.lines_added), suggested: Number(row.lines_suggested), accepted: row.edits_accepted, rejected: row.edits_rejected, model: row.details.mostUsedModel })
      .to.deep.equal({ requests: 4, added: 20, suggested: 50, accepted: 7, rejected: 7, model: 'gpt-5' });
    const commits = (await q(`select sha, repo, ai_lines_added, tab_lines_added, composer_lines_added, non_ai_lines_added, total_lines_added from ai_vendor_commits where tenant_id = $1 order by sha`, [tenant.tenantId])).rows;
    expect(commits.map((c) => [c.sha, c.ai_lines_added, c.non_ai_lines_added])).to.deep.equal([['c0ffee01', 20, 10], ['c0ffee02', 0, 10], ['c0ffee03', 3, 10]]);
    expect(await cube(tenant, 'ai_commits.ai_commits', 'ai_commits.committed_at', '2026-10')).to.equal(1);
    expect(await cube(tenant, 'ai_commits.ai_commits', 'ai_commits.committed_at', '2026-10', 'alpha')).to.equal(1);
    // The commit's list row names the source that linked it (docs/ai-measures.md).
    const listed = await api.as(tenant.owner.apiKey).get('/api/facts?measure=ai_commits.ai_commits&from=2026-10&to=2026-10');
    expect(listed.status, listed.text).to.equal(200);
    expect((listed.body.data as { sha: string; sources: string }[]).map((r) => [r.sha, r.sources])).to.deep.equal([['c0ffee01', 'cursor']]);
    expect(await activeUsers(tenant, '2026-10')).to.equal(3);

    // A plan without AI Code Tracking: said on the settings page, not an error.
    fake.cursor.commits = 'not on this plan';
    expect((await pull(tenant, 'cursor')).outcome).to.equal('pulled');
    const status = ((await api.as(tenant.owner.apiKey).get('/api/ai/vendors')).body.data as { source: string; notice: string | null; lastError: string | null }[]).find((s) => s.source === 'cursor')!;
    expect(status.lastError).to.equal(null);
    expect(status.notice).to.include('not available on this Cursor plan');
    expect(await cube(tenant, 'ai_commits.ai_commits', 'ai_commits.committed_at', '2026-10')).to.equal(1);
  });

  it('schedules: the hourly fan-out queues Cursor and the daily reports not pulled for 20 hours; a long Retry-After queues a continuation for then', async () => {
    const ctx = (name: string): JobContext => ({ app: api.running.app, job: { id: randomUUID(), name, retryCount: 0 }, signal: new AbortController().signal, instanceId: 'test', progress: async () => {} });
    const queued = async () => (await q(`select data, start_after from pgboss.job where name = 'ai-vendors.pull' and state = 'created' order by created_on`)).rows as { data: { tenantId: string; source: string }; start_after: Date }[];
    await q(`delete from pgboss.job where name = 'ai-vendors.pull'`);
    await q(`update ai_vendor_sources set last_success_at = now() - interval '21 hours' where tenant_id = $1 and source = 'copilot'`, [tenant.tenantId]);
    expect(await aiVendorsPullDue.run(ctx(aiVendorsPullDue.name), { schedule: 'ai-vendors.pull-due', windowStart: new Date().toISOString() })).to.deep.equal({ enqueued: 2 });
    expect((await queued()).map((j) => `${j.data.tenantId === tenant.tenantId ? 'A' : '?'}:${j.data.source}`).sort()).to.deep.equal(['A:copilot', 'A:cursor']);

    await q(`delete from pgboss.job where name = 'ai-vendors.pull'`);
    fake.once((s) => s.path === '/v1/organizations/usage_report/claude_code', 429, { 'retry-after': '3600' });
    const result = await aiVendorPull.run(ctx(aiVendorPull.name), { tenantId: tenant.tenantId, source: 'claude_code_analytics' });
    expect(result).to.deep.equal({ outcome: 'rate limited', retryAfterSeconds: 3600 });
    const [continuation] = await queued();
    expect(continuation!.data).to.deep.equal({ tenantId: tenant.tenantId, source: 'claude_code_analytics' });
    expect(continuation!.start_after.getTime() - Date.now()).to.be.within(3500_000, 3600_000);
  });
});
