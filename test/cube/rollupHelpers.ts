import type pg from 'pg';
import type { Queryable } from '../../src/cube/run.js';
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

/** A merged pull request of the fixture's project `projectKey` (test/cube/fixture.ts). */
export function insertMergedPr(db: Queryable, tenantId: string, pr: { externalId: string; number: number; created: string; merged: string; projectKey?: string }) {
  return db.query(
    `insert into pull_requests (tenant_id, project_id, external_id, number, title, state, created_at, merged_at)
     select tenant_id, id, $2, $3, 'x', 'merged', $4, $5 from projects where tenant_id = $1 and project_key = $6`,
    [tenantId, pr.externalId, pr.number, pr.created, pr.merged, pr.projectKey ?? 'acme/api'],
  );
}
