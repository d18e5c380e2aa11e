/**
 * The MCP tools' AnalyticsService over the semantic layer: the same validated service functions as
 * the Cube REST API and the team-baseline export (src/cube/service.ts, src/services/baseline.ts),
 * always with the principal's tenant.
 */
import type pg from 'pg';
import { cubeLoad, cubeMeta, cubeSql } from '../cube/service.js';
import { memberFormat, type MetaMember } from '../cube/compiler.js';
import { AppError } from '../errors.js';
import { zodDetails } from '../http/route.js';
import { baselineRows, BaselineWindow, checkWindow, resolveWindow } from '../services/baseline.js';
import type { AnalyticsService, CubeMember } from './tools.js';

const Window = BaselineWindow.superRefine(checkWindow);

function member(m: MetaMember): CubeMember {
  const format = memberFormat(m);
  return {
    name: m.name,
    type: m.type,
    // Cube prefixes titles with the cube's own; the short title reads better next to the cube.
    ...(m.shortTitle ?? m.title ? { title: (m.shortTitle ?? m.title) as string } : {}),
    ...(m.description ? { description: m.description } : {}),
    // An assistant needs to know which dimensions take only UUIDs (anything else is a 400).
    ...(format ? { format } : {}),
  };
}

/**
 * The row cap is applied through the query's own limit (one more row than the cap tells whether
 * more exist); a smaller limit of the caller is kept. Anything that is not a plain object is left
 * to the validator, which explains what is wrong with it.
 */
function capped(input: unknown, rowCap: number): { query: unknown; cap: number } {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return { query: input, cap: rowCap };
  const asked = (input as { limit?: unknown }).limit;
  if (asked !== undefined && typeof asked !== 'number') return { query: input, cap: rowCap };
  const cap = Math.min(typeof asked === 'number' && asked > 0 ? asked : rowCap, rowCap);
  return { query: { ...input, limit: cap + 1 }, cap };
}

export function cubeAnalytics(pool: pg.Pool): AnalyticsService {
  return {
    async metadata() {
      const { cubes } = await cubeMeta();
      return cubes.map((c) => ({
        name: c.name,
        ...(c.title ? { title: c.title } : {}),
        ...(c.description ? { description: c.description } : {}),
        measures: c.measures.map(member),
        dimensions: c.dimensions.map(member),
      }));
    },
    async query(tenantId, input, rowCap) {
      const { query, cap } = capped(input, rowCap);
      const { data } = await cubeLoad(pool, { tenantId }, query);
      return { rows: data.slice(0, cap), truncated: data.length > cap };
    },
    async sql(tenantId, input) {
      const { statements } = await cubeSql({ tenantId }, input);
      return { statements };
    },
    async teamBaseline(tenantId, window) {
      const parsed = Window.safeParse(window);
      if (!parsed.success) throw new AppError('validation_failed', 'Invalid window', zodDetails(parsed.error));
      return baselineRows(pool, tenantId, resolveWindow(parsed.data));
    },
  };
}
