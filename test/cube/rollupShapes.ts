import type pg from 'pg';
import { loadCube } from '../../src/cube/compiler.js';
import { validateQuery } from '../../src/cube/query.js';
import { ROLLUPS } from '../../src/cube/rollups.js';
import { runQuery } from '../../src/cube/run.js';

/** Every rollup-shaped query (all its measures by team and month over `range`), keyed by cube. */
export async function rollupShapes(pool: pg.Pool, tenantId: string, range: [string, string], rollups: boolean): Promise<Record<string, unknown[]>> {
  const cube = await loadCube();
  const out: Record<string, unknown[]> = {};
  for (const r of ROLLUPS) {
    const q = validateQuery(cube, {
      measures: [...r.measures],
      dimensions: [r.dimension],
      timeDimensions: [{ dimension: r.time, granularity: 'month', dateRange: range }],
      order: [[r.time, 'asc'], [r.dimension, 'asc']],
    });
    out[r.cube] = await runQuery(pool, cube, tenantId, q, { rollups });
  }
  return out;
}
