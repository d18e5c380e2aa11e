/**
 * The OTLP/HTTP surface as the specification words it (issue 45): answers in the request's
 * encoding, partial success for refused items, google.rpc.Status for a refused request, 401, 413
 * (also for a gzip bomb), 415; unknown names accepted and counted.
 */
import { gzipSync } from 'node:zlib';
import { expect } from 'chai';
import protobuf from 'protobufjs';
import { buildTenant, type BuiltTenant } from '../helpers/factories.js';
import { testServer, type TestServer } from '../helpers/server.js';

// The answer messages, from their documented fields (opentelemetry-proto, googleapis): written
// here rather than taken from the server's descriptor, so the test reads what a client reads.
const { root } = protobuf.parse(`syntax = "proto3";
message Status { int32 code = 1; string message = 2; }
message MetricsPartialSuccess { int64 rejected_data_points = 1; string error_message = 2; }
message ExportMetricsServiceResponse { MetricsPartialSuccess partial_success = 1; }
message LogsPartialSuccess { int64 rejected_log_records = 1; string error_message = 2; }
message ExportLogsServiceResponse { LogsPartialSuccess partial_success = 1; }`);
const decode = (type: string, bytes: Uint8Array) => root.lookupType(type).toObject(root.lookupType(type).decode(bytes), { longs: Number });

const PROTOBUF = { 'content-type': 'application/x-protobuf' };
const JSON_TYPE = { 'content-type': 'application/json' };

async function send(api: TestServer, key: string | null, signal: 'metrics' | 'logs', body: Uint8Array | string, headers: Record<string, string>) {
  const res = await fetch(`${api.baseUrl}/api/otlp/v1/${signal}`, {
    method: 'POST',
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...headers },
    body: body as BodyInit,
  });
  return { status: res.status, type: res.headers.get('content-type') ?? '', headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
}

const text = (bytes: Uint8Array) => JSON.parse(Buffer.from(bytes).toString('utf8'));
const now = () => `${BigInt(Date.now()) * 1_000_000n}`;
const gauge = (name: string) => ({ name, gauge: { dataPoints: [{ timeUnixNano: now(), asInt: '3' }] } });
const sum = (name: string, attributes: unknown[] = []) => ({
  name, sum: { aggregationTemporality: 1, isMonotonic: true, dataPoints: [{ startTimeUnixNano: now(), timeUnixNano: now(), asInt: '5', attributes }] },
});
const metricsBody = (...metrics: unknown[]) => JSON.stringify({ resourceMetrics: [{ resource: { attributes: [] }, scopeMetrics: [{ metrics }] }] });

