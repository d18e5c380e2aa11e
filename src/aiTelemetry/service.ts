/**
 * The OTLP intake's writes (docs/ai-telemetry.md). An export becomes one statement in the key's
 * tenant, with at most one set-based part per table: metric series (increments), AI sessions
 * (one row per tool session), person-days, and the intake tally; never a row per event. A log
 * batch naming a commit is that statement and the linking, in one transaction.
 *
 * A re-sent export never counts twice: a metric point adds only when it is newer than the last one
 * counted of its series (and a cumulative one adds only its growth), and a log batch's digest per
 * row is remembered (the last RECENT_BATCHES of each row), so the same batch finds it there.
 */
import { createHash, randomInt } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import pg from 'pg';
import type { AppContext } from '../context.js';
import type { TenantPrincipal } from '../auth/principal.js';
import { linkSessions, type Executor } from '../aiSessions/activityLinks.js';
import { withTenant } from '../db/tenancy.js';
import type { PartialSuccess, Signal } from './otlp.js';
import type { LogsRequest, MetricsRequest } from './otlp.js';
import { GroupCommit, type Contribution } from './batch.js';
import { retentionHorizonNs } from './jobs.js';
import { COUNTERS, digest64, readLogs, readMetrics, type Counters, type MetricPoint, type Origin, type Person, type Tally } from './read.js';

/** Log batch digests kept per session and per person-day: an exporter retries within seconds. */
export const RECENT_BATCHES = 32;
/** Rows of ai_telemetry_intake per tenant, signal and name, so concurrent exports rarely wait on one lock. */
const INTAKE_SHARDS = 8;
/** Distinct names tallied per export; the rest are tallied as `(other)`, so a sender cannot add rows at will. */
const TALLY_NAMES = 64;

interface Window {
  firstNs: bigint;
  lastNs: bigint;
}

interface Bucket {
  counters: Required<Counters>;
  window: Window;
  keys: string[];
}

interface SessionBucket extends Bucket {
  tool: string;
  sessionId: string;
  person: Person | null;
  model: string | null;
  commitShas: Set<string>;
}

interface DayBucket extends Bucket {
  tool: string;
  personKey: string;
  person: Person;
  day: string;
}

const zero = (): Required<Counters> => Object.fromEntries(COUNTERS.map((c) => [c, 0])) as Required<Counters>;
const personKeyOf = (person: Person): string => person.email ?? `account:${person.account}`;
const dayOf = (ns: bigint): string => new Date(Number(ns / 1_000_000n)).toISOString().slice(0, 10);
const isoOf = (ns: bigint): string => new Date(Number(ns / 1_000_000n)).toISOString();

/** Contributions grouped by session and by person-day, in a stable order (rows are locked in it). */
class Grouping {
  readonly sessions = new Map<string, SessionBucket>();
  readonly days = new Map<string, DayBucket>();

  /** Whether `other` writes none of this grouping's rows: only then may one statement take both. */
  disjoint(other: Grouping): boolean {
    for (const key of other.sessions.keys()) if (this.sessions.has(key)) return false;
    for (const key of other.days.keys()) if (this.days.has(key)) return false;
    return true;
  }

  /** Takes `other`'s rows (disjoint ones: each keeps its own batch digest). */
  absorb(other: Grouping): void {
    for (const [key, bucket] of other.sessions) this.sessions.set(key, bucket);
    for (const [key, bucket] of other.days) this.days.set(key, bucket);
  }

  add(origin: Origin, timeNs: bigint, counters: Counters, key: string | null, commitShas: string[] = []): void {
    if (origin.sessionId) {
      const id = `${origin.tool}\u0000${origin.sessionId}`;
      let bucket = this.sessions.get(id);
      if (!bucket) {
        bucket = { tool: origin.tool, sessionId: origin.sessionId, person: origin.person, model: null, commitShas: new Set(), counters: zero(), window: { firstNs: timeNs, lastNs: timeNs }, keys: [] };
        this.sessions.set(id, bucket);
      }
      bucket.person ??= origin.person;
      bucket.model = origin.model ?? bucket.model;
      for (const sha of commitShas) bucket.commitShas.add(sha);
      merge(bucket, timeNs, counters, key);
    }
    if (origin.person) {
      const personKey = personKeyOf(origin.person);
      const day = dayOf(timeNs);
      const id = `${origin.tool}\u0000${personKey}\u0000${day}`;
      let bucket = this.days.get(id);
      if (!bucket) {
        bucket = { tool: origin.tool, personKey, person: origin.person, day, counters: zero(), window: { firstNs: timeNs, lastNs: timeNs }, keys: [] };
        this.days.set(id, bucket);
      }
      merge(bucket, timeNs, counters, key);
    }
  }

