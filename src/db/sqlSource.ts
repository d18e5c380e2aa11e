/**
 * The current SQL in source (issue 44, docs/sql-source.md): every hand-written view and function of
 * schema `public` is one file, `src/<capability>/sql/<name>.sql`, holding its current definition.
 * After the versioned migrations, `applySqlSource` runs every file whose checksum differs from the
 * one recorded when it was last applied (or whose object is missing), in dependency order, as
 * Flyway's repeatable migrations do; a rule change is then a one-file diff.
 *
 * A file is plain SQL run as it stands: `CREATE OR REPLACE VIEW|FUNCTION <name> …` (its name is the
 * file's), optionally followed by statements about the same object (COMMENT ON). A leading comment
 * line `-- depends-on: a, b` names the files that must be applied first (views a view reads,
 * functions a `LANGUAGE sql` body calls; PL/pgSQL bodies are not checked when created).
 * When CREATE OR REPLACE cannot do it (a view loses, renames or retypes a column; a function changes
 * its result or argument names), the object is dropped with CASCADE and the views that depended on
 * it (the generated `bi` views, say) are recreated as they were, with their options, grants and
 * comments; anything else depending on it (an index, a trigger) stops the migration with its name.
 * Views generated from something else (the `bi` views from the models, GeneratedViews) are dropped
 * before the files and created after them, when a file or their SQL changed.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';

type Queryable = Pick<pg.ClientBase, 'query'>;

/** `src/`, from source and compiled alike: the image ships `src/<capability>/sql/` (Dockerfile). */
export const SQL_SOURCE_ROOT = fileURLToPath(new URL('../../src', import.meta.url));

/** Where the applied checksums are kept: the migrator's own schema, out of every tenant's reach. */
const RECORD_TABLE = 'drizzle.sql_source';

export interface SqlFile {
  /** The object's name in schema public, from the file's name. */
  name: string;
  /** Relative to the source root, e.g. `cube/sql/cube_deployments.sql`. */
  path: string;
  text: string;
  checksum: string;
  dependsOn: string[];
}

const DEPENDS_ON = '-- depends-on:';

/** The `-- depends-on:` names among the file's leading comment lines. */
export function dependsOnOf(text: string): string[] {
  const names: string[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '') continue;
    if (!line.startsWith('--')) break;
    if (line.toLowerCase().startsWith(DEPENDS_ON)) {
      names.push(...line.slice(DEPENDS_ON.length).split(',').map((n) => n.trim()).filter((n) => n !== ''));
    }
  }
  return names;
}

