/**
 * The stored delivery facts (deployment_facts, change_lead_times) are brought up to date when they
 * are read (migration 0055, docs/write-path.md): writes only note what they changed, and
 * `delivery_facts_catch_up` recomputes a tenant's noted changes, a bounded chunk at a time (0058).
 * Every cube query that reads those tables catches up first, before the query's snapshot is taken,
 * waiting at most one chunk: its answer holds every write committed before it began unless more than
 * a chunk of notes is pending, which a catch-up then takes behind it (`catchUpForRead`).
 */
import type pg from 'pg';
import { AppError } from '../errors.js';
import { filterMembers } from './filters.js';
import type { ValidQuery } from './query.js';
import { cubeSettings } from './settings.js';

/** The cubes whose SQL reads the stored facts (schema/deployments.yml, schema/change_lead_times.yml). */
const STORED_FACT_CUBES = new Set(['deployments', 'change_lead_times']);

/**
 * Members of other cubes that read the stored facts: the PR phases that read change_lead_times
 * (first commit, deploying deployment; schema/pull_requests.yml, docs/pr-phases.md), and the AI
 * attribution level kept in pull_request_ai_levels by the same notes (migration 0080,
 * docs/ai-attribution.md "The stored level"), and reverted within 30 days, stored in change_lead_times
 * (migration 0083, docs/pr-phases.md "Reverted, stored").
 */
const STORED_FACT_MEMBERS = new Set([
  'coding_time_p50_seconds', 'coding_time_count', 'deploy_time_p50_seconds', 'deploy_time_count',
  'first_commit_at', 'deployed_at', 'has_coding_time', 'is_deployed', 'coding_time_seconds', 'deploy_time_seconds', 'deployment_external_id',
  'ai_attribution', 'ai_side', 'is_reverted', 'reverted_because', 'reverted_prs',
].map((m) => `pull_requests.${m}`));

/** Whether a query names a member of a cube that reads the stored facts. */
export function readsStoredFacts(q: ValidQuery): boolean {
  const members = [...q.measures, ...q.dimensions, ...q.segments, ...q.hiddenMeasures, ...q.timeDimensions.map((t) => t.dimension), ...q.order.map((o) => o.id), ...q.filters.flatMap(filterMembers)];
  return members.some((m) => STORED_FACT_CUBES.has(m.slice(0, m.indexOf('.'))) || STORED_FACT_MEMBERS.has(m.replace(/\.(day|week|month|quarter|year)$/, '')));
}

/** Why a chunk is run again: a deadlock, or a fact row whose deployment or PR was deleted after the chunk's snapshot (migration 0057). */
const RETRIED = new Set(['40P01', '23503']);
const LOCK_NOT_AVAILABLE = '55P03';
const STATEMENT_TIMEOUT = '57014';

/**
 * Notes a chunk takes (migration 0058): one transaction, and the longest a reader waits for another
 * catch-up of its tenant. Measured (docs/write-path.md): 2,000 notes take 0.2-0.7 s on a loaded
 * 2-core machine, at the same notes per second as chunks of 5,000 (whose longest took 1.6 s).
 */
export const CATCH_UP_CHUNK_NOTES = 2000;
/** A chunk's statement_timeout, so that a chunk whose client died cannot run on for long; some 50x a chunk's measured time. */
const CHUNK_TIMEOUT_MS = 30_000;

export interface CatchUpOptions {
  /** Notes per chunk (tests and the bench set it). */
  chunkNotes?: number;
  /** A chunk's statement_timeout (tests set it; default CHUNK_TIMEOUT_MS). */
  chunkTimeoutMs?: number;
  /** Called after each chunk committed: the notes it took and its time, its wait for the tenant's lock included. */
  onChunk?: (taken: number, ms: number) => void;
}