  sortedSessions(): SessionBucket[] {
    return [...this.sessions.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, v]) => v);
  }

  sortedDays(): DayBucket[] {
    return [...this.days.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, v]) => v);
  }
}

function merge(bucket: Bucket, timeNs: bigint, counters: Counters, key: string | null): void {
  for (const [counter, value] of Object.entries(counters) as [keyof Counters, number][]) bucket.counters[counter] += value;
  if (timeNs < bucket.window.firstNs) bucket.window.firstNs = timeNs;
  if (timeNs > bucket.window.lastNs) bucket.window.lastNs = timeNs;
  if (key !== null) bucket.keys.push(key);
}

/** A row's batch digest: its events' keys, sorted; null for metrics (their series de-duplicate them). */
const batchDigest = (bucket: Bucket): string | null => (bucket.keys.length === 0 ? null : String(digest64(bucket.keys.sort().join('\u0001'))));

const COUNTER_COLUMNS: Record<keyof Counters, { session: string | null; day: string }> = {
  sessions: { session: null, day: 'sessions' },
  prompts: { session: 'prompt_count', day: 'prompts' },
  apiRequests: { session: 'api_request_count', day: 'api_requests' },
  inputTokens: { session: 'input_tokens', day: 'input_tokens' },
  outputTokens: { session: 'output_tokens', day: 'output_tokens' },
  cacheReadTokens: { session: 'cache_read_tokens', day: 'cache_read_tokens' },
  cacheWriteTokens: { session: 'cache_write_tokens', day: 'cache_write_tokens' },
  toolCalls: { session: 'tool_call_count', day: 'tool_calls' },
  linesAdded: { session: 'lines_added', day: 'lines_added' },
  linesRemoved: { session: 'lines_removed', day: 'lines_removed' },
  editsAccepted: { session: 'edits_accepted', day: 'edits_accepted' },
  editsRejected: { session: 'edits_rejected', day: 'edits_rejected' },
  commits: { session: 'commit_count', day: 'commits' },
  pullRequests: { session: 'pull_request_count', day: 'pull_requests' },
  activeSeconds: { session: 'active_seconds', day: 'active_seconds' },
};
// Whole numbers in integer columns; active time stays fractional.
const rounded = (counter: keyof Counters, value: number) => (counter === 'activeSeconds' ? value : Math.round(value));
const countersJson = (counters: Required<Counters>, column: 'session' | 'day') =>
  Object.fromEntries(COUNTERS.flatMap((c) => (COUNTER_COLUMNS[c][column] ? [[COUNTER_COLUMNS[c][column], rounded(c, counters[c])]] : [])));

const SESSION_COUNTERS = COUNTERS.flatMap((c) => (COUNTER_COLUMNS[c].session ? [COUNTER_COLUMNS[c].session] : [])) as string[];
const DAY_COUNTERS = COUNTERS.map((c) => COUNTER_COLUMNS[c].day);
const typeOf = (column: string) => (column === 'active_seconds' ? 'double precision' : column.endsWith('tokens') || column.startsWith('lines') ? 'bigint' : 'integer');
const recordColumns = (columns: string[]) => sql.raw(columns.map((c) => `${c} ${typeOf(c)}`).join(', '));
const additive = (columns: string[], alias: string) => sql.raw(columns.map((c) => `${c} = ${alias}.${c} + excluded.${c}`).join(', '));
const names = (columns: string[]) => sql.raw(columns.join(', '));
// A batch digest already in the row's list: the whole contribution is a re-sent batch.
const fresh = (alias: string) => sql.raw(`(excluded.recent_batches = '{}' or not (excluded.recent_batches[1] = any(${alias}.recent_batches)))`);
const remembered = (alias: string) => sql.raw(`case when excluded.recent_batches = '{}' then ${alias}.recent_batches else (excluded.recent_batches || ${alias}.recent_batches)[1:${RECENT_BATCHES}] end`);