export function checksumOf(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** Every `<root>/<capability>/sql/*.sql`, unordered. */
export function readSqlFiles(root = SQL_SOURCE_ROOT): SqlFile[] {
  const files: SqlFile[] = [];
  for (const folder of readdirSync(root, { withFileTypes: true })) {
    if (!folder.isDirectory()) continue;
    const dir = join(root, folder.name, 'sql');
    if (!existsSync(dir)) continue;
    for (const entry of readdirSync(dir).sort()) {
      if (!entry.endsWith('.sql')) continue;
      const text = readFileSync(join(dir, entry), 'utf8');
      files.push({ name: basename(entry, '.sql'), path: `${folder.name}/sql/${entry}`, text, checksum: checksumOf(text), dependsOn: dependsOnOf(text) });
    }
  }
  return files;
}

/** Every `<root>/<capability>/sql/*.sql`, in dependency order (ties by name). */
export function sqlFiles(root = SQL_SOURCE_ROOT): SqlFile[] {
  return dependencyOrder(readSqlFiles(root));
}

export function dependencyOrder(files: SqlFile[]): SqlFile[] {
  const byName = new Map<string, SqlFile>();
  for (const file of files) {
    const other = byName.get(file.name);
    if (other) throw new Error(`two SQL source files define ${file.name}: ${other.path} and ${file.path}`);
    byName.set(file.name, file);
  }
  const ordered: SqlFile[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (file: SqlFile, from: string[]) => {
    const seen = state.get(file.name);
    if (seen === 'done') return;
    if (seen === 'visiting') throw new Error(`SQL source files depend on each other in a cycle: ${[...from, file.name].join(' -> ')}`);
    state.set(file.name, 'visiting');
    for (const name of [...file.dependsOn].sort()) {
      const needed = byName.get(name);
      if (!needed) throw new Error(`${file.path} depends on ${name}, which has no SQL source file`);
      visit(needed, [...from, file.name]);
    }
    state.set(file.name, 'done');
    ordered.push(file);
  };
  for (const file of [...files].sort((a, b) => a.name.localeCompare(b.name))) visit(file, []);
  return ordered;
}

export interface ObjectDefinition {
  kind: 'view' | 'function';
  /** pg_get_viewdef with its reloptions, or each overload's pg_get_functiondef, sorted. */
  definitions: string[];
  oids: number[];
}

/** The definition of the view or functions named `name` in schema public, as the catalog prints them. */
export async function definitionOf(client: Queryable, name: string): Promise<ObjectDefinition | null> {
  const view = await client.query<{ oid: number; def: string }>(
    `select c.oid::int as oid, coalesce(array_to_string(c.reloptions, ', '), '') || E'\\n' || pg_get_viewdef(c.oid) as def
       from pg_class c where c.relnamespace = 'public'::regnamespace and c.relname = $1 and c.relkind in ('v', 'm')`,
    [name],
  );
  if (view.rows.length > 0) return { kind: 'view', definitions: view.rows.map((r) => r.def), oids: view.rows.map((r) => r.oid) };
  const fns = await client.query<{ oid: number; def: string }>(
    `select p.oid::int as oid, pg_get_functiondef(p.oid) as def from pg_proc p
      where p.pronamespace = 'public'::regnamespace and p.proname = $1 and p.prokind in ('f', 'p') order by 2`,
    [name],
  );
  if (fns.rows.length > 0) return { kind: 'function', definitions: fns.rows.map((r) => r.def), oids: fns.rows.map((r) => r.oid) };
  return null;
}

/** Hand-written objects of schema public: every view, and every function no extension owns. */
export async function handWrittenObjects(client: Queryable): Promise<{ name: string; kind: 'view' | 'function' }[]> {
  const { rows } = await client.query<{ name: string; kind: 'view' | 'function' }>(
    `select c.relname as name, 'view' as kind from pg_class c
      where c.relnamespace = 'public'::regnamespace and c.relkind in ('v', 'm')
        and not exists (select 1 from pg_depend d where d.classid = 'pg_class'::regclass and d.objid = c.oid and d.deptype = 'e')
     union
     select p.proname, 'function' from pg_proc p
      where p.pronamespace = 'public'::regnamespace
        and not exists (select 1 from pg_depend d where d.classid = 'pg_proc'::regclass and d.objid = p.oid and d.deptype = 'e')
     order by 1`,
  );
  return rows;
}

// Why CREATE OR REPLACE refuses a change it cannot make in place.
const INVALID_TABLE_DEFINITION = '42P16'; // a view's column dropped, renamed or retyped
const INVALID_FUNCTION_DEFINITION = '42P13'; // a function's result type or argument names changed
const WRONG_OBJECT_TYPE = '42809'; // a view became a function or the reverse

function codeOf(error: unknown): string | undefined {
  return (error as { code?: string }).code;
}

async function inSavepoint<T>(client: Queryable, body: () => Promise<T>): Promise<T> {
  await client.query('savepoint sql_source');
  try {
    const result = await body();
    await client.query('release savepoint sql_source');
    return result;
  } catch (error) {
    await client.query('rollback to savepoint sql_source');
    throw error;
  }
}

interface DependentView {
  oid: number;
  statements: string[];
}

/**
 * The views that depend on the given objects (directly or through each other), each with the
 * statements that recreate it as it is: definition (schema-qualified), options, owner, grants and
 * comments; nearest first. Refuses when anything but a view depends on them.
 */
async function dependentViews(client: Queryable, oids: number[], catalog: 'pg_class' | 'pg_proc', owner: string): Promise<DependentView[]> {
  const others = await client.query<{ what: string }>(
    `select pg_describe_object(d.classid, d.objid, d.objsubid) as what from pg_depend d
      where d.refclassid = $2::regclass and d.refobjid = any($1::oid[]) and d.deptype = 'n' and d.classid <> 'pg_rewrite'::regclass`,
    [oids, catalog],
  );
  if (others.rows.length > 0) {
    throw new Error(`${owner} cannot be dropped and recreated: ${others.rows.map((r) => r.what).join(', ')} depend on it; change it with a versioned migration (docs/sql-source.md)`);
  }
  // Printed with an empty search_path, every name in the definitions is schema-qualified.
  const searchPath = (await client.query<{ path: string }>(`select current_setting('search_path') as path`)).rows[0]!.path;
  await client.query(`select set_config('search_path', '', true)`);
  try {
    const { rows } = await client.query<{ oid: number; statements: string[] }>(
      `with recursive deps(oid, depth) as (
         select r.ev_class, 1 from pg_depend d join pg_rewrite r on r.oid = d.objid
          where d.classid = 'pg_rewrite'::regclass and d.refclassid = $2::regclass and d.refobjid = any($1::oid[])
            and r.ev_class <> all($1::oid[])
         union
         select r.ev_class, deps.depth + 1 from deps
           join pg_depend d on d.refclassid = 'pg_class'::regclass and d.refobjid = deps.oid and d.classid = 'pg_rewrite'::regclass
           join pg_rewrite r on r.oid = d.objid
          where r.ev_class <> deps.oid
       ), views as (
         select c.oid, max(deps.depth) as depth, format('%I.%I', n.nspname, c.relname) as qname, c.reloptions, c.relacl, c.relowner
           from deps join pg_class c on c.oid = deps.oid join pg_namespace n on n.oid = c.relnamespace
          where c.relkind = 'v'
          group by c.oid, n.nspname, c.relname
       )
       select v.oid::int as oid, array[
           format('CREATE VIEW %s%s AS %s', v.qname, coalesce(' WITH (' || array_to_string(v.reloptions, ', ') || ')', ''), pg_get_viewdef(v.oid)),
           format('ALTER VIEW %s OWNER TO %I', v.qname, pg_get_userbyid(v.relowner)),
           format('REVOKE ALL ON %s FROM PUBLIC', v.qname)
         ]
         || coalesce((select array_agg(format('REVOKE ALL ON %s FROM %I', v.qname, r.rolname)) from pg_roles r
                       where r.oid in (select a.grantee from aclexplode(coalesce(v.relacl, acldefault('r', v.relowner))) a)), '{}')
         || coalesce((select array_agg(format('GRANT %s ON %s TO %s%s', a.privilege_type, v.qname,
                                              case a.grantee when 0 then 'PUBLIC' else quote_ident(pg_get_userbyid(a.grantee)) end,
                                              case when a.is_grantable then ' WITH GRANT OPTION' else '' end))
                       from aclexplode(coalesce(v.relacl, acldefault('r', v.relowner))) a), '{}')
         || coalesce((select array_agg(case when d.objsubid = 0 then format('COMMENT ON VIEW %s IS %L', v.qname, d.description)
                                            else format('COMMENT ON COLUMN %s.%I IS %L', v.qname, a.attname, d.description) end)
                        from pg_description d left join pg_attribute a on a.attrelid = d.objoid and a.attnum = d.objsubid
                       where d.classoid = 'pg_class'::regclass and d.objoid = v.oid), '{}') as statements
         from views v order by v.depth, v.qname`,
      [oids, catalog],
    );
    return rows;
  } finally {
    await client.query(`select set_config('search_path', $1, true)`, [searchPath]);
  }
}

/** Drops what `name` is now (CASCADE) and applies the file, then recreates the views that depended on it. */
async function replace(client: Queryable, file: SqlFile, current: ObjectDefinition): Promise<void> {
  const dependents = await dependentViews(client, current.oids, current.kind === 'view' ? 'pg_class' : 'pg_proc', file.path);
  for (const oid of current.oids) {
    const drop = await client.query<{ statement: string }>(
      current.kind === 'view'
        ? `select format('DROP VIEW %s CASCADE', $1::oid::regclass) as statement`
        : `select format('DROP FUNCTION %s CASCADE', $1::oid::regprocedure) as statement`,
      [oid],
    );
    await client.query(drop.rows[0]!.statement);
  }
  await client.query(file.text);
  for (const view of dependents) {
    for (const statement of view.statements) {
      try {
        await client.query(statement);
      } catch (error) {
        throw new Error(`${file.path}: a view that depended on ${file.name} cannot be recreated over its new definition (${(error as Error).message}); recreate it in a versioned migration (docs/sql-source.md)`);
      }
    }
  }
}

/** Applies one file: CREATE OR REPLACE in place, else drop and recreate; a function's other overloads go. */
async function applyFile(client: Queryable, file: SqlFile): Promise<void> {
  const before = await definitionOf(client, file.name);
  try {
    await inSavepoint(client, () => client.query(file.text));
  } catch (error) {
    const code = codeOf(error);
    if (!before || (code !== INVALID_TABLE_DEFINITION && code !== INVALID_FUNCTION_DEFINITION && code !== WRONG_OBJECT_TYPE)) {
      throw new Error(`${file.path}: ${(error as Error).message}`);
    }
    await replace(client, file, before);
    return;
  }
  const after = await definitionOf(client, file.name);
  if (!after) throw new Error(`${file.path} does not define ${file.name} in schema public`);
  if (after.kind === 'function' && after.oids.length > 1) {
    // New argument types make a new overload: the one the file made replaces the old ones.
    const made = after.oids.filter((oid) => !before?.oids.includes(oid));
    if (made.length !== 1) throw new Error(`${file.path}: schema public holds ${after.oids.length} functions named ${file.name}; a file defines one`);
    const stale = { ...after, oids: after.oids.filter((oid) => oid !== made[0]) };
    const dependents = await dependentViews(client, stale.oids, 'pg_proc', file.path);
    if (dependents.length > 0) throw new Error(`${file.path}: views use the old ${file.name}; make them use the new one first`);
    for (const oid of stale.oids) {
      const drop = await client.query<{ statement: string }>(`select format('DROP FUNCTION %s', $1::oid::regprocedure) as statement`, [oid]);
      await client.query(drop.rows[0]!.statement);
    }
  }
}

/** Drops an object whose file was deleted (it was applied from a file before). */
async function dropObject(client: Queryable, name: string): Promise<boolean> {
  const current = await definitionOf(client, name);
  if (!current) return true;
  try {
    await inSavepoint(client, async () => {
      for (const oid of current.oids) {
        const drop = await client.query<{ statement: string }>(
          current.kind === 'view' ? `select format('DROP VIEW %s', $1::oid::regclass) as statement` : `select format('DROP FUNCTION %s', $1::oid::regprocedure) as statement`,
          [oid],
        );
        await client.query(drop.rows[0]!.statement);
      }
    });
    return true;
  } catch (error) {
    if (codeOf(error) === '2BP01') return false; // dependent objects: another removed file's, dropped first
    throw error;
  }
}

export interface SqlSourceResult {
  applied: string[];
  dropped: string[];
  /** The generated views recreated (schema-qualified), none when neither a file nor their SQL changed. */
  generated: string[];
}

/**
 * Views written by a generator rather than a file: the `bi` views from the Cube models (handed in
 * by the composition root, src/jobCatalog.ts, as infrastructure imports no capability). They read
 * columns the files define, so they are recreated after the files, in the same transaction,
 * whenever a file was applied or dropped or their SQL differs from the SQL last recorded: a model or
 * file change then needs no versioned migration to copy the files and regenerate them (docs/sql-source.md).
 */
export interface GeneratedViews {
  /** Their schema, e.g. `bi`; the record's key. */
  schema: string;
  /** The names of the views the statements create, all in `schema`. */
  views: string[];
  /** CREATE VIEW and COMMENT ON statements, run in order. */
  statements: string[];
}

/** The generated views last created, by schema: the checksum of their statements and their names. */
const GENERATED_RECORD_TABLE = 'drizzle.sql_source_generated';

/**
 * Applies the changed files in one transaction (the caller holds the migration lock): each file
 * whose checksum differs from the recorded one, or whose object is missing; then drops the objects
 * of files that were applied once and are gone. With `generated`, those views are dropped before
 * the files are applied (so no file change has to carry them over its old definition) and created
 * after, when a file changed, their SQL changed or one of them is missing.
 */
export async function applySqlSource(client: Queryable, files: SqlFile[] = sqlFiles(), generated?: GeneratedViews): Promise<SqlSourceResult> {
  const result: SqlSourceResult = { applied: [], dropped: [], generated: [] };
  await client.query(`create table if not exists ${RECORD_TABLE} (
    name text primary key, path text not null, checksum text not null, applied_at timestamptz not null default now())`);
  if (generated) {
    await client.query(`create table if not exists ${GENERATED_RECORD_TABLE} (
      schema text primary key, checksum text not null, views text[] not null, applied_at timestamptz not null default now())`);
  }
  await client.query('begin');
  try {
    await client.query(`lock table ${RECORD_TABLE} in exclusive mode`);
    const recorded = new Map(
      (await client.query<{ name: string; checksum: string }>(`select name, checksum from ${RECORD_TABLE}`)).rows.map((r) => [r.name, r.checksum]),
    );
    const present = new Set((await handWrittenObjects(client)).map((o) => o.name));
    const changed = files.filter((file) => recorded.get(file.name) !== file.checksum || !present.has(file.name));
    const named = new Set(files.map((f) => f.name));
    let gone = [...recorded.keys()].filter((name) => !named.has(name));
    const regenerate = generated ? await generatedPlan(client, generated, changed.length + gone.length > 0) : null;
    if (regenerate) await dropViews(client, generated!.schema, regenerate.drop);
    for (const file of changed) {
      await applyFile(client, file);
      await client.query(
        `insert into ${RECORD_TABLE} (name, path, checksum) values ($1, $2, $3)
         on conflict (name) do update set path = excluded.path, checksum = excluded.checksum, applied_at = now()`,
        [file.name, file.path, file.checksum],
      );
      result.applied.push(file.name);
    }
    while (gone.length > 0) {
      const left: string[] = [];
      for (const name of gone) {
        if (await dropObject(client, name)) {
          await client.query(`delete from ${RECORD_TABLE} where name = $1`, [name]);
          result.dropped.push(name);
        } else left.push(name);
      }
      if (left.length === gone.length) throw new Error(`the objects of deleted SQL source files cannot be dropped, other objects depend on them: ${left.join(', ')}`);
      gone = left;
    }
    if (regenerate) {
      const { schema, views, statements } = generated!;
      for (const statement of statements) {
        try {
          await client.query(statement);
        } catch (error) {
          throw new Error(`the generated ${schema} views cannot be created over the files (${(error as Error).message}): fix the model or the file it reads`);
        }
      }
      await client.query(
        `insert into ${GENERATED_RECORD_TABLE} (schema, checksum, views) values ($1, $2, $3)
         on conflict (schema) do update set checksum = excluded.checksum, views = excluded.views, applied_at = now()`,
        [schema, regenerate.checksum, views],
      );
      result.generated = views.map((view) => `${schema}.${view}`);
    }
    await client.query('commit');
  } catch (error) {
    await client.query('rollback');
    throw error;
  }
  return result;
}

/**
 * Whether the generated views are to be recreated, and which views go first: those recorded last
 * time (a view no longer generated goes too) and those about to be created. Null: nothing to do.
 */
async function generatedPlan(client: Queryable, generated: GeneratedViews, filesChanged: boolean): Promise<{ checksum: string; drop: string[] } | null> {
  const checksum = checksumOf(generated.statements.join('\n;\n'));
  const record = (await client.query<{ checksum: string; views: string[] }>(
    `select checksum, views from ${GENERATED_RECORD_TABLE} where schema = $1`, [generated.schema],
  )).rows[0];
  const { rows } = await client.query<{ present: number }>(
    `select count(*)::int as present from pg_class c
      where c.relnamespace = to_regnamespace($1) and c.relkind = 'v' and c.relname = any($2::text[])`,
    [generated.schema, generated.views],
  );
  const missing = rows[0]!.present !== new Set(generated.views).size;
  if (!filesChanged && !missing && record?.checksum === checksum) return null;
  return { checksum, drop: [...new Set([...(record?.views ?? []), ...generated.views])] };
}

/** Drops those of the named views of `schema` that exist, in one statement (one may read another). */
async function dropViews(client: Queryable, schema: string, names: string[]): Promise<void> {
  const { rows } = await client.query<{ statement: string | null }>(
    `select 'DROP VIEW ' || string_agg(c.oid::regclass::text, ', ') as statement from pg_class c
      where c.relnamespace = to_regnamespace($1) and c.relkind = 'v' and c.relname = any($2::text[])`,
    [schema, names],
  );
  if (rows[0]?.statement) await client.query(rows[0].statement);
}

export interface Comparison {
  file: SqlFile;
  /** The database's definition equals the one the file's text makes. */
  same: boolean;
  current: ObjectDefinition | null;
  fromFile: ObjectDefinition | null;
  /** Why the file could not be applied over the database's object (e.g. CREATE OR REPLACE refused). */
  error?: string;
}

/**
 * Compares each file with the database: its text is applied over the database's object inside a
 * transaction that is rolled back, and the catalog's printout before and after must be the same.
 * The catalog normalises both (formatting, comments, casts), so the comparison is exact in meaning
 * and blind to layout.
 */
export async function compareWithDatabase(client: Queryable, files: SqlFile[] = sqlFiles()): Promise<Comparison[]> {
  const comparisons: Comparison[] = [];
  await client.query('begin');
  try {
    for (const file of files) {
      const current = await definitionOf(client, file.name);
      // Each file over the database as it is, not over the files compared before it.
      await client.query('savepoint compare');
      try {
        await client.query(file.text);
        const fromFile = await definitionOf(client, file.name);
        const same = current !== null && fromFile !== null && current.kind === fromFile.kind
          && JSON.stringify(current.definitions) === JSON.stringify(fromFile.definitions);
        comparisons.push({ file, same, current, fromFile });
      } catch (error) {
        comparisons.push({ file, same: false, current, fromFile: null, error: (error as Error).message });
      } finally {
        await client.query('rollback to savepoint compare');
      }
    }
  } finally {
    await client.query('rollback');
  }
  return comparisons;
}

/** Splits an SQL text into words, without its `--` comments, for the scans below. */
function words(text: string): string[] {
  return text
    .split('\n')
    .map((line) => {
      const at = line.indexOf('--');
      return at === -1 ? line : line.slice(0, at);
    })
    .join(' ')
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w !== '');
}

/** `"public"."x"`, `public.x(`, `x(a` → `x` */
function bareName(word: string): string {
  const paren = word.indexOf('(');
  const name = paren === -1 ? word : word.slice(0, paren);
  const dot = name.lastIndexOf('.');
  return (dot === -1 ? name : name.slice(dot + 1)).replaceAll('"', '');
}

/** The views and functions a migration's text creates or replaces (CREATE [OR REPLACE] [MATERIALIZED] VIEW|FUNCTION|PROCEDURE <name>), schema public or unqualified. */
export function objectsCreatedBy(text: string): string[] {
  const w = words(text);
  const names: string[] = [];
  for (let i = 0; i < w.length; i += 1) {
    if (w[i] !== 'create') continue;
    let j = i + 1;
    if (w[j] === 'or' && w[j + 1] === 'replace') j += 2;
    if (w[j] === 'materialized' || w[j] === 'temp' || w[j] === 'temporary') j += 1;
    if (w[j] !== 'view' && w[j] !== 'function' && w[j] !== 'procedure') continue;
    const word = w[j + 1];
    if (!word) continue;
    const paren = word.indexOf('(');
    const qualified = paren === -1 ? word : word.slice(0, paren);
    if (qualified.includes('.') && !qualified.replaceAll('"', '').startsWith('public.')) continue;
    names.push(bareName(word));
  }
  return names;
}

/**
 * The last versioned migration written before the files existed. Versioned migrations after it do
 * not create or replace a filed object (test/foundation/sqlSource.test.ts): the file is changed
 * instead.
 */
export const SQL_SOURCE_BASELINE = '0065_bi_views_regenerated';

/**
 * Later migrations that still create or replace views or functions because they were written on a
 * branch begun before the files, and whose definitions tools/sql/extract.ts has since moved into
 * the files (docs/sql-source.md "Merging a branch begun before the files"). Their statements stay
 * (what follows in them may read the new columns); the files, applied after every versioned
 * migration, hold the same definitions and win from then on.
 */
export const MOVED_INTO_FILES: ReadonlySet<string> = new Set<string>(['0068_pr_phases', '0070_source_switch_leftovers', '0074_ai_measures', '0076_bi_views_regenerated']);

/** Views and functions created by versioned migrations after the baseline (and not moved into files), with the migration that did. */
export function createdAfterBaseline(dir: string, entries: { tag: string }[]): { tag: string; name: string }[] {
  const at = entries.findIndex((e) => e.tag === SQL_SOURCE_BASELINE);
  if (at === -1) throw new Error(`the SQL source baseline ${SQL_SOURCE_BASELINE} is not in the journal`);
  return entries
    .slice(at + 1)
    .filter((e) => !MOVED_INTO_FILES.has(e.tag))
    .flatMap((e) => objectsCreatedBy(readFileSync(join(dir, `${e.tag}.sql`), 'utf8')).map((name) => ({ tag: e.tag, name })));
}
