/**
 * The relations of the BI database (issue 46, docs/bi-database.md "The BI database"): for each relation of
 * the application database's `bi`, a postgres_fdw foreign table in `bi_source` and a view
 * `bi.<name>` over it. BI tools list views and tables, not foreign tables (relkind 'f': SQLAlchemy's
 * and pgjdbc's TABLE/VIEW listings, psql's `\dv`, psqlODBC), so `bi` holds views.
 *
 * The views are `security_invoker`: postgres_fdw reads a foreign table through the user mapping of
 * the role whose privileges the scan is checked with, the view's owner for an ordinary view and the
 * session's role for a security_invoker one; only the latter keeps each credential reading through
 * its own mapping, as its own source role, so its own tenant. No `security_barrier`: every row the
 * view sees is already the credential's, and a barrier would keep filters from reaching the remote
 * query. A BI role has SELECT on the foreign tables (a security_invoker view needs it) but no USAGE
 * on `bi_source`, so it cannot name them: PostgreSQL checks schema USAGE when a name is looked up,
 * not when a view it expands reads the relation.
 */
import { escapeIdentifier, escapeLiteral } from 'pg';
import type pg from 'pg';

type Queryable = Pick<pg.ClientBase, 'query'>;

/** Where the foreign tables are in the BI database (the views are in `bi`). */
export const SOURCE_SCHEMA = 'bi_source';

export interface Relation {
  name: string;
  comment: string | null;
  columns: { name: string; type: string; comment: string | null }[];
}

// The relations of a schema with their columns' types and comments; types outside pg_catalog
// (none today) cross as text, since the BI database has no other types. `invoker`: whether a view
// is security_invoker.
const RELATIONS = `
  SELECT c.relname AS name, obj_description(c.oid, 'pg_class') AS comment,
         json_agg(json_build_object('name', a.attname,
           'type', CASE WHEN t.typnamespace = 'pg_catalog'::regnamespace THEN format_type(a.atttypid, a.atttypmod) ELSE 'text' END,
           'comment', col_description(c.oid, a.attnum)) ORDER BY a.attnum) AS columns,
         c.relkind AS kind, coalesce('security_invoker=true' = ANY(c.reloptions), false) AS invoker
  FROM pg_class c
  JOIN pg_namespace n ON n.oid = c.relnamespace
  JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
  JOIN pg_type t ON t.oid = a.atttypid
  WHERE n.nspname = $1 AND c.relkind = ANY($2::"char"[])
  GROUP BY c.oid, c.relname
  ORDER BY c.relname`;

interface Found extends Relation {
  kind: string;
  invoker: boolean;
}

async function found(client: Queryable, schema: string, kinds: string[]): Promise<Map<string, Found>> {
  const { rows } = await client.query<Found>(RELATIONS, [schema, kinds]);
  return new Map(rows.map((r) => [r.name, r]));
}

/** The relations of schema `bi` of the connected database: views, tables, foreign tables. */
export async function biRelations(client: Queryable): Promise<Map<string, Relation>> {
  const all = await found(client, 'bi', ['v', 'm', 'r', 'f']);
  return new Map([...all].map(([name, r]) => [name, { name: r.name, comment: r.comment, columns: r.columns }]));
}

const same = (a: Relation | undefined, b: Relation): boolean =>
  a !== undefined && JSON.stringify({ name: a.name, comment: a.comment, columns: a.columns }) === JSON.stringify(b);

function comments(kind: 'FOREIGN TABLE' | 'VIEW', target: string, relation: Relation): string[] {
  const statements: string[] = [];
  if (relation.comment !== null) statements.push(`COMMENT ON ${kind} ${target} IS ${escapeLiteral(relation.comment)}`);
  for (const c of relation.columns) {
    if (c.comment !== null) statements.push(`COMMENT ON COLUMN ${target}.${escapeIdentifier(c.name)} IS ${escapeLiteral(c.comment)}`);
  }
  return statements;
}

function create(relation: Relation, server: string): string[] {
  const table = `${SOURCE_SCHEMA}.${escapeIdentifier(relation.name)}`;
  const view = `bi.${escapeIdentifier(relation.name)}`;
  const columns = relation.columns.map((c) => escapeIdentifier(c.name));
  return [
    `CREATE FOREIGN TABLE ${table} (${relation.columns.map((c) => `${escapeIdentifier(c.name)} ${c.type}`).join(', ')}) ` +
      `SERVER ${server} OPTIONS (schema_name 'bi', table_name ${escapeLiteral(relation.name)})`,
    ...comments('FOREIGN TABLE', table, relation),
    `CREATE VIEW ${view} WITH (security_invoker = true) AS SELECT ${columns.join(', ')} FROM ${table}`,
    ...comments('VIEW', view, relation),
  ];
}

/**
 * Makes `bi` (views) and `bi_source` (foreign tables of `server`) of the connected BI database
 * hold exactly `wanted`, re-creating a relation only when its table or view differs (columns,
 * types, comments, security_invoker); drops what went and what an earlier layout left in `bi`
 * (the foreign tables were there until issue 46). Returns the names created.
 */
export async function syncRelations(client: Queryable, wanted: Map<string, Relation>, server: string): Promise<string[]> {
  const schema = await client.query("SELECT 1 FROM pg_namespace WHERE nspname = $1", [SOURCE_SCHEMA]);
  if (schema.rowCount === 0) {
    await client.query(`CREATE SCHEMA ${SOURCE_SCHEMA}`);
    await client.query(`REVOKE ALL ON SCHEMA ${SOURCE_SCHEMA} FROM PUBLIC`);
  }
  const tables = await found(client, SOURCE_SCHEMA, ['f']);
  // Only views and foreign tables were ever made here.
  const inBi = await found(client, 'bi', ['v', 'f']);
  const current = (name: string): boolean => {
    const view = inBi.get(name);
    return view?.kind === 'v' && view.invoker && same(view, wanted.get(name)!) && same(tables.get(name), wanted.get(name)!);
  };
  // Views first: each depends on its foreign table.
  for (const [name, r] of inBi) {
    if (wanted.has(name) && current(name)) continue;
    await client.query(`DROP ${r.kind === 'v' ? 'VIEW' : 'FOREIGN TABLE'} bi.${escapeIdentifier(name)}`);
  }
  for (const [name] of tables) {
    if (!wanted.has(name) || !current(name)) await client.query(`DROP FOREIGN TABLE ${SOURCE_SCHEMA}.${escapeIdentifier(name)}`);
  }
  const created: string[] = [];
  for (const [name, relation] of wanted) {
    if (current(name)) continue;
    for (const statement of create(relation, server)) await client.query(statement);
    created.push(name);
  }
  return created;
}

/** What a user-facing role reads in the BI database: the views, and the foreign tables under them (not by name). */
export async function grantReading(client: Queryable, role: string): Promise<void> {
  const id = escapeIdentifier(role);
  await client.query(`GRANT USAGE ON SCHEMA bi TO ${id}`);
  await client.query(`GRANT SELECT ON ALL TABLES IN SCHEMA bi TO ${id}`);
  await client.query(`GRANT SELECT ON ALL TABLES IN SCHEMA ${SOURCE_SCHEMA} TO ${id}`);
}