/**
 * Recomputes what the tenant's noted writes changed, in chunks of at most `chunkNotes` notes, the
 * oldest first, each committed on its own; returns how many notes it took (0, after one quick
 * lookup, when there are none). It catches up to the newest note it sees when it starts (every
 * write committed before then), not beyond: later writes are left for the next reader or the
 * schedule. Another catch-up of the tenant holds it up one chunk at a time. A failed chunk changes
 * nothing (its notes stay) and is run again with a new snapshot; committed chunks stay done, so a
 * catch-up cut short (a timeout, a killed instance) leaves the rest for the next one. It takes at
 * most the cube query timeout in all, then answers 504 like a query that ran too long.
 */
export async function catchUpDeliveryFacts(pool: pg.Pool, tenantId: string, options: CatchUpOptions = {}): Promise<number> {
  const { rows } = await pool.query<{ up_to: string | null }>('select max(seq)::text as up_to from delivery_facts_pending where tenant_id = $1', [tenantId]);
  const upTo = rows[0]?.up_to ?? null;
  if (upTo === null) return 0;
  const limitMs = Math.trunc(cubeSettings().queryTimeoutMs);
  const deadline = performance.now() + limitMs;
  // One catch-up of a tenant at a time per instance: readers arriving during a backlog wait for the
  // one in progress (it takes their notes too) instead of each queueing on the tenant's lock for a
  // chunk of their own, then run their own for what is left up to their upTo (usually nothing).
  const tenants = inProgress.get(pool) ?? new Map<string, Promise<unknown>>();
  inProgress.set(pool, tenants);
  const before = tenants.get(tenantId);
  const mine = (async () => {
    if (before) await waitUntil(before, deadline, limitMs);
    return catchUpTo(pool, tenantId, upTo, deadline, limitMs, options);
  })();
  tenants.set(tenantId, mine);
  try {
    return await mine;
  } finally {
    if (tenants.get(tenantId) === mine) tenants.delete(tenantId);
  }
}

/**
 * A reader's catch-up: it waits at most one chunk. With at most one chunk of notes pending (every
 * day's case: a few writes since the last read or the 5-second schedule) it catches them up, waiting
 * only for another catch-up's chunk in progress (the tenant's lock is taken per chunk), so its
 * answer holds every write committed before it began. With more (a bulk import, a backfill, a
 * backlog after an outage) it does not wait for them: it makes sure a catch-up of the tenant runs
 * on this instance (chunk by chunk, committing as it goes) and answers from the facts caught up so
 * far, which the answer says: the returned `pending` counts the notes not yet taken (capped at one
 * chunk and one), 0 when the answer is current. docs/write-path.md "A reader waits at most one chunk".
 */
export async function catchUpForRead(pool: pg.Pool, tenantId: string, options: CatchUpOptions = {}): Promise<{ pending: number }> {
  const chunk = Math.max(1, Math.trunc(options.chunkNotes ?? CATCH_UP_CHUNK_NOTES));
  const { rows } = await pool.query<{ n: number; up_to: string | null }>(
    'select count(*)::int as n, max(seq)::text as up_to from (select seq from delivery_facts_pending where tenant_id = $1 order by seq limit $2) p',
    [tenantId, chunk + 1],
  );
  const { n = 0, up_to: upTo = null } = rows[0] ?? {};
  if (upTo === null) return { pending: 0 };
  if (n > chunk) {
    const tenants = inProgress.get(pool);
    if (!tenants?.has(tenantId)) void catchUpDeliveryFacts(pool, tenantId, options).catch(() => {});
    return { pending: n };
  }
  const limitMs = Math.trunc(cubeSettings().queryTimeoutMs);
  await catchUpTo(pool, tenantId, upTo, performance.now() + limitMs, limitMs, { ...options, chunkNotes: chunk });
  return { pending: 0 };
}

/** The catch-up of each tenant in progress, per database handle (the last one started). */
const inProgress = new WeakMap<pg.Pool, Map<string, Promise<unknown>>>();

