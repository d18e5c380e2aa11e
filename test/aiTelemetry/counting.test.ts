/**
 * Issue 45: Claude Code's and Codex's OpenTelemetry, sent by the real OpenTelemetry JS SDK
 * exporters, becomes AI sessions and person-days, counted once however often an export is re-sent,
 * and the ai_sessions cube counts them (docs/ai-telemetry.md).
 *
 * Hand-worked, for Ann (register: team alpha, e-mail ann-<tag>@example.com), one Claude Code
 * session `cc-1`, all today (UTC):
 *   delta meter (http/protobuf, gzip): token.usage input 100 + output 40, lines added 12, removed 3;
 *     exported twice (the SDK's retry) → counted once; then input 50 more → input 150.
 *   cumulative meter (http/json): session.count 1, edit decisions accept 2 + reject 1, active time
 *     30.5 s; collected twice (same values, later time) → +0; then accept 1 more (cumulative 3) → +1;
 *     then the first batch re-sent late → +0. Also claude_code.cost.usage (money: not stored) and
 *     an unknown metric (ignored, counted).
 *   events (http/protobuf, the batch exported twice): user_prompt (with the prompt text, never
 *     stored), api_request, tool_result of a Bash `git commit` naming 1a2b3c4d, tool_decision, and
 *     an unknown event.
 * → session cc-1: tokens 150/40, lines 12/3, edits 3/1, active 30.5, prompts 1, requests 1, tool
 *   calls 1, commit 1a2b3c4d; Ann's day: sessions 1, the same counters.
 * → cube, Ann's month, team alpha: ai_sessions 1, ai_active_users 1; after Ann also uploads a
 *   session the same day: ai_sessions 2, ai_active_users 1 (one person-day, two sources).
 */
import { expect } from 'chai';
import pg from 'pg';
import { buildTenant, dbFor, type BuiltTenant } from '../helpers/factories.js';
import { testServer, type TestServer } from '../helpers/server.js';
import { annBoAndCy, type AnnBoCy } from '../facts/helpers.js';
import { codexResource, eventLogger, logExporter, meter, metricExporter, succeeded } from './sdk.js';

const PROMPT_TEXT = 'please-refactor-the-zebra-module-7f3c9d';

