/**
 * The `bi` schema derived from the Cube models of schema/: what each view exposes and the SQL that
 * creates it. `migrate` creates them from this derivation (src/bi/generated.ts) whenever it or a
 * view file they read changed; the tests compare the database with it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { SCHEMA_DIR } from '../cube/compiler.js';
import { isPublicCube } from '../cube/publicCubes.js';

interface ModelMember {
  name: string;
  title?: string;
  description?: string;
  sql?: string;
  type: string;
  public?: boolean;
  primary_key?: boolean;
  filters?: { sql: string }[];
}

interface ModelCube {
  name: string;
  description?: string;
  sql: string;
  dimensions?: ModelMember[];
  measures?: ModelMember[];
}

export interface BiColumn {
  name: string;
  expression: string;
  comment: string;
}

export interface BiView {
  cube: string;
  source: string;
  /** The column of the cube's primary key dimension. */
  primaryKey: string;
  comment: string;
  columns: BiColumn[];
}

/**
 * The tenant of the connected BI role, NULL (no rows) for any other role. The guard function
 * (migration 0037) raises an error instead when the session has raised its statement_timeout or
 * idle_in_transaction_session_timeout above the credential's limit, or switched one off: a client
 * may SET them, PostgreSQL cannot forbid it, so reading a view is what refuses it.
 */
export const BI_TENANT =
  '(SELECT r.tenant_id FROM "public"."bi_credentials" r WHERE r.role_name = current_user AND "public"."bi_session_within_limits"(r.statement_timeout_ms))';

const CUBE_REF = /\{CUBE\}\.([a-z_][a-z0-9_]*)/g;
/** A reference other than {CUBE} (another cube, a member, a context): no plain SQL the bi view can copy. */
const otherRef = (sql: string) => sql.replaceAll('{CUBE}', '').includes('{');
const SOURCE = /^SELECT \* FROM ([a-z_][a-z0-9_]*) WHERE \{SECURITY_CONTEXT\.tenant_id\.requiredFilter\('tenant_id'\)\}$/;
const AGGREGATE = /\b(sum|avg|count|min|max|percentile_cont|percentile_disc)\s*\(/i;
const VALUE_TYPES = new Set(['sum', 'avg', 'min', 'max', 'count_distinct', 'count_distinct_approx']);

function columnExpression(sql: string): string {
  return /^[a-z_][a-z0-9_]*$/.test(sql) ? `s.${sql}` : `(${sql.replaceAll('{CUBE}', 's')})`;
}

function measureComment(measure: ModelMember): string {
  return `${measure.name}: ${measure.description ?? ''}`.trim();
}

/** One view per cube, from the YAML models (sorted by cube name). */
export function biViews(dir = SCHEMA_DIR): BiView[] {
  const files = readdirSync(dir).filter((f) => f.endsWith('.yml')).sort();
  const views: BiView[] = [];
  for (const file of files) {
    // Files that hold only Cube `views` (for a real Cube's join paths) add no relation of their own.
    const doc = parse(readFileSync(`${dir}/${file}`, 'utf8')) as { cubes?: ModelCube[] };
    // A public cube (the open-source corpus) is no tenant's data: BI tools are given tenant views only.
    for (const cube of doc.cubes ?? []) if (!isPublicCube(cube.name, cube.sql)) views.push(viewOf(cube));
  }
  return views.sort((a, b) => a.cube.localeCompare(b.cube));
}

function viewOf(cube: ModelCube): BiView {
  const source = SOURCE.exec(cube.sql.trim())?.[1];
  if (!source) throw new Error(`cube ${cube.name}: sql is not "SELECT * FROM <relation> WHERE <tenant filter>"`);
  const columns: BiColumn[] = [];
  const byName = new Map<string, BiColumn>();
  const add = (column: BiColumn) => {
    const existing = byName.get(column.name);
    if (existing) {
      if (!existing.comment.includes(column.comment)) existing.comment = `${existing.comment}\n${column.comment}`;
      return;
    }
    byName.set(column.name, column);
    columns.push(column);
  };
  for (const d of cube.dimensions ?? []) {
    // A hidden primary key is still exposed: BI tools need a row key to count distinct rows.
    if ((d.public === false && !d.primary_key) || !d.sql || otherRef(d.sql)) continue;
    add({ name: d.name, expression: columnExpression(d.sql), comment: d.description ?? d.title ?? '' });
  }
  // Measures: a filtered count becomes a boolean `in_<measure>`, a summed expression its value,
  // and a ratio or percentile the raw columns it reads (the BI tool computes the aggregate).
  const rawColumns: { name: string; measure: ModelMember }[] = [];
  for (const m of cube.measures ?? []) {
    // A hidden measure (public: false, as change_lead_times' copies of pull_requests' phase measures
    // for the AI impact page) is no part of the model a BI tool reads, as a hidden dimension is not.
    if (m.public === false) continue;
    const filters = (m.filters ?? []).map((f) => f.sql);
    if (filters.some(otherRef)) continue;
    if (filters.length > 0) {
      const expression = filters.map((f) => `(${f.replaceAll('{CUBE}', 's')})`).join(' AND ');
      add({ name: `in_${m.name}`, expression: `COALESCE(${expression}, false)`, comment: measureComment(m) });
    }
    const sql = m.sql ?? '';
    if (!sql || otherRef(sql)) continue;
    if (VALUE_TYPES.has(m.type) && !AGGREGATE.test(sql)) {
      add({ name: `${m.name}_value`, expression: columnExpression(sql), comment: measureComment(m) });
    } else {
      for (const match of sql.matchAll(CUBE_REF)) rawColumns.push({ name: match[1] as string, measure: m });
    }
  }
  for (const { name, measure } of rawColumns) {
    add({ name, expression: `s.${name}`, comment: measureComment(measure) });
  }
  const primaryKey = cube.dimensions?.find((d) => d.primary_key)?.name;
  if (!primaryKey || !byName.has(primaryKey)) throw new Error(`cube ${cube.name}: no primary key dimension`);
  return { cube: cube.name, source, primaryKey, comment: cube.description ?? '', columns };
}

function literal(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

/** The views' SQL as one text, statements split by drizzle's breakpoints (tools/bi/generate.ts prints it). */
export function renderBiViews(views: BiView[]): string {
  return biViewStatements(views).join('\n--> statement-breakpoint\n') + '\n';
}

/** The views' statements: each view, tenant-filtered through the BI role mapping, and its comments. */
export function biViewStatements(views: BiView[]): string[] {
  const statements: string[] = [];
  for (const view of views) {
    const select = view.columns.map((c) => `  ${c.expression} AS "${c.name}"`).join(',\n');
    statements.push(
      `CREATE VIEW "bi"."${view.cube}" WITH (security_barrier = true) AS\nSELECT\n${select}\nFROM "public"."${view.source}" s\n` +
        `WHERE s.tenant_id = ${BI_TENANT};`,
    );
    statements.push(`COMMENT ON VIEW "bi"."${view.cube}" IS ${literal(view.comment)};`);
    for (const c of view.columns) {
      statements.push(`COMMENT ON COLUMN "bi"."${view.cube}"."${c.name}" IS ${literal(c.comment)};`);
    }
  }
  return statements;
}
