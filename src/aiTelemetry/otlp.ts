/**
 * OTLP/HTTP as the specification words it (opentelemetry.io/docs/specs/otlp/#otlphttp): a request
 * is an Export{Metrics,Logs}ServiceRequest in binary protobuf (`application/x-protobuf`) or in the
 * protobuf JSON mapping (`application/json`); the answer is the matching Export…ServiceResponse, or
 * a google.rpc.Status on failure, in the request's encoding. Decoding is protobufjs over the
 * official .proto definitions (otlpDescriptor.ts); nothing here knows what the tools send.
 */
import protobuf from 'protobufjs';
import { AppError } from '../errors.js';
import { OTLP_DESCRIPTOR } from './otlpDescriptor.js';

export type Signal = 'metrics' | 'logs';
export type Encoding = 'protobuf' | 'json';

const root = protobuf.Root.fromJSON(OTLP_DESCRIPTOR as unknown as protobuf.INamespace);
const REQUEST = {
  metrics: root.lookupType('opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest'),
  logs: root.lookupType('opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest'),
};
const RESPONSE = {
  metrics: root.lookupType('opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceResponse'),
  logs: root.lookupType('opentelemetry.proto.collector.logs.v1.ExportLogsServiceResponse'),
};
const STATUS = root.lookupType('google.rpc.Status');

/**
 * A 64-bit integer as a decoded message holds it: a `Long` (protobufjs with long.js), a number, or
 * decimal text; `String()` of each is its decimal (read.ts `int64`).
 */
export type Int64 = string | number | { toString(): string };

/** An AnyValue as protobufjs decodes it: `value` (the oneof's getter) names the field that is set. */
export interface AnyValue {
  value?: 'stringValue' | 'boolValue' | 'intValue' | 'doubleValue' | 'arrayValue' | 'kvlistValue' | 'bytesValue' | 'stringValueStrindex';
  stringValue?: string;
  boolValue?: boolean;
  intValue?: Int64;
  doubleValue?: number;
  arrayValue?: { values?: AnyValue[] };
  kvlistValue?: { values?: KeyValue[] };
}
export interface KeyValue { key?: string; value?: AnyValue }
export interface Resource { attributes?: KeyValue[] }

export interface NumberDataPoint {
  attributes?: KeyValue[];
  startTimeUnixNano?: Int64;
  timeUnixNano?: Int64;
  value?: 'asDouble' | 'asInt';
  asDouble?: number;
  asInt?: Int64;
}
export interface Metric {
  name?: string;
  data?: 'gauge' | 'sum' | 'histogram' | 'exponentialHistogram' | 'summary';
  sum?: { dataPoints?: NumberDataPoint[]; aggregationTemporality?: number; isMonotonic?: boolean };
  gauge?: { dataPoints?: NumberDataPoint[] };
  histogram?: { dataPoints?: unknown[] };
  exponentialHistogram?: { dataPoints?: unknown[] };
  summary?: { dataPoints?: unknown[] };
}
export interface MetricsRequest {
  resourceMetrics?: { resource?: Resource; scopeMetrics?: { metrics?: Metric[] }[] }[];
}

export interface LogRecord {
  timeUnixNano?: Int64;
  observedTimeUnixNano?: Int64;
  body?: AnyValue;
  attributes?: KeyValue[];
  eventName?: string;
}
export interface LogsRequest {
  resourceLogs?: { resource?: Resource; scopeLogs?: { logRecords?: LogRecord[] }[] }[];
}

export interface RequestOf { metrics: MetricsRequest; logs: LogsRequest }

/** The encoding a Content-Type names (parameters such as `charset` aside); anything else is a 415. */
export function encodingOf(contentType: string): Encoding | null {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  if (type === 'application/x-protobuf') return 'protobuf';
  if (type === 'application/json') return 'json';
  return null;
}

const undecodable = (why: string) => new AppError('validation_failed', `The body is not an OTLP export request: ${why}`);

/**
 * The request, decoded; a body that is not one is a 400 (validation_failed) naming why. JSON's
 * trace and span ids are hex in OTLP but base64 in protobuf's mapping: they are dropped, unread.
 * The decoded message is read as it is (no `toObject` copy: that second pass was about half the
 * decoding's cost): oneofs through protobufjs's getters, unset fields at their defaults (an empty
 * string, a zero Long, null), 64-bit integers as `Int64`.
 */
export function decodeRequest<S extends Signal>(signal: S, encoding: Encoding, body: Buffer): RequestOf[S] {
  const type = REQUEST[signal];
  let message: protobuf.Message;
  try {
    if (encoding === 'protobuf') {
      message = type.decode(body);
    } else {
      const parsed: unknown = JSON.parse(body.toString('utf8'), (key, value: unknown) => (key === 'traceId' || key === 'spanId' ? undefined : value));
      if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('a JSON object is expected');
      message = type.fromObject(parsed as Record<string, unknown>);
    }
  } catch (error) {
    throw undecodable(error instanceof Error ? error.message : String(error));
  }
  return message as unknown as RequestOf[S];
}

/** What was refused of an accepted request (OTLP's partial success); zero refused is full success. */
export interface PartialSuccess {
  rejected: number;
  message: string;
}

export interface Encoded {
  body: Buffer | string;
  type: string;
}

function encode(type: protobuf.Type, encoding: Encoding, value: Record<string, unknown>): Encoded {
  if (encoding === 'json') return { body: JSON.stringify(type.toObject(type.fromObject(value), { longs: Number, enums: Number })), type: 'application/json' };
  return { body: Buffer.from(type.encode(type.fromObject(value)).finish()), type: 'application/x-protobuf' };
}

/** The Export…ServiceResponse: empty on full success, else `partial_success` with the count refused. */
export function encodeResponse(signal: Signal, encoding: Encoding, partial: PartialSuccess): Encoded {
  if (partial.rejected === 0 && partial.message === '') return encode(RESPONSE[signal], encoding, {});
  const count = signal === 'metrics' ? 'rejectedDataPoints' : 'rejectedLogRecords';
  return encode(RESPONSE[signal], encoding, { partialSuccess: { [count]: partial.rejected, errorMessage: partial.message } });
}

/** gRPC status codes for our error codes (google.rpc.Code). */
const GRPC_CODE: Record<string, number> = {
  validation_failed: 3, // INVALID_ARGUMENT
  unsupported_media_type: 3,
  unauthorized: 16, // UNAUTHENTICATED
  forbidden: 7, // PERMISSION_DENIED
  read_only: 7,
  not_found: 5,
  payload_too_large: 8, // RESOURCE_EXHAUSTED
  rate_limited: 8,
  unavailable: 14, // UNAVAILABLE
  timeout: 4, // DEADLINE_EXCEEDED
};

/** The google.rpc.Status body OTLP/HTTP answers a failed request with. */
export function encodeStatus(encoding: Encoding, code: string, message: string): Encoded {
  return encode(STATUS, encoding, { code: GRPC_CODE[code] ?? 13, message });
}