describe('AI telemetry: the tools’ OpenTelemetry counted into sessions, person-days and the cube', function () {
  this.timeout(180_000);
  let api: TestServer;
  let tenant: BuiltTenant;
  let other: BuiltTenant;
  let shared: AnnBoCy;
  let pool: pg.Pool;
  let ann: string;

  const claudeAttrs = () => ({ 'session.id': 'cc-1', 'user.email': ann.toUpperCase(), 'user.account_uuid': 'acct-ann', 'organization.id': 'org-1', 'app.version': '2.0.14', 'terminal.type': 'vscode' });

  const session = async (tenantId: string, telemetryId: string) =>
    (await pool.query(`select * from ai_sessions where tenant_id = $1 and telemetry_id = $2`, [tenantId, telemetryId])).rows[0];

  const cube = async (key: string, measures: string[], month: string, team?: string) => {
    const [y, m] = month.split('-').map(Number) as [number, number];
    const last = new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
    const res = await api.as(key).post('/cubejs-api/v1/load', {
      query: {
        measures,
        timeDimensions: [{ dimension: 'ai_sessions.started_at', dateRange: [`${month}-01`, last] }],
        ...(team ? { filters: [{ member: 'teams.slug', operator: 'equals', values: [team] }] } : {}),
      },
    });
    expect(res.status, res.text).to.equal(200);
    return res.body.data[0] as Record<string, string>;
  };

  before(async () => {
    api = await testServer();
    tenant = await buildTenant(api.databaseUrl);
    other = await buildTenant(api.databaseUrl);
    shared = await annBoAndCy(api, tenant);
    ann = shared.email('ann');
    pool = dbFor(api.databaseUrl).pool;
  });

  after(async () => {
    await api.close();
  });

  it('counts a delta counter once when its batch is exported twice, and its next interval after', async () => {
    const sdk = meter('delta');
    const exporter = metricExporter({ baseUrl: api.baseUrl, apiKey: tenant.owner.apiKey, protocol: 'http/protobuf', gzip: true });
    const tokens = sdk.meter.createCounter('claude_code.token.usage', { unit: 'tokens' });
    const lines = sdk.meter.createCounter('claude_code.lines_of_code.count');
    tokens.add(100, { ...claudeAttrs(), type: 'input', model: 'claude-sonnet-4-5' });
    tokens.add(40, { ...claudeAttrs(), type: 'output', model: 'claude-sonnet-4-5' });
    lines.add(12, { ...claudeAttrs(), type: 'added' });
    lines.add(3, { ...claudeAttrs(), type: 'removed' });
    const first = await sdk.collect();
    expect(succeeded(await exporter.export(first))).to.equal(true);
    expect(succeeded(await exporter.export(first))).to.equal(true);

    let row = await session(tenant.tenantId, 'cc-1');
    expect({ source: row.source, tool: row.tool, model: row.model, userId: row.user_id, email: row.person_email, input: Number(row.input_tokens), output: Number(row.output_tokens), added: Number(row.lines_added), removed: Number(row.lines_removed) })
      .to.deep.equal({ source: 'telemetry', tool: 'claude-code', model: 'claude-sonnet-4-5', userId: null, email: ann, input: 100, output: 40, added: 12, removed: 3 });

    tokens.add(50, { ...claudeAttrs(), type: 'input', model: 'claude-sonnet-4-5' });
    expect(succeeded(await exporter.export(await sdk.collect()))).to.equal(true);
    row = await session(tenant.tenantId, 'cc-1');
    expect([Number(row.input_tokens), Number(row.output_tokens)]).to.deep.equal([150, 40]);
    await exporter.shutdown();
    await sdk.shutdown();
  });

  it('turns a cumulative counter into increments: an unchanged or late re-sent value adds nothing', async () => {
    const sdk = meter('cumulative');
    const exporter = metricExporter({ baseUrl: api.baseUrl, apiKey: tenant.owner.apiKey, protocol: 'http/json' });
    const sessions = sdk.meter.createCounter('claude_code.session.count');
    const decisions = sdk.meter.createCounter('claude_code.code_edit_tool.decision');
    const active = sdk.meter.createCounter('claude_code.active_time.total', { unit: 's' });
    const cost = sdk.meter.createCounter('claude_code.cost.usage', { unit: 'USD' });
    const unknown = sdk.meter.createCounter('claude_code.brand_new.count');
    sessions.add(1, claudeAttrs());
    decisions.add(2, { ...claudeAttrs(), decision: 'accept', tool: 'Edit', language: 'TypeScript' });
    decisions.add(1, { ...claudeAttrs(), decision: 'reject', tool: 'Edit', language: 'TypeScript' });
    active.add(30.5, claudeAttrs());
    cost.add(0.42, { ...claudeAttrs(), model: 'claude-sonnet-4-5' });
    unknown.add(7, claudeAttrs());
    const first = await sdk.collect();
    expect(succeeded(await exporter.export(first))).to.equal(true);
    expect(succeeded(await exporter.export(await sdk.collect()))).to.equal(true);
    decisions.add(1, { ...claudeAttrs(), decision: 'accept', tool: 'Edit', language: 'TypeScript' });
    expect(succeeded(await exporter.export(await sdk.collect()))).to.equal(true);
    expect(succeeded(await exporter.export(first))).to.equal(true);

    const row = await session(tenant.tenantId, 'cc-1');
    expect({ accepted: row.edits_accepted, rejected: row.edits_rejected, active: row.active_seconds, input: Number(row.input_tokens) })
      .to.deep.equal({ accepted: 3, rejected: 1, active: 30.5, input: 150 });
    const day = (await pool.query(`select * from ai_telemetry_days where tenant_id = $1 and person_email = $2`, [tenant.tenantId, ann])).rows;
    expect(day).to.have.length(1);
    expect({ tool: day[0].tool, sessions: day[0].sessions, accepted: day[0].edits_accepted, input: Number(day[0].input_tokens), added: Number(day[0].lines_added) })
      .to.deep.equal({ tool: 'claude-code', sessions: 1, accepted: 3, input: 150, added: 12 });

    const status = await api.as(tenant.owner.apiKey).get('/api/ai-telemetry/status');
    expect(status.status, status.text).to.equal(200);
    const byName = Object.fromEntries((status.body.data.names as { signal: string; name: string; accepted: number; ignored: number }[])
      .map((n) => [`${n.signal}:${n.name}`, [n.accepted, n.ignored]]));
    // Four exports of the cumulative meter: each carries every series again.
    expect(byName['metrics:claude_code.brand_new.count']).to.deep.equal([0, 4]);
    expect(byName['metrics:claude_code.cost.usage']).to.deep.equal([4, 0]);
    expect(byName['metrics:claude_code.session.count']).to.deep.equal([4, 0]);
    await exporter.shutdown();
    await sdk.shutdown();
  });

  it('reads the events of a re-sent log batch once, keeps a git commit, and never stores the prompt text', async () => {
    const events = eventLogger();
    const exporter = logExporter({ baseUrl: api.baseUrl, apiKey: tenant.owner.apiKey, protocol: 'http/protobuf' });
    const at = (n: number) => new Date(Date.now() - 60_000 + n * 1000);
    events.emit('claude_code.user_prompt', { ...claudeAttrs(), 'event.sequence': 1, 'prompt.id': 'p-1', prompt_length: PROMPT_TEXT.length, prompt: PROMPT_TEXT }, at(1));
    events.emit('claude_code.api_request', { ...claudeAttrs(), 'event.sequence': 2, model: 'claude-sonnet-4-5', cost_usd: 0.12, duration_ms: 2100, input_tokens: 900, output_tokens: 80, cache_read_tokens: 10, cache_creation_tokens: 5 }, at(2));
    events.emit('claude_code.tool_result', {
      ...claudeAttrs(), 'event.sequence': 3, tool_name: 'Bash', success: 'true', duration_ms: 300,
      tool_parameters: JSON.stringify({ bash_command: 'git', full_command: 'git commit -m "Zebra"', output: '[main 1a2b3c4d] Zebra\n 1 file changed' }),
    }, at(3));
    events.emit('claude_code.tool_decision', { ...claudeAttrs(), 'event.sequence': 4, tool_name: 'Edit', decision: 'accept', source: 'config' }, at(4));
    events.emit('claude_code.hook_ran', { ...claudeAttrs(), 'event.sequence': 5 }, at(5));
    const batch = await events.take();
    expect(batch).to.have.length(5);
    expect(succeeded(await exporter.export(batch))).to.equal(true);
    expect(succeeded(await exporter.export(batch))).to.equal(true);

    const row = await session(tenant.tenantId, 'cc-1');
    expect({ prompts: row.prompt_count, requests: row.api_request_count, toolCalls: row.tool_call_count, shas: row.commit_shas, input: Number(row.input_tokens) })
      .to.deep.equal({ prompts: 1, requests: 1, toolCalls: 1, shas: ['1a2b3c4d'], input: 150 });
    const shas = await pool.query(`select sha from ai_session_shas where session_id = $1`, [row.id]);
    expect(shas.rows).to.deep.equal([{ sha: '1a2b3c4d' }]);
    const day = (await pool.query(`select prompts, api_requests, tool_calls from ai_telemetry_days where tenant_id = $1 and person_email = $2`, [tenant.tenantId, ann])).rows;
    expect(day).to.deep.equal([{ prompts: 1, api_requests: 1, tool_calls: 1 }]);

    // Every table of the database, every row as text: the prompt is nowhere.
    const tables = await pool.query<{ name: string }>(`select format('%I.%I', schemaname, tablename) as name from pg_tables where schemaname in ('public')`);
    const holding: string[] = [];
    for (const { name } of tables.rows) {
      const hit = await pool.query(`select 1 from ${name} t where t::text like $1 limit 1`, [`%${PROMPT_TEXT}%`]);
      if (hit.rowCount) holding.push(name);
    }
    expect(holding).to.deep.equal([]);
    await exporter.shutdown();
    await events.shutdown();
  });

  it('counts the session and the person in the cube, one person-day whatever its sources', async () => {
    const row = await session(tenant.tenantId, 'cc-1');
    const month = (row.started_at as Date).toISOString().slice(0, 7);
    const measures = ['ai_sessions.ai_sessions', 'ai_sessions.ai_active_users'];
    expect(await cube(tenant.owner.apiKey, measures, month, 'alpha')).to.deep.equal({ 'ai_sessions.ai_sessions': '1', 'ai_sessions.ai_active_users': '1' });
    expect(await cube(tenant.owner.apiKey, measures, month, 'beta')).to.deep.equal({ 'ai_sessions.ai_sessions': '0', 'ai_sessions.ai_active_users': '0' });

    const startedAt = (row.started_at as Date).toISOString();
    const upload = await api.as(shared.users.ann!.apiKey).post('/api/sessions', { tool: 'cursor', startedAt, endedAt: startedAt });
    expect(upload.status, upload.text).to.equal(201);
    expect(await cube(tenant.owner.apiKey, measures, month, 'alpha')).to.deep.equal({ 'ai_sessions.ai_sessions': '2', 'ai_sessions.ai_active_users': '1' });

    const baseline = await api.as(tenant.owner.apiKey).get(`/api/exports/team-baseline?from=${month}&to=${month}&format=json`);
    expect(baseline.status, baseline.text).to.equal(200);
    const alpha = (baseline.body.rows as Record<string, unknown>[]).find((r) => r.team_slug === 'alpha')!;
    expect([alpha.ai_sessions, alpha.ai_active_users]).to.deep.equal([2, 1]);

    const drill = await api.as(tenant.owner.apiKey).get(`/api/facts?measure=ai_sessions.ai_sessions&from=${month}&to=${month}&team=alpha`);
    expect(drill.status, drill.text).to.equal(200);
    expect((drill.body.data as { source: string; tool: string }[]).map((r) => [r.source, r.tool]).sort()).to.deep.equal([['telemetry', 'claude-code'], ['upload', 'cursor']]);
  });

  it('keeps Codex conversations apart, its tokens from response.completed (http/json)', async () => {
    const events = eventLogger(codexResource);
    const exporter = logExporter({ baseUrl: api.baseUrl, apiKey: tenant.owner.apiKey, protocol: 'http/json' });
    const attrs = { 'conversation.id': 'cx-1', 'user.email': ann, 'user.account_id': 'acct-cx', model: 'gpt-5-codex', 'app.version': '0.44.0' };
    events.emit('codex.conversation_starts', { ...attrs, provider_name: 'openai' });
    events.emit('codex.user_prompt', { ...attrs, prompt_length: 12, prompt: PROMPT_TEXT });
    events.emit('codex.api_request', { ...attrs, attempt: 1, duration_ms: 900, 'http.response.status_code': 200 });
    events.emit('codex.sse_event', { ...attrs, 'event.kind': 'response.completed', input_token_count: 300, output_token_count: 25, cached_token_count: 100 });
    events.emit('codex.sse_event', { ...attrs, 'event.kind': 'response.output_text.delta' });
    events.emit('codex.tool_decision', { ...attrs, tool_name: 'shell', call_id: 'c1', decision: 'approved', source: 'user' });
    events.emit('codex.tool_result', { ...attrs, tool_name: 'shell', call_id: 'c1', arguments: '{"command":["git","commit","-m","x"]}', success: 'true', output: '[feature 9f8e7d6c5b] x' });
    expect(succeeded(await exporter.export(await events.take()))).to.equal(true);

    const row = await session(tenant.tenantId, 'cx-1');
    expect({ tool: row.tool, model: row.model, input: Number(row.input_tokens), output: Number(row.output_tokens), cacheRead: Number(row.cache_read_tokens), prompts: row.prompt_count, requests: row.api_request_count, accepted: row.edits_accepted, toolCalls: row.tool_call_count, shas: row.commit_shas })
      .to.deep.equal({ tool: 'codex', model: 'gpt-5-codex', input: 300, output: 25, cacheRead: 100, prompts: 1, requests: 1, accepted: 1, toolCalls: 1, shas: ['9f8e7d6c5b'] });
    const day = (await pool.query(`select sessions from ai_telemetry_days where tenant_id = $1 and person_email = $2 and tool = 'codex'`, [tenant.tenantId, ann])).rows;
    expect(day).to.deep.equal([{ sessions: 1 }]);
    await exporter.shutdown();
    await events.shutdown();
  });

  it('counts concurrent exports exactly, each batch once, when they share statements', async () => {
    const batch = (n: number) => JSON.stringify({ resourceLogs: [{ resource: { attributes: [{ key: 'service.name', value: { stringValue: 'claude-code' } }] }, scopeLogs: [{ logRecords: [
      { timeUnixNano: `${BigInt(Date.now()) * 1_000_000n + BigInt(n)}`, body: { stringValue: 'claude_code.user_prompt' }, attributes: [
        { key: 'session.id', value: { stringValue: `burst-${n}` } }, { key: 'user.email', value: { stringValue: `burst-${n % 3}@example.com` } },
        { key: 'event.sequence', value: { intValue: 1 } }, { key: 'prompt_length', value: { intValue: 9 } }] },
    ] }] }] });
    const bodies = Array.from({ length: 15 }, (_, n) => batch(n));
    // Every batch twice, all at once: the copies meet in one round or follow one another.
    const answers = await Promise.all([...bodies, ...bodies].map((body) => fetch(`${api.baseUrl}/api/otlp/v1/logs`, {
      method: 'POST', headers: { authorization: `Bearer ${tenant.owner.apiKey}`, 'content-type': 'application/json' }, body,
    }).then((r) => r.status)));
    expect(answers).to.deep.equal(Array(30).fill(200));
    const rows = await pool.query(`select telemetry_id, prompt_count from ai_sessions where tenant_id = $1 and telemetry_id like 'burst-%' order by telemetry_id`, [tenant.tenantId]);
    expect(rows.rows).to.have.length(15);
    expect(rows.rows.every((r) => r.prompt_count === 1)).to.equal(true);
    const days = await pool.query(`select person_email, prompts from ai_telemetry_days where tenant_id = $1 and person_email like 'burst-%' order by person_email`, [tenant.tenantId]);
    expect(days.rows).to.deep.equal([0, 1, 2].map((k) => ({ person_email: `burst-${k}@example.com`, prompts: 5 })));
  });

  it('writes a tenant-B key’s telemetry into B only; B’s cube shows none of A’s', async () => {
    const sdk = meter('delta');
    const exporter = metricExporter({ baseUrl: api.baseUrl, apiKey: other.owner.apiKey, protocol: 'http/protobuf' });
    sdk.meter.createCounter('claude_code.token.usage').add(7, { ...claudeAttrs(), type: 'input', model: 'm' });
    expect(succeeded(await exporter.export(await sdk.collect()))).to.equal(true);

    expect(Number((await session(tenant.tenantId, 'cc-1')).input_tokens)).to.equal(150);
    const mine = await session(other.tenantId, 'cc-1');
    expect(Number(mine.input_tokens)).to.equal(7);
    const month = (mine.started_at as Date).toISOString().slice(0, 7);
    expect(await cube(other.owner.apiKey, ['ai_sessions.ai_sessions', 'ai_sessions.ai_active_users'], month))
      .to.deep.equal({ 'ai_sessions.ai_sessions': '1', 'ai_sessions.ai_active_users': '1' });
    const status = await api.as(other.owner.apiKey).get('/api/ai-telemetry/status');
    expect((status.body.data.names as { name: string }[]).map((n) => n.name)).to.deep.equal(['claude_code.token.usage']);
    await exporter.shutdown();
    await sdk.shutdown();
  });
});
