/**
 * What the intake reads of an OTLP export: Claude Code's metrics and events and Codex CLI's events,
 * by the names and attributes their documentation gives (docs/ai-telemetry.md). Everything else is
 * ignored and only counted. Pure functions: decoded request in, contributions out; the database is
 * service.ts's business. Prompt text (`prompt`) and money (`cost_usd`, `claude_code.cost.usage`)
 * are never read.
 */
import { createHash } from 'node:crypto';
import type { AnyValue, Int64, KeyValue, LogRecord, LogsRequest, Metric, MetricsRequest, NumberDataPoint } from './otlp.js';

export type Tool = 'claude-code' | 'codex';

/** The counters a session and a person-day add up. */
export const COUNTERS = [
  'sessions', 'prompts', 'apiRequests', 'inputTokens', 'outputTokens', 'cacheReadTokens', 'cacheWriteTokens', 'toolCalls',
  'linesAdded', 'linesRemoved', 'editsAccepted', 'editsRejected', 'commits', 'pullRequests', 'activeSeconds',
] as const;
export type Counter = (typeof COUNTERS)[number];
export type Counters = Partial<Record<Counter, number>>;

/** Who the telemetry names: `user.email` (lower-cased), else the tool's account id. */
export interface Person {
  email: string | null;
  account: string | null;
}

/** Where one item's numbers go: its tool, session (when named) and person. */
export interface Origin {
  tool: Tool;
  sessionId: string | null;
  person: Person | null;
  model: string | null;
}

type Attributes = Map<string, string | number | boolean>;

const MAX_TEXT = 200;

/** A decoded 64-bit integer's decimal text (a Long's `toString`, unsigned for fixed64). */
const int64 = (value: Int64 | null | undefined): string => (value === undefined || value === null ? '' : String(value));

function scalar(value: AnyValue | null | undefined): string | number | boolean | undefined {
  switch (value?.value) {
    case 'stringValue': return value.stringValue;
    case 'boolValue': return value.boolValue;
    case 'intValue': return Number(int64(value.intValue));
    case 'doubleValue': return value.doubleValue;
    default: return undefined;
  }
}

function attributesOf(...lists: (KeyValue[] | undefined)[]): Attributes {
  const map: Attributes = new Map();
  for (const list of lists) for (const kv of list ?? []) {
    const value = scalar(kv.value);
    if (kv.key !== undefined && value !== undefined) map.set(kv.key, value);
  }
  return map;
}

function text(attrs: Attributes, ...keys: string[]): string | null {
  for (const key of keys) {
    const value = attrs.get(key);
    if (value !== undefined && value !== '') return String(value).slice(0, MAX_TEXT);
  }
  return null;
}

function numberOf(attrs: Attributes, key: string): number {
  const value = Number(attrs.get(key) ?? 0);
  return Number.isFinite(value) && value > 0 ? value : 0;
}

function toolOf(name: string): Tool | null {
  if (name.startsWith('claude_code.')) return 'claude-code';
  if (name.startsWith('codex.')) return 'codex';
  return null;
}

function originOf(tool: Tool, attrs: Attributes): Origin {
  const email = text(attrs, 'user.email')?.trim().toLowerCase() || null;
  const account = text(attrs, 'user.account_uuid', 'user.account_id');
  return {
    tool,
    sessionId: tool === 'codex' ? text(attrs, 'conversation.id') : text(attrs, 'session.id'),
    person: email || account ? { email, account: email ? null : account } : null,
    model: text(attrs, 'model'),
  };
}

