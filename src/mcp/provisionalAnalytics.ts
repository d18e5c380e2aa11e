/**
 * PROVISIONAL analytics behind the MCP tools, until the semantic layer (src/cube, issue 8) is
 * wired in: two small "cubes" over the real issues and deployments tables, and a team baseline
 * with the two counts those tables give. Members are whitelisted here, values are bound
 * parameters, and the tenant is always the first parameter. Replace by an AnalyticsService over
 * src/cube/service.ts; the tools and their tests do not change.
 */
import type pg from 'pg';
import { z } from 'zod';
import { AppError } from '../errors.js';
import { zodDetails } from '../http/route.js';
import type { AnalyticsService, CubeInfo } from './tools.js';

interface Source {
  table: 'issues' | 'deployments';
  info: CubeInfo;
  measures: Record<string, string>;
  dimensions: Record<string, string>;
  times: Record<string, string>;
}

const PRODUCTION = "(t.is_production is true or (t.is_production is null and t.environment = 'production'))";

const SOURCES: Source[] = [
  {
    table: 'issues',
    info: {
      name: 'issues',
      title: 'Issues',
      description: 'Issues received through the webhook API or a tracker, one row per issue.',
      measures: [
        { name: 'issues.count', type: 'number', description: 'Number of issues' },
        { name: 'issues.closed_count', type: 'number', description: 'Number of issues with a close time' },
      ],
      dimensions: [
        { name: 'issues.state', type: 'string', description: 'open, closed or in_progress' },
        { name: 'issues.type', type: 'string', description: 'Issue type as sent' },
        { name: 'issues.project_key', type: 'string', description: 'Repository or project key' },
        { name: 'issues.created_at', type: 'time', description: 'When the issue was created' },
        { name: 'issues.closed_at', type: 'time', description: 'When the issue was closed' },
      ],
    },
    measures: { 'issues.count': 'count(*)', 'issues.closed_count': 'count(t.closed_at)' },
    dimensions: { 'issues.state': 't.state', 'issues.type': 't.type', 'issues.project_key': 'p.project_key' },
    times: { 'issues.created_at': 't.created_at', 'issues.closed_at': 't.closed_at' },
  },
  {
    table: 'deployments',
    info: {
      name: 'deployments',
      title: 'Deployments',
      description: 'Deployments received through the webhook API or a code host, one row per deployment.',
      measures: [
        { name: 'deployments.count', type: 'number', description: 'Number of deployments' },
        { name: 'deployments.production_deploys', type: 'number', description: 'Successful production deployments' },
      ],
      dimensions: [
        { name: 'deployments.environment', type: 'string', description: 'Target environment as sent' },
        { name: 'deployments.status', type: 'string', description: 'pending, queued, in_progress, success, failure, error or inactive' },
        { name: 'deployments.project_key', type: 'string', description: 'Repository or project key' },
        { name: 'deployments.created_at', type: 'time', description: 'When the deployment was created' },
      ],
    },
    measures: { 'deployments.count': 'count(*)', 'deployments.production_deploys': `count(*) filter (where t.status = 'success' and ${PRODUCTION})` },
    dimensions: { 'deployments.environment': 't.environment', 'deployments.status': 't.status', 'deployments.project_key': 'p.project_key' },
    times: { 'deployments.created_at': 't.created_at' },
  },
];

const Day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'YYYY-MM-DD');
const Query = z.strictObject({
  measures: z.array(z.string().max(200)).min(1).max(20),
  dimensions: z.array(z.string().max(200)).max(10).default([]),
  timeDimensions: z
    .array(z.strictObject({ dimension: z.string().max(200), granularity: z.enum(['day', 'week', 'month', 'quarter', 'year']).optional(), dateRange: z.tuple([Day, Day]).optional() }))
    .max(1)
    .default([]),
  limit: z.number().int().min(1).max(50_000).optional(),
});

const own = (record: Record<string, string>, key: string) => (Object.hasOwn(record, key) ? record[key] : undefined);

