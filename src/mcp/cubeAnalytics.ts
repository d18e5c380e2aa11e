/**
 * The MCP tools' AnalyticsService over the semantic layer: the same validated service functions as
 * the Cube REST API and the team-baseline export (src/cube/service.ts, src/exports/baseline.ts,
 * src/benchmarks/comparison.ts), always with the principal's tenant.
 */
import type pg from 'pg';
import { loadCube } from '../cube/compiler.js';
import { cubeLoad, cubeMeta, cubeSql } from '../cube/service.js';
import { memberFormat, type MetaMember } from '../cube/compiler.js';
import { AppError, zodDetails } from '../errors.js';
import { baselineRows } from '../exports/baseline.js';
import { checkWindow, MonthWindow, resolveWindow } from '../shared/monthWindow.js';
import { teamBenchmark, type Benchmark } from '../benchmarks/comparison.js';
import { teamOssBenchmark, type OssBenchmark } from '../benchmarks/service.js';
import { catalogueOf, type Catalogue } from './catalogue.js';
import { listFacts } from '../facts/service.js';
import { aiImpact } from '../aiImpact/service.js';
import { presentAiImpact, type AiImpactBody } from '../aiImpact/presenters.js';
import { AiImpactQuery } from '../aiImpact/schemas.js';
import type { FactsPage } from '../facts/presenters.js';

export interface CubeMember {
  name: string;
  title?: string;
  description?: string;
  type: string;
  /** `id`: the dimension holds UUIDs; filter it with equals, notEquals, set or notSet only. */
  format?: string;
}

export interface CubeInfo {
  name: string;
  title?: string;
  description?: string;
  measures: CubeMember[];
  dimensions: CubeMember[];
}

export type Cell = string | number | boolean | null;

export interface QueryRows {
  rows: Record<string, Cell>[];
  truncated: boolean;
}

/** What the tools need from the semantic layer; every call with data is scoped to `tenantId`. */
export interface AnalyticsService {
  catalogue(): Promise<Catalogue>;
  metadata(): Promise<CubeInfo[]>;
  query(tenantId: string, query: unknown, rowCap: number): Promise<QueryRows>;
  sql(tenantId: string, query: unknown): Promise<{ statements: { cube: string | null; sql: string; params: unknown[] }[] }>;
  teamBaseline(tenantId: string, window: { from?: string; to?: string }): Promise<Record<string, unknown>[]>;
  /** Distinct non-empty values of a dimension in the tenant's data, in order; `match` keeps those containing (or starting with) it. */
  dimensionValues(tenantId: string, dimension: string, options: { match?: string; prefix?: boolean; limit: number }): Promise<{ values: string[]; truncated: boolean }>;
  teamBenchmark(tenantId: string, team: string, window: { from?: string; to?: string }): Promise<Benchmark>;
  /** The team's percentile among open-source repositories (docs/benchmarks.md). */
  teamOssBenchmark(tenantId: string, team: string, window: { from?: string; to?: string }): Promise<OssBenchmark>;
  /** One page of the facts behind a measure (src/facts/service.ts). */
  facts(tenantId: string, scope: { measure: string; from?: string; to?: string; team?: string; page: number; replaced?: boolean }): Promise<FactsPage>;
  /** AI-assisted against not, and before/after adoption, as GET /api/ai-impact answers it (src/aiImpact). */
  aiImpact(tenantId: string, scope: { team?: string; from?: string; to?: string }): Promise<AiImpactBody['data']>;
}

const Window = MonthWindow.superRefine(checkWindow);

function checkedWindow(window: { from?: string; to?: string }) {
  const parsed = Window.safeParse(window);
  if (!parsed.success) throw new AppError('validation_failed', 'Invalid window', zodDetails(parsed.error));
  return parsed.data;
}

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
    async catalogue() {
      return catalogueOf(await loadCube());
    },
    async metadata() {
      const { cubes } = await cubeMeta();
      return cubes.map((c) => ({
        name: c.name,
        ...(c.title ? { title: c.title } : {}),
        ...(c.description ? { description: c.description } : {}),
        measures: c.measures.filter((m) => m.public !== false).map(member),
        dimensions: c.dimensions.filter((d) => d.public !== false).map(member),
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
      return baselineRows(pool, tenantId, resolveWindow(checkedWindow(window)));
    },
    async dimensionValues(tenantId, dimension, { match, prefix, limit }) {
      const filters: Record<string, unknown>[] = [{ member: dimension, operator: 'set' }];
      if (match) filters.push({ member: dimension, operator: prefix ? 'startsWith' : 'contains', values: [match] });
      const { data } = await cubeLoad(pool, { tenantId }, { dimensions: [dimension], filters, order: [[dimension, 'asc']], limit: limit + 1 });
      const values = data.map((row) => row[dimension]).filter((v) => v !== null).map(String);
      return { values: values.slice(0, limit), truncated: values.length > limit };
    },
    async teamBenchmark(tenantId, team, window) {
      return teamBenchmark(pool, tenantId, team, checkedWindow(window));
    },
    async teamOssBenchmark(tenantId, team, window) {
      return teamOssBenchmark(pool, tenantId, team, checkedWindow(window));
    },
    async facts(tenantId, scope) {
      return listFacts(pool, tenantId, { ...scope, ...checkedWindow({ from: scope.from, to: scope.to }) });
    },
    async aiImpact(tenantId, scope) {
      const parsed = AiImpactQuery.safeParse(scope);
      if (!parsed.success) throw new AppError('validation_failed', 'Invalid AI impact query', zodDetails(parsed.error));
      return presentAiImpact(await aiImpact(pool, tenantId, parsed.data)).data;
    },
  };
}
