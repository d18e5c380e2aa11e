/**
 * The team-baseline export (spec "Team baseline row", "Exports"), built once for the endpoint,
 * `export:team-baseline` and MCP. Every measure comes from the cubes (one query per fact cube,
 * grouped by team and month); this file adds only the enabled-team × month grid, the register
 * columns and the AI value assessment that combines three cubes' measures.
 */
import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import { SAFE_CSV } from '../shared/csv.js';
import { jsonText, type JsonText } from '../http/route.js';
import type pg from 'pg';
import { loadCube, type CompiledCube } from '../cube/compiler.js';
import { validateQuery } from '../cube/query.js';
import { runQuery, type Row } from '../cube/run.js';
import { lastDay, monthRange, resolveWindow } from '../shared/monthWindow.js';
import type { BaselineQuery } from './schemas.js';

export const BASELINE_COLUMNS = [
  'team_id', 'month', 'team_slug', 'team_name', 'team_external_ref', 'cost_centre_code', 'org_unit_id', 'org_unit_slug',
  'supplier_name', 'delivery_model', 'location_country', 'headcount', 'internal_headcount', 'external_headcount',
  'headcount_by_supplier', 'active_authors', 'issues_closed', 'prs_merged', 'pr_cycle_time_p50_seconds',
  'issue_lead_time_p50_seconds', 'production_deploys', 'change_failure_rate', 'mttr_p50_seconds', 'ceu_total', 'ccv_total',
  'ai_assisted_pr_share', 'ai_seat_holders', 'ai_active_users', 'ai_sessions', 'ai_commits', 'survey_response_rate',
  'team_experience_score', 'aiva_light_overall', 'aiva_scope',
] as const;
export type BaselineColumn = (typeof BASELINE_COLUMNS)[number];
export type BaselineRow = Record<BaselineColumn, string | number | null | Record<string, number>>;

/** Which cube measures fill which columns, per fact cube: [measure, column, kind]. */
export type Kind = 'count' | 'seconds' | 'ratio' | 'score';
/** Also the source of `bi.team_month` (src/bi/teamMonth.ts), which must equal the export. */
export const BASELINE_FACTS: { team: string; time: string; measures: [string, BaselineColumn, Kind][] }[] = [
  { team: 'author_activity.team_id', time: 'author_activity.happened_at', measures: [['author_activity.active_authors', 'active_authors', 'count']] },
  {
    team: 'projects.owning_team_id', time: 'issues.closed_at',
    measures: [['issues.issues_closed', 'issues_closed', 'count'], ['issues.issue_lead_time_p50_seconds', 'issue_lead_time_p50_seconds', 'seconds']],
  },
  {
    team: 'pull_requests.team_id', time: 'pull_requests.merged_at',
    measures: [
      ['pull_requests.prs_merged', 'prs_merged', 'count'], ['pull_requests.pr_cycle_time_p50_seconds', 'pr_cycle_time_p50_seconds', 'seconds'],
      ['pull_requests.ceu_total', 'ceu_total', 'count'], ['pull_requests.ccv_total', 'ccv_total', 'count'],
      ['pull_requests.ai_assisted_pr_share', 'ai_assisted_pr_share', 'ratio'],
    ],
  },
  {
    team: 'deployments.team_id', time: 'deployments.created_at',
    measures: [['deployments.production_deploys', 'production_deploys', 'count'], ['deployments.change_failure_rate', 'change_failure_rate', 'ratio']],
  },
  { team: 'incidents.team_id', time: 'incidents.closed_at', measures: [['incidents.mttr_p50_seconds', 'mttr_p50_seconds', 'seconds']] },
  { team: 'seats.team_id', time: 'seats.month', measures: [['seats.ai_seat_holders', 'ai_seat_holders', 'count']] },
  {
    team: 'ai_sessions.team_id', time: 'ai_sessions.started_at',
    measures: [['ai_sessions.ai_active_users', 'ai_active_users', 'count'], ['ai_sessions.ai_sessions', 'ai_sessions', 'count']],
  },
  { team: 'ai_commits.team_id', time: 'ai_commits.committed_at', measures: [['ai_commits.ai_commits', 'ai_commits', 'count']] },
  {
    team: 'survey_responses.team_id', time: 'survey_responses.month',
    measures: [['survey_responses.survey_response_rate', 'survey_response_rate', 'ratio'], ['survey_responses.team_experience_score', 'team_experience_score', 'score']],
  },
];

const round = (value: number, decimals: number) => {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
};

function format(value: number | null, kind: Kind): number | null {
  if (value === null || value === undefined) return kind === 'count' ? 0 : null;
  if (kind === 'count' || kind === 'seconds') return Math.round(value);
  return round(value, kind === 'ratio' ? 4 : 2);
}