function plan(tenantId: string, input: unknown, rowCap: number): { sql: string; params: unknown[] } {
  const parsed = Query.safeParse(input);
  if (!parsed.success) throw new AppError('validation_failed', 'Invalid query', zodDetails(parsed.error, 'query'));
  const q = parsed.data;
  const time = q.timeDimensions[0];
  const names = [...q.measures, ...q.dimensions, ...(time ? [time.dimension] : [])];
  const cubes = new Set(names.map((n) => n.split('.')[0]));
  const source = cubes.size === 1 ? SOURCES.find((s) => s.table === [...cubes][0]) : undefined;
  const unknown = names.filter((n) => !SOURCES.some((s) => own(s.measures, n) ?? own(s.dimensions, n) ?? own(s.times, n)));
  if (unknown.length > 0) {
    throw new AppError('validation_failed', 'Unknown members (see cube_metadata)', unknown.map((n) => ({ path: 'query', message: `unknown member ${n}` })));
  }
  if (!source) throw new AppError('validation_failed', 'A query may use the members of one cube only (issues or deployments)');

  const params: unknown[] = [tenantId];
  const select: string[] = [];
  const where = ['t.tenant_id = $1'];
  q.dimensions.forEach((d) => {
    const expr = own(source.dimensions, d);
    if (!expr) throw new AppError('validation_failed', `${d} is not a dimension`);
    select.push(`${expr} as "${d}"`);
  });
  if (time) {
    const column = own(source.times, time.dimension);
    if (!column) throw new AppError('validation_failed', `${time.dimension} is not a time dimension`);
    if (time.granularity) select.push(`date_trunc('${time.granularity}', ${column} at time zone 'UTC') as "${time.dimension}.${time.granularity}"`);
    if (time.dateRange) {
      params.push(time.dateRange[0], time.dateRange[1]);
      where.push(`${column} >= $2::date and ${column} < $3::date + 1`);
    }
  }
  const groups = select.map((_, i) => String(i + 1));
  q.measures.forEach((m) => {
    const expr = own(source.measures, m);
    if (!expr) throw new AppError('validation_failed', `${m} is not a measure`);
    select.push(`${expr} as "${m}"`);
  });
  const limit = Math.min(q.limit ?? rowCap, rowCap) + 1;
  const sql =
    `select ${select.join(', ')} from ${source.table} t join projects p on p.id = t.project_id where ${where.join(' and ')}` +
    `${groups.length ? ` group by ${groups.join(', ')} order by ${groups.join(', ')}` : ''} limit ${limit}`;
  return { sql, params };
}

function monthsBetween(from: string, to: string): number {
  const [fy, fm] = from.split('-').map(Number) as [number, number];
  const [ty, tm] = to.split('-').map(Number) as [number, number];
  return (ty - fy) * 12 + (tm - fm) + 1;
}

export function provisionalAnalytics(pool: pg.Pool): AnalyticsService {
  return {
    async metadata() {
      return SOURCES.map((s) => s.info);
    },
    async query(tenantId, input, rowCap) {
      const { sql, params } = plan(tenantId, input, rowCap);
      const { rows } = await pool.query(sql, params);
      const cap = Math.min((input as { limit?: number }).limit ?? rowCap, rowCap);
      const shaped = rows.slice(0, cap).map((r: Record<string, unknown>) =>
        Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v instanceof Date ? v.toISOString().slice(0, 23) : v])),
      );
      return { rows: shaped, truncated: rows.length > cap };
    },
    async sql(tenantId, input) {
      return { statements: [plan(tenantId, input, 1000)] };
    },
    async teamBaseline(tenantId, { from, to }) {
      const months = monthsBetween(from, to);
      if (months < 1) throw new AppError('validation_failed', 'The window is reversed (from after to)');
      if (months > 36) throw new AppError('validation_failed', 'The window is longer than 36 months');
      const { rows } = await pool.query(
        `with months as (select generate_series($2::date, $3::date, interval '1 month') as m)
         select tm.id as team_id, to_char(months.m, 'YYYY-MM') as month, tm.slug as team_slug, tm.name as team_name,
           (select count(*) from issues i join projects p on p.id = i.project_id
             where i.tenant_id = $1 and p.owning_team_id = tm.id and i.closed_at >= months.m and i.closed_at < months.m + interval '1 month') as issues_closed,
           (select count(*) from deployments t join projects p on p.id = t.project_id
             where t.tenant_id = $1 and p.owning_team_id = tm.id and t.status = 'success' and ${PRODUCTION}
               and t.created_at >= months.m and t.created_at < months.m + interval '1 month') as production_deploys
         from teams tm cross join months where tm.tenant_id = $1 and tm.enabled order by tm.slug, months.m`,
        [tenantId, `${from}-01`, `${to}-01`],
      );
      return rows;
    },
  };
}
