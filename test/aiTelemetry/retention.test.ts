/**
 * Retention of the intake's raw state (docs/ai-telemetry.md "Retention"), AI_TELEMETRY_RETENTION_DAYS
 * = 30 here. Hand-worked:
 *   tenant A, old-1 (a@…): token.usage input 100 at 20 days ago; then the stored series is moved
 *     20 days back (as if 20 days had passed): its last point is 40 days old.
 *   tenant A, new-1 (a@…): token.usage input 7 now.    tenant B, b-1 (b@…): input 5 now.
 * → the job deletes A's one old series (1 of 3), keeps A's recent one and B's; sessions,
 *   person-days and the cube's ai_sessions / ai_active_users are the same before and after; the
 *   old export re-sent now (its point 40 days old) is refused, so nothing counts twice.
 */
import { expect } from 'chai';
import pg from 'pg';
import { aiTelemetryRetention, pruneSeries, retentionHorizonNs } from '../../src/aiTelemetry/jobs.js';
import type { JobContext } from '../../src/jobs/define.js';
import { asSystem } from '../../src/db/tenancy.js';
import { scheduleCatalog } from '../../src/jobCatalog.js';
import { buildTenant, dbFor, type BuiltTenant } from '../helpers/factories.js';
import { testServer, type TestServer } from '../helpers/server.js';

const DAY_NS = 86_400_000_000_000n;
const nowNs = () => BigInt(Date.now()) * 1_000_000n;
const metricsBody = (session: string, email: string, value: number, atNs: bigint) => JSON.stringify({ resourceMetrics: [{
  resource: { attributes: [{ key: 'service.name', value: { stringValue: 'claude-code' } }] },
  scopeMetrics: [{ metrics: [{ name: 'claude_code.token.usage', sum: { aggregationTemporality: 1, isMonotonic: true, dataPoints: [{
    startTimeUnixNano: String(atNs - 60_000_000_000n), timeUnixNano: String(atNs), asInt: String(value),
    attributes: [{ key: 'session.id', value: { stringValue: session } }, { key: 'user.email', value: { stringValue: email } }, { key: 'type', value: { stringValue: 'input' } }, { key: 'model', value: { stringValue: 'claude-sonnet-4-5' } }],
  }] } }] }],
}] });

