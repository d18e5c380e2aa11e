/**
 * `npx tsx bench/coldStart.ts`: what the first exports cost (docs/benchmarks/2026-11-29-telemetry-tail.md).
 * In one process, on a migrated embedded PostgreSQL: a metrics export and a log batch through the
 * intake's own functions (ingestMetrics, ingestLogs), each timed, (1) the very first (cold code,
 * cold connection), (2) again on the same connection, (3) on a NEW connection (warm code, the
 * backend's caches and the statements' plans cold), (4) again. Wall time and PostgreSQL's CPU
 * (ms) of each, the median of ROUNDS new connections for (3) and (4); (5) a new connection warmed
 * by warmIntake (what a server does before its port opens), then an export of each kind.
 */
import protobuf from 'protobufjs';
import { OTLP_DESCRIPTOR } from '../src/aiTelemetry/otlpDescriptor.js';
import { ingestLogs, ingestMetrics, warmIntake } from '../src/aiTelemetry/service.js';
import { openDatabase } from '../src/db/client.js';
import { withTenant } from '../src/db/tenancy.js';
import { createTenant } from '../src/tenants/service.js';
import { migrate, serverEnv, startDatabase } from './support.js';

const ROUNDS = Number(process.env.ROUNDS ?? 7);
const root = protobuf.Root.fromJSON(OTLP_DESCRIPTOR as unknown as protobuf.INamespace);
const Logs = root.lookupType('opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest');
const Metrics = root.lookupType('opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest');
const str = (key: string, value: string) => ({ key, value: { stringValue: value } });
const int = (key: string, value: number) => ({ key, value: { intValue: value } });
const who = (d: number) => [str('session.id', `s-${d}`), str('user.email', `dev${d}@bench.example`)];

let n = 0;
const metrics = (d: number) => {
  const t = BigInt(Date.now()) * 1_000_000n + BigInt((n += 1));
  const point = (v: number, a: object[]) => ({ startTimeUnixNano: String(t - 60_000_000_000n), timeUnixNano: String(t), asInt: String(v), attributes: [...who(d), ...a] });
  return Metrics.decode(Metrics.encode(Metrics.fromObject({ resourceMetrics: [{ resource: { attributes: [str('service.name', 'claude-code')] }, scopeMetrics: [{ metrics: [
    { name: 'claude_code.token.usage', sum: { aggregationTemporality: 1, isMonotonic: true, dataPoints: ['input', 'output'].map((type) => point(100, [str('type', type), str('model', 'm')])) } },
    { name: 'claude_code.lines_of_code.count', sum: { aggregationTemporality: 1, isMonotonic: true, dataPoints: [point(4, [str('type', 'added')])] } },
  ] }] }] })).finish());
};
const logs = (d: number) => {
  const t = BigInt(Date.now()) * 1_000_000n + BigInt((n += 1));
  const event = (name: string, attrs: object[]) => ({ timeUnixNano: String(t), body: { stringValue: `claude_code.${name}` }, attributes: [...who(d), str('event.name', name), int('event.sequence', n), ...attrs] });
  return Logs.decode(Logs.encode(Logs.fromObject({ resourceLogs: [{ resource: { attributes: [str('service.name', 'claude-code')] }, scopeLogs: [{ logRecords: [
    event('api_request', [str('model', 'm'), int('input_tokens', 10), int('output_tokens', 3)]), event('user_prompt', [int('prompt_length', 5)]),
  ] }] }] })).finish());
};

const database = await startDatabase();
try {
  const env = serverEnv(database.url);
  await migrate(env);
  const setup = openDatabase(database.url, { max: 1, unscoped: 'test-fixture' });
  const { tenantId, userId } = await createTenant(setup.db, { name: 'Cold', ownerEmail: 'cold@bench.example', apiKey: false });
  await setup.close();
  const principal = { kind: 'api_key' as const, tenantId, userId, role: 'owner' as const, permissions: new Set<string>(), apiKeyId: 'x' };
  const time = async (app: object, kind: 'metrics' | 'logs', d: number) => {
    const body = kind === 'metrics' ? metrics(d) : logs(d);
    const db0 = database.cpuTicks();
    const t0 = performance.now();
    await withTenant(tenantId, () => (kind === 'metrics' ? ingestMetrics(app as never, principal as never, body as never) : ingestLogs(app as never, principal as never, body as never)));
    return { ms: performance.now() - t0, dbMs: (database.cpuTicks() - db0) * 10 };
  };
  const appOn = () => {
    const db = openDatabase(database.url, { max: 1 });
    return { db, app: { database: db, config: { aiTelemetry: { retentionDays: 400 } }, log: { error() {}, warn() {}, info() {} } } };
  };
  const show = (label: string, r: { ms: number; dbMs: number }[]) => {
    const med = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    process.stdout.write(`${label.padEnd(58)} ${med(r.map((x) => x.ms)).toFixed(1).padStart(7)} ms wall, ${med(r.map((x) => x.dbMs)).toFixed(0).padStart(4)} ms PostgreSQL CPU${r.length > 1 ? ` (median of ${r.length})` : ''}\n`);
  };
  const first = appOn();
  await first.db.pool.query('select 1'); // the connection itself apart
  show('1. metrics export: first in the process, first on its connection', [await time(first.app, 'metrics', 1)]);
  show('   log batch: first in the process, 2nd statement on the connection', [await time(first.app, 'logs', 1)]);
  show('2. metrics export: again on that connection', [await time(first.app, 'metrics', 2)]);
  show('   log batch: again on that connection', [await time(first.app, 'logs', 2)]);
  await first.db.close();
  const cold: Record<string, { ms: number; dbMs: number }[]> = { m3: [], l3: [], m4: [], l4: [], w: [], m5: [], l5: [] };
  for (let r = 0; r < ROUNDS; r += 1) {
    const fresh = appOn();
    await fresh.db.pool.query('select 1');
    cold.m3!.push(await time(fresh.app, 'metrics', 10 + r));
    cold.l3!.push(await time(fresh.app, 'logs', 10 + r));
    cold.m4!.push(await time(fresh.app, 'metrics', 20 + r));
    cold.l4!.push(await time(fresh.app, 'logs', 20 + r));
    await fresh.db.close();
    const warmed = appOn();
    await warmed.db.pool.query('select 1');
    const db0 = database.cpuTicks();
    const t0 = performance.now();
    await warmIntake(warmed.app as never, 1);
    cold.w!.push({ ms: performance.now() - t0, dbMs: (database.cpuTicks() - db0) * 10 });
    cold.m5!.push(await time(warmed.app, 'metrics', 30 + r));
    cold.l5!.push(await time(warmed.app, 'logs', 30 + r));
    await warmed.db.close();
  }
  show('3. metrics export: warm code, first on a NEW connection', cold.m3!);
  show('   log batch: warm code, 2nd statement on the NEW connection', cold.l3!);
  show('4. metrics export: again on that connection', cold.m4!);
  show('   log batch: again on that connection', cold.l4!);
  show('5. warmIntake on a NEW connection (no rows, rolled back)', cold.w!);
  show('   then a metrics export on it', cold.m5!);
  show('   then a log batch on it', cold.l5!);
} finally {
  await database.stop();
}