/** How a contribution meets a session row: counters add, the window widens, a re-sent batch adds nothing. */
const SESSIONS_ON_CONFLICT = sql`
    on conflict (tenant_id, tool, telemetry_id) do update set
      ${additive(SESSION_COUNTERS, 's')},
      model = coalesce(excluded.model, s.model),
      person_email = coalesce(s.person_email, excluded.person_email),
      person_account = coalesce(s.person_account, excluded.person_account),
      started_at = least(s.started_at, excluded.started_at),
      ended_at = greatest(s.ended_at, excluded.ended_at),
      commit_shas = case when excluded.commit_shas <@ s.commit_shas then s.commit_shas
                         else array(select distinct u from unnest(s.commit_shas || excluded.commit_shas) u order by 1) end,
      recent_batches = ${remembered('s')}
    where ${fresh('s')}`;

/** How a contribution meets a person-day row. */
const DAYS_ON_CONFLICT = sql`
    on conflict (tenant_id, person_key, day, tool) do update set
      ${additive(DAY_COUNTERS, 'd')},
      recent_batches = ${remembered('d')},
      updated_at = now()
    where ${fresh('d')}`;

/** Sessions: one upsert, returning the rows that took the contribution. */
function sessionsUpsert(tenantId: string, buckets: SessionBucket[]): SQL {
  const rows = buckets.map((b) => ({
    tool: b.tool, telemetry_id: b.sessionId, person_email: b.person?.email ?? null, person_account: b.person?.account ?? null, model: b.model,
    started_at: isoOf(b.window.firstNs), ended_at: isoOf(b.window.lastNs), commit_shas: [...b.commitShas].sort(),
    recent_batches: batchDigest(b) === null ? [] : [batchDigest(b)], ...countersJson(b.counters, 'session'),
  }));
  return sql`
    insert into ai_sessions as s (id, tenant_id, source, tool, telemetry_id, person_email, person_account, model, started_at, ended_at, commit_shas, recent_batches, ${names(SESSION_COUNTERS)})
    select gen_random_uuid(), ${tenantId}, 'telemetry', x.tool, x.telemetry_id, x.person_email, x.person_account, x.model, x.started_at, x.ended_at,
           array(select jsonb_array_elements_text(x.commit_shas)), array(select jsonb_array_elements_text(x.recent_batches))::bigint[], ${names(SESSION_COUNTERS)}
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(tool text, telemetry_id text, person_email text, person_account text, model text,
      started_at timestamptz, ended_at timestamptz, commit_shas jsonb, recent_batches jsonb, ${recordColumns(SESSION_COUNTERS)})
    ${SESSIONS_ON_CONFLICT}
    returning s.id, s.tool, s.telemetry_id`;
}

function daysUpsert(tenantId: string, buckets: DayBucket[]): SQL {
  const rows = buckets.map((b) => ({
    tool: b.tool, person_key: b.personKey, person_email: b.person.email, person_account: b.person.account, day: b.day,
    recent_batches: batchDigest(b) === null ? [] : [batchDigest(b)], ...countersJson(b.counters, 'day'),
  }));
  return sql`
    insert into ai_telemetry_days as d (tenant_id, tool, person_key, person_email, person_account, day, recent_batches, ${names(DAY_COUNTERS)})
    select ${tenantId}, x.tool, x.person_key, x.person_email, x.person_account, x.day, array(select jsonb_array_elements_text(x.recent_batches))::bigint[], ${names(DAY_COUNTERS)}
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(tool text, person_key text, person_email text, person_account text, day date, recent_batches jsonb, ${recordColumns(DAY_COUNTERS)})
    ${DAYS_ON_CONFLICT}
    returning 1`;
}