describe('OTLP/HTTP intake: the protocol', function () {
  this.timeout(120_000);
  let api: TestServer;
  let tenant: BuiltTenant;

  before(async () => {
    api = await testServer();
    tenant = await buildTenant(api.databaseUrl);
  });

  after(async () => {
    await api.close();
  });

  it('answers 401 with a google.rpc.Status without a key or with a wrong one, in the request’s encoding', async () => {
    const none = await send(api, null, 'metrics', new Uint8Array(), PROTOBUF);
    expect([none.status, none.type]).to.deep.equal([401, 'application/x-protobuf']);
    expect(decode('Status', none.bytes)).to.deep.equal({ code: 16, message: 'Missing or invalid credentials' });
    const wrong = await send(api, 'gai_not-a-key', 'logs', '{}', JSON_TYPE);
    expect([wrong.status, wrong.type]).to.deep.equal([401, 'application/json; charset=utf-8']);
    expect(text(wrong.bytes)).to.deep.equal({ code: 16, message: 'Missing or invalid credentials' });
  });

  it('answers 400 with a google.rpc.Status for a body that is not an export request', async () => {
    const proto = await send(api, tenant.owner.apiKey, 'metrics', new Uint8Array([0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f]), PROTOBUF);
    expect(proto.status).to.equal(400);
    const status = decode('Status', proto.bytes) as { code: number; message: string };
    expect(status.code).to.equal(3);
    expect(status.message).to.match(/^The body is not an OTLP export request: /);

    const json = await send(api, tenant.owner.apiKey, 'logs', '{"resourceLogs": 5}', JSON_TYPE);
    expect(json.status).to.equal(400);
    expect(text(json.bytes)).to.deep.equal({ code: 3, message: 'The body is not an OTLP export request: .opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest.resourceLogs: array expected' });
    const broken = await send(api, tenant.owner.apiKey, 'logs', '{"resourceLogs": [', JSON_TYPE);
    expect([broken.status, text(broken.bytes).code]).to.deep.equal([400, 3]);
  });

  it('answers 415 for another Content-Type', async () => {
    const res = await send(api, tenant.owner.apiKey, 'metrics', 'x', { 'content-type': 'text/plain' });
    expect(res.status).to.equal(415);
    expect(decode('Status', res.bytes)).to.deep.equal({ code: 3, message: 'Content-Type must be application/x-protobuf or application/json' });
  });

  it('answers 413 over 4 MiB on the wire, and for a gzip body inflating past 16 MiB', async () => {
    const big = await send(api, tenant.owner.apiKey, 'metrics', new Uint8Array(4 * 1024 * 1024 + 1), PROTOBUF);
    expect(big.status).to.equal(413);
    expect(decode('Status', big.bytes)).to.deep.equal({ code: 8, message: 'Request body is larger than 4194304 bytes' });
    const bomb = gzipSync(Buffer.alloc(17 * 1024 * 1024));
    expect(bomb.length).to.be.below(100_000);
    const inflated = await send(api, tenant.owner.apiKey, 'metrics', bomb, { ...PROTOBUF, 'content-encoding': 'gzip' });
    expect(inflated.status).to.equal(413);
    expect(decode('Status', inflated.bytes)).to.deep.equal({ code: 8, message: 'Decompressed body is larger than 16777216 bytes' });
  });

  it('accepts an empty export and answers an empty Export…ServiceResponse', async () => {
    const proto = await send(api, tenant.owner.apiKey, 'logs', new Uint8Array(), PROTOBUF);
    expect([proto.status, proto.type, proto.bytes.length]).to.deep.equal([200, 'application/x-protobuf', 0]);
    const json = await send(api, tenant.owner.apiKey, 'metrics', '{}', JSON_TYPE);
    expect([json.status, text(json.bytes)]).to.deep.equal([200, {}]);
  });

  it('accepts unknown names (200, counted as ignored) and reports refused points as partial success', async () => {
    const unknown = await send(api, tenant.owner.apiKey, 'metrics', metricsBody(sum('jvm.gc.count'), sum('jvm.gc.count'), gauge('http.server.active')), JSON_TYPE);
    expect([unknown.status, text(unknown.bytes)]).to.deep.equal([200, {}]);

    const partial = await send(api, tenant.owner.apiKey, 'metrics', metricsBody(gauge('claude_code.session.count'), sum('claude_code.commit.count')), JSON_TYPE);
    expect(partial.status).to.equal(200);
    expect(text(partial.bytes)).to.deep.equal({ partialSuccess: { rejectedDataPoints: 1, errorMessage: 'claude_code.session.count: a sum with delta or cumulative temporality is expected' } });

    const asProto = await send(api, tenant.owner.apiKey, 'metrics', gzipSync(Buffer.from(metricsBody(gauge('claude_code.token.usage')))), { ...JSON_TYPE, 'content-encoding': 'gzip' });
    expect(text(asProto.bytes)).to.deep.equal({ partialSuccess: { rejectedDataPoints: 1, errorMessage: 'claude_code.token.usage: a sum with delta or cumulative temporality is expected' } });

    const logs = await send(api, tenant.owner.apiKey, 'logs', JSON.stringify({ resourceLogs: [{ scopeLogs: [{ logRecords: [{ body: { stringValue: 'claude_code.user_prompt' } }, { body: { stringValue: 'something else' }, timeUnixNano: now() }] }] }] }), JSON_TYPE);
    expect(text(logs.bytes)).to.deep.equal({ partialSuccess: { rejectedLogRecords: 1, errorMessage: 'claude_code.user_prompt: a log record without a time' } });

    const status = await api.as(tenant.owner.apiKey).get('/api/ai-telemetry/status');
    const names = (status.body.data.names as { signal: string; name: string; accepted: number; ignored: number; rejected: number }[])
      .map(({ signal, name, accepted, ignored, rejected }) => [signal, name, accepted, ignored, rejected]);
    expect(names).to.deep.equal([
      ['logs', 'claude_code.user_prompt', 0, 0, 1],
      ['logs', 'something else', 0, 1, 0],
      ['metrics', 'claude_code.commit.count', 1, 0, 0],
      ['metrics', 'claude_code.session.count', 0, 0, 1],
      ['metrics', 'claude_code.token.usage', 0, 0, 1],
      ['metrics', 'http.server.active', 0, 1, 0],
      ['metrics', 'jvm.gc.count', 0, 2, 0],
    ]);
    expect(status.body.data.lastReceivedAt).to.match(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('writes what a key sends into the key’s tenant only', async () => {
    const other = await buildTenant(api.databaseUrl);
    const res = await send(api, other.owner.apiKey, 'metrics', metricsBody(sum('only.in.b')), JSON_TYPE);
    expect(res.status).to.equal(200);
    const mine = await api.as(tenant.owner.apiKey).get('/api/ai-telemetry/status');
    expect((mine.body.data.names as { name: string }[]).map((n) => n.name)).to.not.include('only.in.b');
    const theirs = await api.as(other.owner.apiKey).get('/api/ai-telemetry/status');
    expect((theirs.body.data.names as { name: string }[]).map((n) => n.name)).to.deep.equal(['only.in.b']);
  });
});