/** A stable key of an attribute set: sorted, so the SDK's order does not matter. */
function canonical(attrs: Attributes): string {
  return JSON.stringify([...attrs.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

const digestUuid = (text: string): string => {
  const hex = createHash('md5').update(text).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
};

/** A signed 64-bit digest (PostgreSQL bigint) of a text. */
export const digest64 = (text: string): bigint => createHash('sha256').update(text).digest().readBigInt64BE(0);

/** Tally of an export by name: what was read, what was ignored (unknown name), what was refused. */
export interface Tally {
  accepted: Map<string, number>;
  ignored: Map<string, number>;
  rejected: Map<string, number>;
  /** Why the first refused item was refused (OTLP's partial_success error_message). */
  firstRejection: string | null;
}

const newTally = (): Tally => ({ accepted: new Map(), ignored: new Map(), rejected: new Map(), firstRejection: null });
const bump = (map: Map<string, number>, name: string, n = 1) => map.set(name, (map.get(name) ?? 0) + n);
const tallyName = (name: string) => name.slice(0, MAX_TEXT);

// ---- metrics ----------------------------------------------------------------------------------

/** One data point of a metric we read, with the series it belongs to. */
export interface MetricPoint {
  origin: Origin;
  counter: Counter;
  seriesKey: string;
  cumulative: boolean;
  startNs: bigint;
  timeNs: bigint;
  value: number;
}

/** Metrics Claude Code documents; `null` = read but not stored (money), or an attribute we do not count. */
const METRICS: Record<string, (attrs: Attributes) => Counter | null> = {
  'claude_code.session.count': () => 'sessions',
  'claude_code.lines_of_code.count': (a) => ({ added: 'linesAdded', removed: 'linesRemoved' } as const)[String(a.get('type'))] ?? null,
  'claude_code.commit.count': () => 'commits',
  'claude_code.pull_request.count': () => 'pullRequests',
  'claude_code.token.usage': (a) => ({ input: 'inputTokens', output: 'outputTokens', cacheRead: 'cacheReadTokens', cacheCreation: 'cacheWriteTokens' } as const)[String(a.get('type'))] ?? null,
  'claude_code.code_edit_tool.decision': (a) => ({ accept: 'editsAccepted', reject: 'editsRejected' } as const)[String(a.get('decision'))] ?? null,
  'claude_code.active_time.total': () => 'activeSeconds',
  // We keep tokens, never money.
  'claude_code.cost.usage': () => null,
};

const AGGREGATION_TEMPORALITY_DELTA = 1;
const AGGREGATION_TEMPORALITY_CUMULATIVE = 2;

function pointValue(point: NumberDataPoint): number | null {
  const value = point.value === 'asInt' ? Number(int64(point.asInt)) : point.value === 'asDouble' ? point.asDouble : undefined;
  return value !== undefined && Number.isFinite(value) && value >= 0 ? value : null;
}

function nanos(value: Int64 | null | undefined): bigint {
  try {
    return value === undefined || value === null ? 0n : BigInt(int64(value));
  } catch {
    return 0n;
  }
}

function dataPointCount(metric: Metric): number {
  const data = metric.data ? metric[metric.data] : undefined;
  return (data?.dataPoints as unknown[] | undefined)?.length ?? 0;
}

/**
 * The points of the metrics we read, and the tally of everything in the export. A point older than
 * `horizonNs` (the retention, jobs.ts) is refused: its series may have been pruned, and counting it
 * again would count it twice.
 */
export function readMetrics(request: MetricsRequest, horizonNs = 0n): { points: MetricPoint[]; tally: Tally } {
  const tally = newTally();
  const points: MetricPoint[] = [];
  const reject = (name: string, n: number, why: string) => {
    bump(tally.rejected, tallyName(name), n);
    tally.firstRejection ??= why;
  };
  for (const rm of request.resourceMetrics ?? []) {
    const resource = attributesOf(rm.resource?.attributes);
    const resourceKey = canonical(resource);
    for (const sm of rm.scopeMetrics ?? []) for (const metric of sm.metrics ?? []) {
      const name = metric.name ?? '';
      const counterOf = METRICS[name];
      const tool = toolOf(name);
      if (!counterOf || !tool) {
        bump(tally.ignored, tallyName(name || '(unnamed)'), dataPointCount(metric));
        continue;
      }
      const temporality = metric.sum?.aggregationTemporality;
      if (metric.data !== 'sum' || (temporality !== AGGREGATION_TEMPORALITY_DELTA && temporality !== AGGREGATION_TEMPORALITY_CUMULATIVE)) {
        reject(name, dataPointCount(metric), `${name}: a sum with delta or cumulative temporality is expected`);
        continue;
      }
      for (const point of metric.sum?.dataPoints ?? []) {
        const own = attributesOf(point.attributes);
        const attrs = attributesOf(rm.resource?.attributes, point.attributes);
        const value = pointValue(point);
        const timeNs = nanos(point.timeUnixNano);
        if (value === null || timeNs <= 0n) {
          reject(name, 1, `${name}: a data point without a non-negative value or a time`);
          continue;
        }
        if (timeNs < horizonNs) {
          reject(name, 1, `${name}: a data point older than the retention of the intake`);
          continue;
        }
        bump(tally.accepted, name);
        const counter = counterOf(attrs);
        if (!counter) continue;
        points.push({
          origin: originOf(tool, attrs),
          counter,
          seriesKey: digestUuid(`${name}\u0000${canonical(own)}\u0000${resourceKey}`),
          cumulative: temporality === AGGREGATION_TEMPORALITY_CUMULATIVE,
          startNs: nanos(point.startTimeUnixNano),
          timeNs,
          value,
        });
      }
    }
  }
  return { points, tally };
}

// ---- logs -------------------------------------------------------------------------------------

/** One event we read: its counters, the commits it names, and its identity for de-duplication. */
export interface EventItem {
  origin: Origin;
  timeNs: bigint;
  counters: Counters;
  commitShas: string[];
  key: string;
}

const HEX_SHA = /^[0-9a-f]{7,40}$/;

/**
 * The commit a `git commit` run reports on its first line, `[<branch> <sha>] <subject>` (also
 * `[<branch> (root-commit) <sha>]`), wherever in the output it stands. String scanning, no pattern
 * over the output.
 */
export function commitShasIn(output: string): string[] {
  const shas: string[] = [];
  for (const line of output.split('\n')) {
    const trimmed = line.trim();
    if (!trimmed.startsWith('[')) continue;
    const end = trimmed.indexOf(']');
    if (end < 0) continue;
    const last = trimmed.slice(1, end).split(' ').pop()?.toLowerCase() ?? '';
    if (HEX_SHA.test(last)) shas.push(last);
  }
  return shas;
}

function commandOf(attrs: Attributes): string {
  const raw = text(attrs, 'tool_parameters', 'arguments') ?? '';
  return raw;
}

function committed(attrs: Attributes): string[] {
  const command = commandOf(attrs);
  if (!command.includes('git') || !command.includes('commit')) return [];
  // tool_parameters is JSON; the output (when the tool sends it) is plain text.
  const outputs = [attrs.get('output'), attrs.get('tool_output'), attrs.get('tool_result')].filter((v): v is string => typeof v === 'string');
  try {
    const parsed = JSON.parse(command) as Record<string, unknown>;
    for (const value of Object.values(parsed)) if (typeof value === 'string') outputs.push(value);
  } catch {
    // Not JSON: nothing more to read.
  }
  return [...new Set(outputs.flatMap(commitShasIn))];
}

const APPROVED = new Set(['approved', 'approved_for_session', 'accept']);
const DENIED = new Set(['denied', 'abort', 'reject']);

/** Events of the tools: name → what they add. */
const EVENTS: Record<string, (attrs: Attributes) => Partial<Pick<EventItem, 'counters' | 'commitShas'>>> = {
  'claude_code.user_prompt': () => ({ counters: { prompts: 1 } }),
  // Claude Code's tokens are counted from claude_code.token.usage, which carries the same numbers.
  'claude_code.api_request': () => ({ counters: { apiRequests: 1 } }),
  'claude_code.tool_result': (a) => ({ counters: { toolCalls: 1 }, commitShas: committed(a) }),
  // Edit decisions are counted from claude_code.code_edit_tool.decision.
  'claude_code.tool_decision': () => ({}),
  'codex.conversation_starts': () => ({ counters: { sessions: 1 } }),
  'codex.api_request': () => ({ counters: { apiRequests: 1 } }),
  'codex.sse_event': (a) => (a.get('event.kind') === 'response.completed'
    ? { counters: { inputTokens: numberOf(a, 'input_token_count'), outputTokens: numberOf(a, 'output_token_count'), cacheReadTokens: numberOf(a, 'cached_token_count') } }
    : {}),
  'codex.user_prompt': () => ({ counters: { prompts: 1 } }),
  'codex.tool_decision': (a) => {
    const decision = String(a.get('decision') ?? '');
    return { counters: APPROVED.has(decision) ? { editsAccepted: 1 } : DENIED.has(decision) ? { editsRejected: 1 } : {} };
  },
  'codex.tool_result': (a) => ({ counters: { toolCalls: 1 }, commitShas: committed(a) }),
};

/**
 * The event's name: OTLP's `event_name`, the `event.name` attribute, or a body that is the name.
 * Claude Code sends `event.name` without its prefix (`user_prompt`) and the full name as the body.
 */
function eventNameOf(record: LogRecord, attrs: Attributes, resource: Attributes): string {
  const body = record.body?.value === 'stringValue' ? record.body.stringValue ?? '' : '';
  const named = record.eventName || text(attrs, 'event.name') || '';
  for (const candidate of [named, body]) if (toolOf(candidate)) return candidate;
  if (named) {
    const service = String(resource.get('service.name') ?? '');
    if (service === 'claude-code') return `claude_code.${named}`;
    if (service.startsWith('codex')) return `codex.${named}`;
  }
  return named || body.slice(0, MAX_TEXT) || '(unnamed)';
}

function eventTime(record: LogRecord, attrs: Attributes): bigint {
  const time = nanos(record.timeUnixNano) || nanos(record.observedTimeUnixNano);
  if (time > 0n) return time;
  const stamp = Date.parse(String(attrs.get('event.timestamp') ?? ''));
  return Number.isFinite(stamp) ? BigInt(stamp) * 1_000_000n : 0n;
}

/** The events we read, and the tally of every log record in the export. */
export function readLogs(request: LogsRequest): { events: EventItem[]; tally: Tally } {
  const tally = newTally();
  const events: EventItem[] = [];
  for (const rl of request.resourceLogs ?? []) {
    const resource = attributesOf(rl.resource?.attributes);
    for (const sl of rl.scopeLogs ?? []) for (const record of sl.logRecords ?? []) {
      const attrs = attributesOf(rl.resource?.attributes, record.attributes);
      const name = eventNameOf(record, attrs, resource);
      const read = EVENTS[name];
      const tool = toolOf(name);
      if (!read || !tool) {
        bump(tally.ignored, tallyName(name));
        continue;
      }
      const timeNs = eventTime(record, attrs);
      if (timeNs <= 0n) {
        bump(tally.rejected, name);
        tally.firstRejection ??= `${name}: a log record without a time`;
        continue;
      }
      bump(tally.accepted, name);
      const origin = originOf(tool, attrs);
      const { counters = {}, commitShas = [] } = read(attrs);
      // What makes an event itself: a re-sent batch repeats these exactly.
      const key = [origin.sessionId, name, timeNs, attrs.get('event.sequence'), attrs.get('prompt.id'), attrs.get('call_id'), attrs.get('event.timestamp')].join('\u0000');
      events.push({ origin, timeNs, counters, commitShas, key });
    }
  }
  return { events, tally };
}