/** The tally's upsert; on no names, the same statement on no rows (one statement text per kind of export). */
function tallyUpsert(tenantId: string, signal: Signal, tally: Tally): SQL {
  const counts = new Map<string, { accepted: number; ignored: number; rejected: number }>();
  const add = (map: Map<string, number>, field: 'accepted' | 'ignored' | 'rejected') => {
    for (const [name, n] of map) {
      const key = counts.has(name) || counts.size < TALLY_NAMES ? name : '(other)';
      const entry = counts.get(key) ?? { accepted: 0, ignored: 0, rejected: 0 };
      entry[field] += n;
      counts.set(key, entry);
    }
  };
  add(tally.accepted, 'accepted');
  add(tally.ignored, 'ignored');
  add(tally.rejected, 'rejected');
  const rows = [...counts.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([name, c]) => ({ name, ...c }));
  return sql`
    insert into ai_telemetry_intake as i (tenant_id, signal, name, shard, accepted, ignored, rejected)
    select ${tenantId}, ${signal}, x.name, ${randomInt(INTAKE_SHARDS)}, x.accepted, x.ignored, x.rejected
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(name text, accepted bigint, ignored bigint, rejected bigint)
    on conflict (tenant_id, signal, name, shard) do update set
      accepted = i.accepted + excluded.accepted, ignored = i.ignored + excluded.ignored, rejected = i.rejected + excluded.rejected,
      last_received_at = now()
    returning 1`;
}

/**
 * Sessions, person-days and the tally as ONE statement (data-modifying CTEs): one round trip,
 * atomic without a transaction of its own. Returns the sessions that took the contribution and
 * the commits they named, for linking.
 */
async function writeAggregates(tx: Executor | Queryable, tenantId: string, signal: Signal, grouping: Grouping, tally: Tally): Promise<{ id: string; shas: string[] }[]> {
  const sessions = grouping.sortedSessions();
  const result = await run<{ id: string; tool: string; telemetry_id: string }>(tx, aggregatesStatement(tenantId, signal, sessions, grouping.sortedDays(), tally));
  const byKey = new Map(sessions.map((b) => [`${b.tool}\u0000${b.sessionId}`, b]));
  return result.rows.flatMap((r) => {
    const shas = [...(byKey.get(`${r.tool}\u0000${r.telemetry_id}`)?.commitShas ?? [])];
    return shas.length > 0 ? [{ id: r.id, shas }] : [];
  });
}

/**
 * writeAggregates' statement. Its text depends only on whether it writes sessions and
 * person-days (`every`: both, as a log batch of Claude Code does, even on no rows: the warm-up).
 */
function aggregatesStatement(tenantId: string, signal: Signal, sessions: SessionBucket[], days: DayBucket[], tally: Tally, every = false): SQL {
  const parts: SQL[] = [];
  const withSessions = every || sessions.length > 0;
  if (withSessions) parts.push(sql`sessions as (${sessionsUpsert(tenantId, sessions)})`);
  if (every || days.length > 0) parts.push(sql`days as (${daysUpsert(tenantId, days)})`);
  parts.push(sql`tally as (${tallyUpsert(tenantId, signal, tally)})`);
  return withSessions
    ? sql`with ${sql.join(parts, sql`, `)} select id, tool, telemetry_id from sessions`
    : sql`with ${sql.join(parts, sql`, `)} select null::uuid as id, null as tool, null as telemetry_id where false`;
}

const dialect = new PgDialect();

/** The pool, or a connection taken from it (a transaction of the caller's). */
type Queryable = pg.Pool | pg.PoolClient;

/** Statement names by text: the name's digest is computed once per statement shape. */
const statementNames = new Map<string, string>();

/**
 * On the pool or a pooled connection, a named (prepared) statement: the statement's text depends
 * only on which tables it writes (the rows travel as JSON parameters), so each connection plans it
 * once rather than on every export, a large share of its cost.
 */
async function run<R extends Record<string, unknown>>(on: Executor | Queryable, statement: SQL): Promise<{ rows: R[] }> {
  if ('execute' in on) return (await on.execute<R>(statement)) as { rows: R[] };
  const { sql: text, params } = dialect.sqlToQuery(statement);
  let name = statementNames.get(text);
  if (!name) statementNames.set(text, (name = `otlp-${createHash('sha1').update(text).digest('hex').slice(0, 16)}`));
  return on.query<R>({ name, text, values: params as unknown[] });
}