describe('AI telemetry retention: raw series pruned, measures kept', function () {
  this.timeout(120_000);
  let api: TestServer;
  let a: BuiltTenant;
  let b: BuiltTenant;
  let pool: pg.Pool;

  const send = async (key: string, body: string) => {
    const res = await fetch(`${api.baseUrl}/api/otlp/v1/metrics`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body });
    return { status: res.status, body: await res.json() as Record<string, unknown> };
  };
  const series = async (tenantId: string) => Number((await pool.query('select count(*) from ai_telemetry_series where tenant_id = $1', [tenantId])).rows[0].count);
  const aggregates = async (tenantId: string) => ({
    sessions: (await pool.query(`select telemetry_id, person_email, input_tokens::int, started_at, ended_at from ai_sessions where tenant_id = $1 order by telemetry_id`, [tenantId])).rows,
    days: (await pool.query(`select person_key, day::text, input_tokens::int, sessions from ai_telemetry_days where tenant_id = $1 order by day, person_key`, [tenantId])).rows,
  });
  const measures = async (tenant: BuiltTenant, month: string) => {
    const [y, m] = month.split('-').map(Number) as [number, number];
    const res = await api.as(tenant.owner.apiKey).post('/cubejs-api/v1/load', { query: {
      measures: ['ai_sessions.ai_sessions', 'ai_sessions.ai_active_users'],
      timeDimensions: [{ dimension: 'ai_sessions.started_at', dateRange: [`${month}-01`, new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10)] }],
    } });
    expect(res.status, res.text).to.equal(200);
    return res.body.data[0] as Record<string, string>;
  };
  const run = () => {
    const ctx: JobContext = { app: api.running.app, job: { id: '00000000-0000-0000-0000-000000000000', name: aiTelemetryRetention.name, retryCount: 0 }, signal: new AbortController().signal, instanceId: 'test', progress: async () => {} };
    // As the worker runs a job without a tenant (src/jobs/runner.ts).
    return asSystem('maintenance', () => aiTelemetryRetention.run(ctx, { schedule: 'ai-telemetry.retention', windowStart: new Date().toISOString() }));
  };

  before(async () => {
    api = await testServer({ env: { AI_TELEMETRY_RETENTION_DAYS: '30' } });
    a = await buildTenant(api.databaseUrl);
    b = await buildTenant(api.databaseUrl);
    pool = dbFor(api.databaseUrl).pool;
  });

  after(async () => {
    await api.close();
  });

  it('is scheduled nightly and deletes only series whose last point is older than the retention, keeping every measure', async () => {
    expect(scheduleCatalog.find((s) => s.job === 'ai-telemetry.retention')?.everySeconds).to.equal(86_400);
    const twentyDaysAgo = nowNs() - 20n * DAY_NS;
    expect((await send(a.owner.apiKey, metricsBody('old-1', 'a@example.com', 100, twentyDaysAgo))).status).to.equal(200);
    expect((await send(a.owner.apiKey, metricsBody('new-1', 'a@example.com', 7, nowNs()))).status).to.equal(200);
    expect((await send(b.owner.apiKey, metricsBody('b-1', 'b@example.com', 5, nowNs()))).status).to.equal(200);
    // As if 20 more days had passed: the old series' last point is now 40 days old.
    await pool.query(`update ai_telemetry_series set time_ns = time_ns - $2::bigint, start_ns = start_ns - $2::bigint where tenant_id = $1 and time_ns < $3::bigint`,
      [a.tenantId, String(20n * DAY_NS), String(nowNs() - DAY_NS)]);
    expect([await series(a.tenantId), await series(b.tenantId)]).to.deep.equal([2, 1]);

    const oldMonth = new Date(Number(twentyDaysAgo / 1_000_000n)).toISOString().slice(0, 7);
    const thisMonth = new Date().toISOString().slice(0, 7);
    const before = { a: await aggregates(a.tenantId), b: await aggregates(b.tenantId), old: await measures(a, oldMonth), now: await measures(a, thisMonth), bNow: await measures(b, thisMonth) };
    expect(before.a.sessions.map((s: { telemetry_id: string; input_tokens: number }) => [s.telemetry_id, s.input_tokens])).to.deep.equal([['new-1', 7], ['old-1', 100]]);

    // One series per statement: three pages of one, and the empty one that ends the walk.
    const onePerBatch = await asSystem('maintenance', () => pruneSeries(api.running.app.database.pool, retentionHorizonNs(30), new AbortController().signal, 1));
    expect(onePerBatch).to.deep.equal({ deleted: 1, batches: 4 });
    expect([await series(a.tenantId), await series(b.tenantId)]).to.deep.equal([1, 1]);
    expect(await run()).to.deep.equal({ deleted: 0, batches: 1 });

    const after = { a: await aggregates(a.tenantId), b: await aggregates(b.tenantId), old: await measures(a, oldMonth), now: await measures(a, thisMonth), bNow: await measures(b, thisMonth) };
    expect(after).to.deep.equal(before);
  });

  it('refuses a point older than the retention, so a pruned series never counts twice', async () => {
    const fortyDaysAgo = nowNs() - 40n * DAY_NS;
    const before = await aggregates(a.tenantId);
    const res = await send(a.owner.apiKey, metricsBody('old-1', 'a@example.com', 100, fortyDaysAgo));
    expect(res).to.deep.equal({ status: 200, body: { partialSuccess: { rejectedDataPoints: 1, errorMessage: 'claude_code.token.usage: a data point older than the retention of the intake' } } });
    expect(await aggregates(a.tenantId)).to.deep.equal(before);
    expect(await series(a.tenantId)).to.equal(1);
  });
});