/** Rows a query of the grid may return; far above any tenant's teams × 36 months. */
const GRID_LIMIT = 10_000_000;

interface TeamInfo {
  id: string;
  slug: string;
  name: string;
  external_ref: string | null;
  cost_centre_code: string | null;
  org_unit_id: string | null;
  org_unit_slug: string | null;
  supplier_name: string | null;
  delivery_model: string | null;
  location_country: string | null;
}

interface Headcount {
  headcount: number;
  internal_headcount: number;
  external_headcount: number;
  by_supplier: Record<string, number>;
}

/** Enabled teams in slug order (byte order, like the roster) with their register attributes. */
async function teamsOf(pool: pg.Pool, tenantId: string): Promise<TeamInfo[]> {
  const result = await pool.query<TeamInfo>(
    `select t.id, t.slug, t.name, t.external_ref, t.cost_centre_code, t.org_unit_id, o.slug as org_unit_slug, t.supplier_name,
            t.delivery_model, t.location_country
     from teams t
     left join org_units o on o.id = t.org_unit_id and o.tenant_id = $1
     where t.tenant_id = $1 and t.enabled
     order by t.slug collate "C"`,
    [tenantId],
  );
  return result.rows;
}

/** The memberships cube's queries behind the register columns (also read by `bi.team_month`). */
export const HEADCOUNT_QUERIES = {
  totals: { measures: ['memberships.register_headcount', 'memberships.internal_headcount', 'memberships.external_headcount'], dimensions: ['memberships.team_id'] },
  bySupplier: {
    measures: ['memberships.external_headcount'],
    dimensions: ['memberships.team_id', 'people.supplier_name'],
    filters: [{ member: 'memberships.membership_source', operator: 'equals', values: ['register'] }, { member: 'people.employment_type', operator: 'equals', values: ['supplier'] }],
  },
} as const;

/**
 * The register columns of every team, read from the memberships cube (METRICS.md "Register
 * columns"): `register_headcount` and its splits, and the supplier members by supplier name
 * (`unknown` when the register names none). Manual memberships added since the last import count
 * for attribution, not here. No history is kept.
 */
async function headcounts(pool: pg.Pool, cube: CompiledCube, tenantId: string): Promise<Map<string, Headcount>> {
  const grid = (query: object) => {
    const q = validateQuery(cube, query);
    q.limit = GRID_LIMIT;
    return runQuery(pool, cube, tenantId, q);
  };
  const [totals, suppliers] = await Promise.all([grid(HEADCOUNT_QUERIES.totals), grid(HEADCOUNT_QUERIES.bySupplier)]);
  const byTeam = new Map<string, Headcount>();
  for (const row of totals) {
    byTeam.set(String(row['memberships.team_id']), {
      headcount: Number(row['memberships.register_headcount']),
      internal_headcount: Number(row['memberships.internal_headcount']),
      external_headcount: Number(row['memberships.external_headcount']),
      by_supplier: {},
    });
  }
  for (const row of suppliers) {
    const team = byTeam.get(String(row['memberships.team_id']));
    const count = Number(row['memberships.external_headcount']);
    if (!team || count === 0) continue;
    const name = (row['people.supplier_name'] as string | null) ?? 'unknown';
    team.by_supplier[name] = (team.by_supplier[name] ?? 0) + count;
  }
  return byTeam;
}

const NO_MEMBERS: Headcount = { headcount: 0, internal_headcount: 0, external_headcount: 0, by_supplier: {} };

const sortedObject = (value: Record<string, number>) =>
  Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

/** AI value assessment (light): mean of the components with data in the month. */
function aiva(headcount: number, activeUsers: number, share: number | null, score: number | null): { overall: number | null; scope: string | null } {
  const parts: [string, number][] = [];
  if (headcount > 0) parts.push(['adoption', Math.min((activeUsers / headcount) * 100, 100)]);
  if (share !== null) parts.push(['delivery', share * 100]);
  if (score !== null) parts.push(['perception', score]);
  if (parts.length === 0) return { overall: null, scope: null };
  return { overall: round(parts.reduce((sum, [, v]) => sum + v, 0) / parts.length, 2), scope: parts.map(([name]) => name).join('+') };
}