/** Links the commits telemetry sessions named (ai_session_shas, then the usual linking). */
async function linkCommits(tx: Executor, tenantId: string, sessions: { id: string; shas: string[] }[]): Promise<void> {
  for (const { id, shas } of sessions) {
    await tx.execute(sql`insert into ai_session_shas (session_id, tenant_id, sha)
      select ${id}, ${tenantId}, unnest(${`{${shas.join(',')}}`}::text[]) on conflict do nothing`);
    await linkSessions(tx, tenantId, { sessionId: id });
  }
}

function partialOf(tally: Tally): PartialSuccess {
  const rejected = [...tally.rejected.values()].reduce((a, b) => a + b, 0);
  return { rejected, message: rejected > 0 ? (tally.firstRejection ?? 'some items were rejected') : '' };
}

/** A counter's sum over a group's grown points, as its column takes it (whole numbers as Math.round does). */
const grownSums = (columns: (keyof Counters)[], column: 'session' | 'day') => sql.raw(columns.map((c) => {
  const sum = `coalesce(sum(g.increment) filter (where g.counter = '${c}'), 0)`;
  return c === 'activeSeconds' ? sum : `floor(${sum} + 0.5)::${typeOf(COUNTER_COLUMNS[c][column]!)}`;
}).join(', '));
const SESSION_SUMS = grownSums(COUNTERS.filter((c) => COUNTER_COLUMNS[c].session), 'session');
const DAY_SUMS = grownSums([...COUNTERS], 'day');

/**
 * A metrics export as ONE statement (data-modifying CTEs), atomic without a transaction of its
 * own, so a series never advances unless its growth is counted: the series upsert returns what
 * each point added (nothing for a point not newer than the last one counted: a re-sent export;
 * all of its value after a reset), and only those grown points are summed per session and per
 * person-day, in SQL, into the two upserts; the tally goes along. Sessions, then person-days, are
 * written in the order of their keys as JavaScript sorts them (`sr`, `dr`), as log batches lock them.
 */
function metricsStatement(tenantId: string, points: MetricPoint[], tally: Tally): SQL {
  const rank = (keys: (string | null)[]) => {
    const sorted = [...new Set(keys.filter((k): k is string => k !== null))].sort((a, b) => (a < b ? -1 : 1));
    return new Map(sorted.map((k, i) => [k, i]));
  };
  const sessionKey = (p: MetricPoint) => (p.origin.sessionId ? `${p.origin.tool}\u0000${p.origin.sessionId}` : null);
  const dayKey = (p: MetricPoint) => (p.origin.person ? `${p.origin.tool}\u0000${personKeyOf(p.origin.person)}\u0000${dayOf(p.timeNs)}` : null);
  const sessionRanks = rank(points.map(sessionKey));
  const dayRanks = rank(points.map(dayKey));
  const rows = points.map((p, i) => ({
    i, k: p.seriesKey, c: p.cumulative, s: String(p.startNs), t: String(p.timeNs), v: p.value, counter: p.counter,
    tool: p.origin.tool, sid: p.origin.sessionId, sr: sessionRanks.get(sessionKey(p)!) ?? null, model: p.origin.model,
    pe: p.origin.person?.email ?? null, pa: p.origin.person?.account ?? null, pk: p.origin.person ? personKeyOf(p.origin.person) : null,
    dr: dayRanks.get(dayKey(p)!) ?? null, at: isoOf(p.timeNs), day: dayOf(p.timeNs),
  }));
  return sql`
    with x as materialized (
      select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as x(i int, k uuid, c boolean, s bigint, t bigint, v double precision, counter text,
        tool text, sid text, sr int, model text, pe text, pa text, pk text, dr int, at timestamptz, day date)
    ),
    -- A new start time is a reset (the process restarted): its value is all new. A point not newer
    -- than the last one counted (a re-sent export) matches the WHERE not and adds nothing.
    series as (
      insert into ai_telemetry_series as s (tenant_id, series_key, cumulative, start_ns, time_ns, value, increment)
      select ${tenantId}, x.k, x.c, x.s, x.t, x.v, x.v from x order by x.i
      on conflict (tenant_id, series_key) do update set
        increment = case when not excluded.cumulative or excluded.start_ns <> s.start_ns or excluded.value < s.value then excluded.value
                         else excluded.value - s.value end,
        cumulative = excluded.cumulative, start_ns = excluded.start_ns, time_ns = excluded.time_ns, value = excluded.value, seen_at = now()
      where excluded.time_ns > s.time_ns
      returning s.series_key, s.increment
    ),
    g as (select x.*, series.increment from x join series on series.series_key = x.k where series.increment > 0),
    sessions as (
      insert into ai_sessions as s (id, tenant_id, source, tool, telemetry_id, person_email, person_account, model, started_at, ended_at, commit_shas, recent_batches, ${names(SESSION_COUNTERS)})
      select gen_random_uuid(), ${tenantId}, 'telemetry', g.tool, g.sid,
             (array_agg(g.pe order by g.i) filter (where g.pe is not null or g.pa is not null))[1],
             (array_agg(g.pa order by g.i) filter (where g.pe is not null or g.pa is not null))[1],
             (array_agg(g.model order by g.i desc) filter (where g.model is not null))[1],
             min(g.at), max(g.at), '{}'::text[], '{}'::bigint[], ${SESSION_SUMS}
      from g where g.sid is not null
      group by g.tool, g.sid order by min(g.sr)
      ${SESSIONS_ON_CONFLICT}
      returning 1
    ),
    days as (
      insert into ai_telemetry_days as d (tenant_id, tool, person_key, person_email, person_account, day, recent_batches, ${names(DAY_COUNTERS)})
      select ${tenantId}, g.tool, g.pk, (array_agg(g.pe order by g.i))[1], (array_agg(g.pa order by g.i))[1], g.day, '{}'::bigint[], ${DAY_SUMS}
      -- After every session row (the count needs them all): rows are locked sessions first, then
      -- person-days, as a log batch's statement locks them, or the two could deadlock.
      from g cross join (select count(*) from sessions) as sessions_done where g.pk is not null
      group by g.tool, g.pk, g.day order by min(g.dr)
      ${DAYS_ON_CONFLICT}
      returning 1
    ),
    tally as (${tallyUpsert(tenantId, 'metrics', tally)})
    select 1`;
}

