/**
 * pg-boss wiring. pg-boss keeps its tables in its own schema (`pgboss`); we never let a serving
 * instance create or change them: `delivery-analytics migrate` installs or upgrades that schema
 * and creates one queue per catalog entry (see `installJobQueues`), and `serve` only checks that
 * both are there (`checkJobQueues`). pg-boss runs over our own `pg` pools through its `db`
 * adapter, so connections, names and error handling stay ours.
 *
 * What we use of pg-boss: its job table and SQL (SKIP LOCKED claims, retries with the retry
 * limit and delay of each queue, expiry of jobs held by a dead instance, archive and deletion).
 * What we do ourselves: the worker loop (per-queue and workflow concurrency, draining, see
 * runner.ts) and schedules (per-window claims, see scheduler.ts), because pg-boss 10's `work()`
 * has no shared concurrency limit and its cron claims whole minutes only.
 */
import PgBoss from 'pg-boss';
import { createRequire } from 'node:module';
import pg from 'pg';
import type { JobDefinition } from './define.js';

export const BOSS_SCHEMA = 'pgboss';

/** Anything that runs a query: a pool or a client inside a transaction. */
export interface Executor {
  query(text: string, values?: unknown[]): Promise<{ rows: any[] }>;
}

export interface BossOptions {
  retentionDays?: number;
  migrate?: boolean;
}

/**
 * A pg-boss instance over one of our pools or clients. Finished jobs move to `pgboss.archive`
 * one hour after they finish and are deleted `retentionDays` after that (the `jobs.retention`
 * schedule runs both steps; pg-boss's own supervisor and cron stay off).
 */
export function bossOver(executor: Executor, options: BossOptions = {}): PgBoss {
  return new PgBoss({
    db: { executeSql: (text: string, values: any[]) => executor.query(text, values) },
    schema: BOSS_SCHEMA,
    migrate: options.migrate ?? false,
    supervise: false,
    schedule: false,
    archiveCompletedAfterSeconds: 3600,
    deleteAfterDays: options.retentionDays ?? 7,
  });
}

/** pg-boss's options for one queue, from its catalog entry. */
function queueOptions(def: JobDefinition): PgBoss.Queue {
  return {
    name: def.name,
    policy: 'standard',
    retryLimit: def.retryLimit,
    retryDelay: def.retryDelaySeconds,
    retryBackoff: def.retryDelaySeconds > 0,
    expireInSeconds: def.expireInSeconds,
  };
}

/**
 * Installs or upgrades pg-boss's schema and creates or updates every queue. Idempotent; part of
 * `runMigrations`, so it runs under the migration advisory lock (pg-boss takes its own lock too).
 */
export async function installJobQueues(executor: Executor | pg.Pool, defs: readonly JobDefinition[]): Promise<void> {
  // Concurrent queue creation deadlocks (it creates and attaches a partition): one at a time.
  const own = executor instanceof pg.Pool ? await executor.connect() : null;
  const client: Executor = own ?? executor;
  try {
    await client.query('select pg_advisory_lock($1)', [INSTALL_LOCK]);
    try {
      const boss = bossOver(client, { migrate: true });
      boss.on('error', () => {});
      await boss.start();
      try {
        for (const def of defs) {
          await boss.createQueue(def.name, queueOptions(def));
          await boss.updateQueue(def.name, queueOptions(def));
        }
      } finally {
        await boss.stop({ graceful: false, close: false });
      }
    } finally {
      await client.query('select pg_advisory_unlock($1)', [INSTALL_LOCK]);
    }
  } finally {
    own?.release();
  }
}

// Any constant; the same in every process.
const INSTALL_LOCK = 4_127_301_560;

export class JobSchemaBehindError extends Error {
  constructor(readonly missing: string[]) {
    super(`job queues are not installed: ${missing.join(', ')} (run "delivery-analytics migrate")`);
  }
}