/** Waits for `work` to settle (its failure is its caller's), or throws the 504 at the deadline. */
async function waitUntil(work: Promise<unknown>, deadline: number, limitMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      work.then(() => {}, () => {}),
      new Promise((_resolve, reject) => { timer = setTimeout(() => reject(tooLong(limitMs)), Math.max(0, deadline - performance.now())); }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** Chunks up to `upTo` until one is not full. */
async function catchUpTo(pool: pg.Pool, tenantId: string, upTo: string, deadline: number, limitMs: number, options: CatchUpOptions): Promise<number> {
  let chunk = Math.max(1, Math.trunc(options.chunkNotes ?? CATCH_UP_CHUNK_NOTES));
  const chunkTimeoutMs = Math.trunc(options.chunkTimeoutMs ?? CHUNK_TIMEOUT_MS);
  let total = 0;
  for (let attempt = 1; ; ) {
    const leftMs = Math.trunc(deadline - performance.now());
    if (leftMs <= 0) throw tooLong(limitMs);
    const started = performance.now();
    let taken: number;
    try {
      taken = await catchUpChunk(pool, tenantId, upTo, chunk, leftMs, Math.min(leftMs, chunkTimeoutMs));
    } catch (error) {
      const code = (error as { code?: string }).code ?? '';
      if (code === LOCK_NOT_AVAILABLE || (code === STATEMENT_TIMEOUT && leftMs <= chunkTimeoutMs)) throw tooLong(limitMs);
      // A chunk too heavy for its timeout (notes that each reach many facts) is halved, not repeated.
      if (code === STATEMENT_TIMEOUT && chunk > 1) chunk = Math.ceil(chunk / 2);
      else if (!RETRIED.has(code) || attempt >= 3) throw error;
      attempt += 1;
      continue;
    }
    options.onChunk?.(taken, performance.now() - started);
    total += taken;
    // A chunk that was not full found no note up to upTo left after it (another catch-up's chunk
    // that took some had committed before this one's snapshot: it waited for its lock).
    if (taken < chunk) return total;
    attempt = 1;
  }
}

/**
 * One chunk in a transaction of its own: the tenant's lock first (waiting for another catch-up's
 * chunk at most leftMs), then the chunk under its own statement_timeout, which bounds what a killed
 * client's backend runs on and does not count the wait.
 */
async function catchUpChunk(pool: pg.Pool, tenantId: string, upTo: string, chunk: number, leftMs: number, timeoutMs: number): Promise<number> {
  const client = await pool.connect();
  let open = false;
  let broken = false;
  try {
    await client.query(`begin; set local lock_timeout = ${leftMs}; set local statement_timeout = ${leftMs}`);
    open = true;
    await client.query(`select pg_advisory_xact_lock(hashtextextended('delivery_facts:' || $1, 0))`, [tenantId]);
    await client.query(`set local lock_timeout = 0; set local statement_timeout = ${timeoutMs}`);
    const { rows } = await client.query<{ taken: number }>('select delivery_facts_catch_up($1, $2, $3, $4) as taken', [tenantId, leftMs, chunk, upTo]);
    await client.query('commit');
    open = false;
    return rows[0]?.taken ?? 0;
  } catch (error) {
    // A connection that cannot roll back (its backend ended) leaves the pool.
    if (open) await client.query('rollback').catch(() => { broken = true; });
    throw error;
  } finally {
    client.release(broken);
  }
}

const tooLong = (limitMs: number) =>
  new AppError('timeout', `The deployment facts are being brought up to date for more than ${limitMs / 1000} s (CUBE_QUERY_TIMEOUT_SECONDS); the work done so far is kept: try again shortly`);

/**
 * Every tenant with noted writes, caught up (the schedule; system scope: it spans tenants). A
 * tenant whose catch-up fails is counted and left for the next run; the others go on. Fewest notes
 * first, so that one tenant's flood of writes does not hold up the others' BI views.
 */
export async function catchUpAllDeliveryFacts(pool: pg.Pool): Promise<{ tenants: number; notes: number; failed: number }> {
  const { rows } = await pool.query<{ tenant_id: string }>('select tenant_id from delivery_facts_pending group by tenant_id order by count(*), tenant_id');
  let notes = 0;
  let failed = 0;
  for (const { tenant_id: tenantId } of rows) {
    try {
      notes += await catchUpDeliveryFacts(pool, tenantId);
    } catch {
      failed += 1;
    }
  }
  return { tenants: rows.length, notes, failed };
}