/**
 * Counts a metrics export into the caller's tenant. Each series' point is compared with the last
 * one counted (ai_telemetry_series); only the growth goes to sessions and person-days, all in one
 * statement (metricsStatement).
 */
export async function ingestMetrics(app: AppContext, principal: TenantPrincipal, request: MetricsRequest): Promise<PartialSuccess> {
  const { points, tally } = readMetrics(request, retentionHorizonNs(app.config.aiTelemetry.retentionDays));
  // One row per series per statement: an export naming a series twice keeps the newest cumulative
  // point, and adds up delta points over the interval they cover together.
  const series = new Map<string, MetricPoint>();
  for (const point of points) {
    const seen = series.get(point.seriesKey);
    if (!seen) series.set(point.seriesKey, { ...point });
    else if (point.cumulative) { if (point.timeNs > seen.timeNs) series.set(point.seriesKey, { ...point }); }
    else {
      seen.value += point.value;
      if (point.startNs < seen.startNs) seen.startNs = point.startNs;
      if (point.timeNs > seen.timeNs) seen.timeNs = point.timeNs;
    }
  }
  const ordered = [...series.values()].sort((a, b) => (a.seriesKey < b.seriesKey ? -1 : 1));
  const { pool } = app.database;
  if (ordered.length > 0) await run(pool, metricsStatement(principal.tenantId, ordered, tally));
  else await writeAggregates(pool, principal.tenantId, 'metrics', new Grouping(), tally);
  return partialOf(tally);
}

/** Counts a logs export into the caller's tenant: events add to their session and person-day. */
/** The tallies of several exports as one (counts summed by name). */
function mergeTallies(into: Tally, from: Tally): void {
  for (const field of ['accepted', 'ignored', 'rejected'] as const) {
    for (const [name, n] of from[field]) into[field].set(name, (into[field].get(name) ?? 0) + n);
  }
}

/** A log export's rows and tally, as the group commit combines them (batch.ts). */
class LogContribution implements Contribution<LogContribution> {
  constructor(
    readonly grouping = new Grouping(),
    readonly tally: Tally = { accepted: new Map(), ignored: new Map(), rejected: new Map(), firstRejection: null },
  ) {}

