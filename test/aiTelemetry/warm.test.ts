/**
 * Issue 45, the bench's tail (docs/benchmarks/2026-11-29-telemetry-tail.md): a new PostgreSQL
 * backend's first intake statement costs ≈70 ms of its CPU (caches, row-level policies, the
 * rollup-mark triggers' PL/pgSQL, planning), paid by whichever export comes first on it. A server
 * (AI_TELEMETRY_WARM_CONNECTIONS) opens its pool's connections (DATABASE_POOL_SIZE, 6 here: not the
 * default 10 nor the tests' 3) before its port opens, runs the intake's two statements on each on
 * no rows (rolled back), and keeps them. Checked: six connections, each with exactly the two statements prepared, nothing written; then a metrics
 * export and a log batch of one developer (the real SDK exporters) count once and run those same
 * two statements (no third statement text: the warm-up prepared what exports run).
 */
import { expect } from 'chai';
import pg from 'pg';
import { buildTenant, dbFor, type BuiltTenant } from '../helpers/factories.js';
import { testServer, type TestServer } from '../helpers/server.js';
import { eventLogger, logExporter, meter, metricExporter, succeeded } from './sdk.js';

describe('AI telemetry: the server warms its connections for the intake before taking exports', function () {
  this.timeout(180_000);
  let api: TestServer;
  let tenant: BuiltTenant;
  let pool: pg.Pool;

  /** The OTLP statements prepared on each of the server's pooled connections (names, sorted). */
  const preparedOnEach = async (): Promise<string[][]> => {
    const serverPool = api.running.app.database.pool;
    const clients = await Promise.all(Array.from({ length: serverPool.totalCount }, () => serverPool.connect()));
    try {
      return await Promise.all(clients.map(async (c) => (await c.query<{ name: string }>(`select name from pg_prepared_statements where name like 'otlp-%' order by name`)).rows.map((r) => r.name)));
    } finally {
      for (const c of clients) c.release();
    }
  };

  before(async () => {
    api = await testServer({ env: { AI_TELEMETRY_WARM_CONNECTIONS: 'true', DATABASE_POOL_SIZE: '6' } });
    tenant = await buildTenant(api.databaseUrl);
    pool = dbFor(api.databaseUrl).pool;
  });

  after(async () => {
    await api.close();
  });

  it('opens DATABASE_POOL_SIZE connections with the metrics and the logs statement prepared on each, and writes nothing', async () => {
    expect(api.running.app.database.pool.totalCount).to.equal(6);
    expect(api.running.app.database.pool.options.max).to.equal(6);
    const prepared = await preparedOnEach();
    expect(prepared).to.have.length(6);
    for (const names of prepared) expect(names).to.deep.equal(prepared[0]).and.to.have.length(2);
    const { rows: [written] } = await pool.query(`select (select count(*) from ai_sessions)::int as sessions, (select count(*) from ai_telemetry_days)::int as days,
      (select count(*) from ai_telemetry_series)::int as series, (select count(*) from ai_telemetry_intake)::int as tally`);
    expect(written).to.deep.equal({ sessions: 0, days: 0, series: 0, tally: 0 });
  });

  it('counts a metrics export and a log batch once, through the statements it prepared', async () => {
    const warmed = (await preparedOnEach())[0];
    const who = { 'session.id': 'warm-1', 'user.email': 'warm@example.com', 'user.account_uuid': 'acct-warm', 'organization.id': 'org-1' };
    const sdk = meter('delta');
    sdk.meter.createCounter('claude_code.token.usage').add(70, { ...who, type: 'input', model: 'claude-sonnet-4-5' });
    const metrics = metricExporter({ baseUrl: api.baseUrl, apiKey: tenant.owner.apiKey, protocol: 'http/protobuf' });
    const events = eventLogger();
    events.emit('claude_code.api_request', { ...who, 'event.sequence': 1, model: 'claude-sonnet-4-5', input_tokens: 5, output_tokens: 1 });
    events.emit('claude_code.user_prompt', { ...who, 'event.sequence': 2, 'prompt.id': 'p-1', prompt_length: 12 });
    const logs = logExporter({ baseUrl: api.baseUrl, apiKey: tenant.owner.apiKey, protocol: 'http/protobuf' });
    const [metricsSent, logsSent] = await Promise.all([metrics.export(await sdk.collect()), logs.export(await events.take())]);
    expect(succeeded(metricsSent) && succeeded(logsSent)).to.equal(true);
    const { rows } = await pool.query(`select input_tokens, prompt_count, api_request_count from ai_sessions where tenant_id = $1 and telemetry_id = 'warm-1'`, [tenant.tenantId]);
    expect(rows).to.deep.equal([{ input_tokens: 70, prompt_count: 1, api_request_count: 1 }]);
    const { rows: days } = await pool.query(`select input_tokens, prompts, api_requests from ai_telemetry_days where tenant_id = $1`, [tenant.tenantId]);
    expect(days).to.deep.equal([{ input_tokens: 70, prompts: 1, api_requests: 1 }]);
    expect([...new Set((await preparedOnEach()).flat())].sort()).to.deep.equal(warmed);
    await sdk.shutdown();
    await events.shutdown();
  });
});
