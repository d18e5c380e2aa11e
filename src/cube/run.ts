/**
 * Runs validated queries on our pool: each statement in a read-only transaction whose
 * `statement_timeout` is the configured query timeout, a (sub-)query that a rollup can answer
 * partly from its stored months, several fact cubes merged, then one page of the rows.
 */
import { inTransaction } from '../db/transaction.js';
import type pg from 'pg';
import { AppError } from '../errors.js';
import type { CompiledCube } from './compiler.js';
import { mergeRows, sortRows } from './merge.js';
import { execute, plan, planQueries, type Plan, type Row } from './plan.js';
import type { ValidQuery } from './query.js';
import { forMonths, matchRollup, monthRuns, readRollupCheck, rollupCheckSql, rowMonth } from './rollups.js';

type RollupMatch = NonNullable<ReturnType<typeof matchRollup>>;
type RollupCheckRow = Parameters<typeof readRollupCheck>[0][number];
import { cubeSettings } from './settings.js';
import { catchUpForRead, readsStoredFacts } from './deliveryFacts.js';

export type { Cell, Queryable, Row } from './plan.js';
export { execute, plan, planQueries };

/** A rollup that answered some months of a query (Cube's `usedPreAggregations`). */
export interface UsedRollup {
  cube: string;
  /** The stored months (YYYY-MM) read instead of the facts. */
  months: string[];
}

export interface RunResult {
  /** The page of rows the query asked for (offset, limit). */
  rows: Row[];
  /** Rows without offset or limit (Cube's `total`). */
  total: number;
  rollups: UsedRollup[];
}

const QUERY_CANCELED = '57014';

/**
 * One read-only transaction with the cube layer's statement timeout. REPEATABLE READ: which
 * stored months are current, their rows and the months read from the facts all come from one
 * snapshot, so a write committing meanwhile is either wholly in the answer or wholly out of it;
 * except that the stored delivery facts are current as of the catch-up just before (deliveryFacts.ts),
 * so a deployment committing between the two may show its own columns before its facts.
 */
async function readOnly<T>(pool: pg.Pool, work: (client: pg.PoolClient, first: pg.QueryResult | null) => Promise<T>, first?: string, serial = false): Promise<T> {
  try {
    // One round trip for the opening, the timeout and the first read when there is one (a simple
    // query of several statements); the timeout is an integer from the configuration, never
    // client input, and the first read's values are written in as literals (rollupCheckSql).
    // `serial`: no parallel workers (LoadOptions.serial).
    const open = `begin isolation level repeatable read read only; set local statement_timeout = ${Math.trunc(cubeSettings().queryTimeoutMs)}${serial ? '; set local max_parallel_workers_per_gather = 0' : ''}`;
    return await inTransaction(pool, (client, opened) => work(client, first ? (opened[serial ? 3 : 2] ?? null) : null), first ? `${open}; ${first}` : open);
  } catch (error) {
    if ((error as { code?: string }).code === QUERY_CANCELED) {
      const seconds = cubeSettings().queryTimeoutMs / 1000;
      throw new AppError('timeout', `The query ran longer than ${seconds} s (CUBE_QUERY_TIMEOUT_SECONDS) and was cancelled; narrow its date range or its members`);
    }
    throw error;
  }
}

/** The query with the measures it only orders by, so they are computed and sorted on. */
const withHidden = (q: ValidQuery): ValidQuery => (q.hiddenMeasures.length === 0 ? q : { ...q, measures: [...q.measures, ...q.hiddenMeasures], hiddenMeasures: [] });

/**
 * Runs a validated query for the tenant: the page of rows (keyed by member names, numbers as
 * numbers), the total and the rollups used. A (sub-)query that a rollup can answer takes its
 * current months from the rollup and plans only the other months against the facts
 * (`rollups: false` reads everything from the facts).
 */
export async function loadRows(pool: pg.Pool, cube: CompiledCube, tenantId: string, q: ValidQuery, options: { rollups?: boolean; serial?: boolean } = {}): Promise<RunResult> {
  const full = withHidden(q);
  const plans = planQueries(cube, tenantId, full);
  // Committed before the read-only transaction opens, so its snapshot holds the recomputed facts
  // (at most one chunk waited for: a larger backlog is caught up behind the answer).
  if (readsStoredFacts(full)) await catchUpForRead(pool, tenantId);
  const results = await Promise.all(plans.map((p) => {
    const match = options.rollups === false ? null : matchRollup(p.query);
    if (!match) return readOnly(pool, (client) => facts(client, p), undefined, options.serial);
    // The rollup check is read in the round trip that opens the transaction.
    return readOnly(pool, (client, check) => withRollups(client, cube, tenantId, p, match, readRollupCheck((check?.rows ?? []) as RollupCheckRow[], match.months)),
      rollupCheckSql(tenantId, match.rollup.cube, match.months), options.serial);
  }));
  const all = plans.length === 1 ? (results[0] as PlanRows).rows : mergeRows(full, results.map((r) => r.rows));
  const offset = q.offset ?? 0;
  const rows = all.slice(offset, offset + q.limit);
  if (q.hiddenMeasures.length > 0) for (const row of rows) for (const m of q.hiddenMeasures) delete row[m];
  return { rows, total: all.length, rollups: results.flatMap((r) => r.rollups) };
}

/** The page of rows of a validated query (see loadRows). */
export async function runQuery(pool: pg.Pool, cube: CompiledCube, tenantId: string, q: ValidQuery, options: { rollups?: boolean } = {}): Promise<Row[]> {
  return (await loadRows(pool, cube, tenantId, q, options)).rows;
}

interface PlanRows {
  rows: Row[];
  rollups: UsedRollup[];
}

async function facts(client: pg.PoolClient, p: Plan): Promise<PlanRows> {
  return { rows: await execute(client, p), rollups: [] };
}

async function withRollups(client: pg.PoolClient, cube: CompiledCube, tenantId: string, p: Plan, match: RollupMatch, stored: Map<string, Row[]>): Promise<PlanRows> {
  const last = match.months.at(-1) as string;
  if (stored.size === 0) return facts(client, p);
  const missing = match.months.filter((m) => !stored.has(m));
  const rows: Row[] = [];
  // Only the columns the query asks for, in the order `execute` gives them.
  const keys = p.columns.flatMap((c) => c.keys);
  for (const month of stored.values()) for (const row of month) rows.push(Object.fromEntries(keys.map((k) => [k, row[k] ?? null])));
  for (const run of monthRuns(missing)) {
    const whole = run.at(-1) !== last;
    const fromFacts = await execute(client, plan(cube, tenantId, forMonths(p.query, run, whole), p.cube, []));
    rows.push(...fromFacts.filter((row) => run.includes(rowMonth(match.rollup, row))));
  }
  return { rows: sortRows(p.query, rows), rollups: [{ cube: match.rollup.cube, months: [...stored.keys()].sort() }] };
}