/** Every enabled team × every month of the window, in (team slug, month) order. */
export async function baselineRows(
  pool: pg.Pool,
  tenantId: string,
  window: { from: string; to: string },
  teamSlug?: string,
  options: { rollups?: boolean } = {},
): Promise<BaselineRow[]> {
  const cube = await loadCube();
  const months = monthRange(window.from, window.to);
  const dateRange = [`${window.from}-01`, lastDay(window.to)];
  const values = new Map<string, Map<string, Row>>();
  // The register and every fact cube are read at once: the grid needs them all.
  const [allTeams, register] = await Promise.all([
    teamsOf(pool, tenantId),
    headcounts(pool, cube, tenantId),
    ...BASELINE_FACTS.map(async (fact) => {
      const query = validateQuery(cube, {
        measures: fact.measures.map(([m]) => m),
        dimensions: [fact.team],
        timeDimensions: [{ dimension: fact.time, granularity: 'month', dateRange }],
        order: [[fact.team, 'asc']],
      });
      // The grid is bounded (≤ 36 months × the tenant's teams); never truncate it at the API's row limit.
      query.limit = GRID_LIMIT;
      for (const row of await runQuery(pool, cube, tenantId, query, options)) {
        const team = row[fact.team];
        if (typeof team !== 'string') continue;
        const key = `${team}|${String(row[`${fact.time}.month`]).slice(0, 7)}`;
        let cells = values.get(key);
        if (!cells) values.set(key, (cells = new Map()));
        cells.set(fact.time, row);
      }
    }),
  ]);
  const teams = allTeams.filter((t) => teamSlug === undefined || t.slug === teamSlug);
  const rows: BaselineRow[] = [];
  for (const team of teams) {
    const members = register.get(team.id) ?? NO_MEMBERS;
    for (const month of months) {
      const cells = values.get(`${team.id}|${month}`);
      const row = {
        team_id: team.id, month, team_slug: team.slug, team_name: team.name, team_external_ref: team.external_ref,
        cost_centre_code: team.cost_centre_code, org_unit_id: team.org_unit_id, org_unit_slug: team.org_unit_slug,
        supplier_name: team.supplier_name, delivery_model: team.delivery_model, location_country: team.location_country,
        headcount: members.headcount, internal_headcount: members.internal_headcount, external_headcount: members.external_headcount,
        headcount_by_supplier: sortedObject(members.by_supplier),
      } as BaselineRow;
      for (const fact of BASELINE_FACTS) {
        const source = cells?.get(fact.time);
        for (const [measure, column, kind] of fact.measures) row[column] = format((source?.[measure] as number | null | undefined) ?? null, kind);
      }
      const score = aiva(members.headcount, row.ai_active_users as number, row.ai_assisted_pr_share as number | null, row.team_experience_score as number | null);
      row.aiva_light_overall = score.overall;
      row.aiva_scope = score.scope;
      rows.push(Object.fromEntries(BASELINE_COLUMNS.map((c) => [c, row[c] ?? null])) as BaselineRow);
    }
  }
  return rows;
}

export interface BaselineExport {
  contentType: string;
  filename: string;
  /** CSV: a stream of the rows (memory flat in the number of rows). JSON: the document. */
  body: Readable | JsonText<BaselineDocument>;
}

/** `format=json`: the window, when it was made, and the rows (the CSV's columns). */
export interface BaselineDocument {
  from: string;
  to: string;
  generatedAt: string;
  rows: BaselineRow[];
}

const csvCell = (value: BaselineRow[BaselineColumn]): string | number =>
  value === null ? '' : typeof value === 'object' ? JSON.stringify(value) : value;

/**
 * The exact response body of both surfaces. CSV: header row, one row per team and month,
 * csv-stringify quoting, `\n` line ends. JSON: `{from, to, generatedAt, rows}`; generatedAt is the
 * request time unless the caller fixes it (the CLI's `--generated-at`), so runs can be compared.
 */
export async function exportTeamBaseline(
  pool: pg.Pool,
  tenantId: string,
  query: BaselineQuery,
  options: { now?: Date; generatedAt?: string; rollups?: boolean } = {},
): Promise<BaselineExport> {
  const window = resolveWindow(query, options.now);
  const rows = await baselineRows(pool, tenantId, window, query.team, { rollups: options.rollups });
  const name = `team-baseline-${query.team ? `${query.team}-` : ''}${window.from}-${window.to}`;
  if (query.format === 'json') {
    const generatedAt = options.generatedAt ?? (options.now ?? new Date()).toISOString();
    return { contentType: 'application/json; charset=utf-8', filename: `${name}.json`, body: jsonText<BaselineDocument>({ from: window.from, to: window.to, generatedAt, rows }) };
  }
  const body = Readable.from(rows.map((row) => BASELINE_COLUMNS.map((c) => csvCell(row[c])))).pipe(stringify({ ...SAFE_CSV, header: true, columns: [...BASELINE_COLUMNS] }));
  return { contentType: 'text/csv; charset=utf-8', filename: `${name}.csv`, body };
}