  disjoint(other: LogContribution): boolean {
    return this.grouping.disjoint(other.grouping);
  }

  absorb(other: LogContribution): void {
    this.grouping.absorb(other.grouping);
    mergeTallies(this.tally, other.tally);
  }
}

const commits = new WeakMap<AppContext, GroupCommit<LogContribution>>();
const groupCommitOf = (app: AppContext): GroupCommit<LogContribution> => {
  let commit = commits.get(app);
  if (!commit) {
    const { pool } = app.database;
    commit = new GroupCommit(() => new LogContribution(), async (tenantId, c) => void (await writeAggregates(pool, tenantId, 'logs', c.grouping, c.tally)));
    commits.set(app, commit);
  }
  return commit;
};

export async function ingestLogs(app: AppContext, principal: TenantPrincipal, request: LogsRequest): Promise<PartialSuccess> {
  const { events, tally } = readLogs(request);
  const grouping = new Grouping();
  for (const event of events) grouping.add(event.origin, event.timeNs, event.counters, event.key, event.commitShas);
  // A batch naming a commit is linked in the same transaction: were linking to fail after the
  // counts were kept, the exporter's retry would find its batch counted and link nothing.
  if (events.some((e) => e.commitShas.length > 0)) {
    await app.database.db.transaction(async (tx) => linkCommits(tx, principal.tenantId, await writeAggregates(tx, principal.tenantId, 'logs', grouping, tally)));
  } else {
    await groupCommitOf(app).submit(principal.tenantId, new LogContribution(grouping, tally));
  }
  return partialOf(tally);
}

/** A tenant that owns nothing: the warm-up's statements run on no rows, so they write none of anyone's. */
const NO_TENANT = '00000000-0000-0000-0000-000000000000';

/**
 * Opens `connections` connections of the pool at once and runs, on each, the statements a metrics
 * export and a log batch run, on no rows, in a transaction rolled back: the backend's caches
 * (tables, indexes, row-level policies, the rollup-mark triggers' PL/pgSQL) are loaded and the
 * statements prepared before the first export, instead of during it (≈70 ms of PostgreSQL's CPU on
 * a new backend, held by every export behind it; docs/benchmarks/2026-11-29-telemetry-tail.md).
 * The pool keeps them (openDatabase's `min`).
 */
export async function warmIntake(app: AppContext, connections: number): Promise<void> {
  const none = (): Tally => ({ accepted: new Map(), ignored: new Map(), rejected: new Map(), firstRejection: null });
  await withTenant(NO_TENANT, async () => {
    const clients = await Promise.all(Array.from({ length: connections }, () => app.database.pool.connect()));
    try {
      await Promise.all(clients.map(async (client) => {
        await client.query('begin');
        try {
          await run(client, metricsStatement(NO_TENANT, [], none()));
          await run(client, aggregatesStatement(NO_TENANT, 'logs', [], [], none(), true));
        } finally {
          await client.query('rollback');
        }
      }));
    } finally {
      for (const client of clients) client.release();
    }
  });
}

export interface IntakeName {
  signal: string;
  name: string;
  accepted: number;
  ignored: number;
  rejected: number;
  lastReceivedAt: Date;
}

/** What the intake received for the caller's tenant, per signal and name (shards summed). */
export async function intakeStatus(app: AppContext, principal: TenantPrincipal): Promise<IntakeName[]> {
  // drizzle hands timestamps of a raw query back as PostgreSQL's text: ISO 8601 is asked for here.
  const result = await app.database.db.execute<{ signal: string; name: string; accepted: string; ignored: string; rejected: string; last: string }>(sql`
    select signal, name, sum(accepted) as accepted, sum(ignored) as ignored, sum(rejected) as rejected,
           to_char(max(last_received_at) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as last
    from ai_telemetry_intake where tenant_id = ${principal.tenantId}
    group by signal, name order by signal, name`);
  return result.rows.map((r) => ({
    signal: r.signal, name: r.name, accepted: Number(r.accepted), ignored: Number(r.ignored), rejected: Number(r.rejected), lastReceivedAt: new Date(r.last),
  }));
}