/** Throws JobSchemaBehindError when pg-boss's schema or one of the catalog's queues is missing. */
export async function checkJobQueues(pool: pg.Pool, defs: readonly JobDefinition[]): Promise<void> {
  const installed = await pool.query<{ present: boolean }>(`select to_regclass('${BOSS_SCHEMA}.version') is not null as present`);
  if (!installed.rows[0]?.present) throw new JobSchemaBehindError([`${BOSS_SCHEMA} schema`]);
  const version = await pool.query<{ version: number }>(`select version from ${BOSS_SCHEMA}.version`);
  const expected = await bundledBossVersion();
  if (version.rows[0]?.version !== expected) throw new JobSchemaBehindError([`${BOSS_SCHEMA} schema version ${expected}`]);
  const names = defs.map((d) => d.name);
  const found = await pool.query<{ name: string }>(`select name from ${BOSS_SCHEMA}.queue where name = any($1::text[])`, [names]);
  const present = new Set(found.rows.map((r) => r.name));
  const missing = names.filter((n) => !present.has(n));
  if (missing.length > 0) throw new JobSchemaBehindError(missing);
}

let bossVersion: number | null = null;
async function bundledBossVersion(): Promise<number> {
  if (bossVersion === null) {
    bossVersion = (createRequire(import.meta.url)('pg-boss/version.json') as { schema: number }).schema;
  }
  return bossVersion;
}

/** A pool: runs a named (prepared) statement on whichever connection it hands out. */
export interface PreparingExecutor {
  query(config: { name: string; text: string }): Promise<{ rows: any[] }>;
}

/**
 * Which of these queues have a job ready to claim (pg-boss's own test in its fetch: created or
 * retry, due): one query for every queue, where each queue's fetch is one query of its own.
 *
 * The planner's cost, not the scan's, is what this query was: pgboss.job has one partition per
 * queue, and `name = any($1)` over every queue's name made each poll plan every partition against
 * the whole list (12–27 ms of planning a call, 0.2 ms of execution). Without the name list and
 * without parameters, the named statement is planned once per connection (a generic plan) and only
 * executed after that; the names are filtered here. Its plan is replanned by PostgreSQL itself
 * when a partition is attached or dropped. docs/benchmarks/2026-11-29-pg-planning.md
 */
export async function queuesWithWork(executor: PreparingExecutor, names: readonly string[]): Promise<Set<string>> {
  const result = await executor.query({
    name: 'jobs.queues-with-work',
    text: `select distinct name from ${BOSS_SCHEMA}.job where state < 'active' and start_after < now()`,
  });
  const wanted = new Set(names);
  return new Set(result.rows.map((r: { name: string }) => r.name).filter((name) => wanted.has(name)));
}

/**
 * pg-boss's expiry sweep (its `expire()`: jobs held past their expiry become retries, or fail when
 * out of retries), pg-boss's own SQL and lock, run as a named statement. pg-boss sends it as one
 * unprepared string, so PostgreSQL planned its DELETE … INSERT over every partition on each run:
 * 15–20 ms warm, 100–450 ms on a busy machine, every 30 s (every second under TEST_HOOKS). Named and
 * without parameters, it is planned once per connection. docs/benchmarks/2026-11-29-pg-planning.md
 */
export async function sweepExpiredJobs(pool: pg.Pool): Promise<void> {
  const plans = bossPlans();
  // pg-boss's transaction around it: its lock and timeouts, as in its `locked()`.
  const mark = '/* the sweep */';
  const [prologue, epilogue] = plans.locked(BOSS_SCHEMA, mark).split(mark) as [string, string];
  const client = await pool.connect();
  try {
    try {
      await client.query(prologue);
      await client.query({ name: 'jobs.expire', text: plans.failJobsByTimeout(BOSS_SCHEMA) });
      await client.query(epilogue);
    } catch (error) {
      await client.query('rollback').catch(() => {});
      throw error;
    }
  } finally {
    client.release();
  }
}

interface BossPlans {
  locked(schema: string, query: string): string;
  failJobsByTimeout(schema: string): string;
}

let plansModule: BossPlans | null = null;
/** pg-boss's SQL builders (pinned version; not part of its typed API). */
function bossPlans(): BossPlans {
  plansModule ??= createRequire(import.meta.url)('pg-boss/src/plans.js') as BossPlans;
  return plansModule;
}

/**
 * Puts jobs this instance holds back in the queue as if never started (state `created`, no retry
 * used up): a drain is not the job's fault. Depends on pg-boss 10's job table (pinned version).
 */
export async function returnJobs(executor: Executor, name: string, ids: string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const result = await executor.query(
    `update ${BOSS_SCHEMA}.job set state = 'created', started_on = null, start_after = now()
      where name = $1 and id = any($2::uuid[]) and state = 'active' returning id`,
    [name, ids],
  );
  return result.rows.length;
}
