import { inTransaction } from "../db/transaction.js";
import { AppError } from "../errors.js";
import { mergeRows, sortRows } from "./merge.js";
import { execute, plan, planQueries } from "./plan.js";
import { currentMonths, factsAfterRangeEnd, forMonths, matchRollup, monthRuns, rowMonth } from "./rollups.js";
import { cubeSettings } from "./settings.js";
const QUERY_CANCELED = "57014";
async function readOnly(pool, work) {
  try {
    return await inTransaction(pool, work, `begin isolation level repeatable read read only; set local statement_timeout = ${Math.trunc(cubeSettings().queryTimeoutMs)}`);
  } catch (error) {
    if (error.code === QUERY_CANCELED) {
      const seconds = cubeSettings().queryTimeoutMs / 1e3;
      throw new AppError("timeout", `The query ran longer than ${seconds} s (CUBE_QUERY_TIMEOUT_SECONDS) and was cancelled; narrow its date range or its members`);
    }
    throw error;
  }
}
const withHidden = (q) => q.hiddenMeasures.length === 0 ? q : { ...q, measures: [...q.measures, ...q.hiddenMeasures], hiddenMeasures: [] };
async function loadRows(pool, cube, tenantId, q, options = {}) {
  const full = withHidden(q);
  const plans = planQueries(cube, tenantId, full);
  const results = await Promise.all(plans.map((p) => readOnly(pool, (client) => options.rollups === false ? facts(client, p) : withRollups(client, cube, tenantId, p))));
  const all = plans.length === 1 ? results[0].rows : mergeRows(full, results.map((r) => r.rows));
  const offset = q.offset ?? 0;
  const rows = all.slice(offset, offset + q.limit);
  if (q.hiddenMeasures.length > 0) for (const row of rows) for (const m of q.hiddenMeasures) delete row[m];
  return { rows, total: all.length, rollups: results.flatMap((r) => r.rollups) };
}
async function runQuery(pool, cube, tenantId, q, options = {}) {
  return (await loadRows(pool, cube, tenantId, q, options)).rows;
}
async function facts(client, p) {
  return { rows: await execute(client, p), rollups: [] };
}
async function withRollups(client, cube, tenantId, p) {
  const match = matchRollup(p.query);
  if (!match) return facts(client, p);
  const stored = await currentMonths(client, tenantId, match.rollup.cube, match.months);
  const last = match.months.at(-1);
  if (stored.has(last) && await factsAfterRangeEnd(client, tenantId, last)) stored.delete(last);
  if (stored.size === 0) return facts(client, p);
  const missing = match.months.filter((m) => !stored.has(m));
  const rows = [];
  const keys = p.columns.flatMap((c) => c.keys);
  for (const month of stored.values()) for (const row of month) rows.push(Object.fromEntries(keys.map((k) => [k, row[k] ?? null])));
  for (const run of monthRuns(missing)) {
    const whole = run.at(-1) !== last;
    const fromFacts = await execute(client, plan(cube, tenantId, forMonths(p.query, run, whole), p.cube, []));
    rows.push(...fromFacts.filter((row) => run.includes(rowMonth(match.rollup, row))));
  }
  return { rows: sortRows(p.query, rows), rollups: [{ cube: match.rollup.cube, months: [...stored.keys()].sort() }] };
}
export {
  execute,
  loadRows,
  plan,
  planQueries,
  runQuery
};
