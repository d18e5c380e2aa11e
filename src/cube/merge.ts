/**
 * Rows of several statements put together in the application: the sub-queries of a query over
 * several fact cubes (merged on the shared dimensions and the time bucket), and stored rollup
 * months next to months read from the facts. Ordering here is the SQL's own total order.
 */
import type { ValidQuery } from './query.js';
import type { Cell, Row } from './run.js';

/**
 * The query's order, or Cube's default when it has none (the first time dimension with a
 * granularity ascending; else, with measures and dimensions, the first measure descending; else the
 * first dimension), then every other selected dimension and time dimension ascending. Rows are
 * groups of those members, so the order is total: ties never leave the answer (or which rows a
 * limit keeps) to the plan, with or without rollups.
 */
export function totalOrder(q: ValidQuery): ValidQuery['order'] {
  const times = q.timeDimensions.filter((t) => t.granularity).map((t) => t.dimension);
  const [time] = times;
  const [measure] = q.measures;
  const [dimension] = q.dimensions;
  const base =
    q.order.length > 0 ? q.order
    : time ? [{ id: time, desc: false }]
    : measure && dimension ? [{ id: measure, desc: true }]
    : dimension ? [{ id: dimension, desc: false }]
    : [];
  const named = new Set(base.map((o) => o.id));
  return [...base, ...[...new Set([...q.dimensions, ...times])].filter((id) => !named.has(id)).map((id) => ({ id, desc: false }))];
}

const timeKeysOf = (q: ValidQuery) => q.timeDimensions.filter((t) => t.granularity).flatMap((t) => [`${t.dimension}.${t.granularity}`, t.dimension]);

/** Rows of one sub-query per fact cube, merged on the shared dimensions and the time bucket, in the query's order. */
export function mergeRows(q: ValidQuery, results: Row[][]): Row[] {
  const grain = q.timeDimensions.find((t) => t.granularity)?.granularity;
  const timeKeys = timeKeysOf(q);
  const merged = new Map<string, Row>();
  results.forEach((rows) => {
    for (const row of rows) {
      const bucket = timeKeys.map((k) => row[k]).find((v) => v !== undefined) ?? null;
      const key = JSON.stringify([...q.dimensions.map((d) => row[d] ?? null), grain ? bucket : null]);
      let target = merged.get(key);
      if (!target) {
        target = {};
        for (const d of q.dimensions) target[d] = row[d] ?? null;
        for (const k of timeKeys) target[k] = bucket;
        for (const m of q.measures) target[m] = null;
        merged.set(key, target);
      }
      for (const m of q.measures) if (m in row) target[m] = row[m] as Cell;
    }
  });
  return sortRows(q, [...merged.values()]);
}

/**
 * The query's total order (totalOrder), as the facts' SQL applies it. NULL sorts as in PostgreSQL:
 * above every value (last ascending, first descending).
 */
export function sortRows(q: ValidQuery, rows: Row[]): Row[] {
  const timeKeys = timeKeysOf(q);
  const order = totalOrder(q);
  return rows.sort((a, b) => {
    for (const { id, desc } of order) {
      const key = Object.hasOwn(a, id) ? id : (timeKeys.find((k) => k.startsWith(`${id}.`)) ?? id);
      const x = a[key] ?? null;
      const y = b[key] ?? null;
      if (x === y) continue;
      const ascending = x === null ? 1 : y === null ? -1 : x < y ? -1 : 1;
      return desc ? -ascending : ascending;
    }
    return 0;
  });
}
