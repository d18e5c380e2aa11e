/**
 * Writes the view and function files of `src/<capability>/sql/` from a migrated database
 * (docs/sql-source.md). The files are the source; this tool is for moving a definition that a
 * versioned migration still makes (one merged from a branch begun before the files) into its file:
 *
 *   npx tsx tools/sql/extract.ts                 migrate a throw-away embedded PostgreSQL, then write
 *   npx tsx tools/sql/extract.ts --check         the same, writing nothing; exit 1 if a file would change
 *   npx tsx tools/sql/extract.ts --database-url postgres://…   read that database as it is
 *   npx tsx tools/sql/extract.ts --since 0067_x  see below
 *
 * The throw-away database is migrated as the files would have met the merged migrations: the
 * versioned migrations up to `--since` (default: the one before the first migration after
 * SQL_SOURCE_BASELINE that creates a view or function), then the files, then the later versioned
 * migrations without the files. What those later migrations changed is then in the database and
 * goes into the files; a file edited since and untouched by them keeps its text.
 *
 * A file whose text already makes the database's definition is left as it is (its comments and
 * layout stay); only its `-- depends-on:` line gains what the catalog shows it reads. A file that
 * differs is rewritten from the catalog (pg_get_viewdef / pg_get_functiondef) under its leading
 * comments: a view's inline comments are lost then, so read the diff. An object without a file
 * gets one in the folder its name suggests (`--place name=capability` to choose).
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { startEmbeddedPostgres } from '../../src/db/embedded.js';
import { bundledMigrations, MIGRATIONS_DIR } from '../../src/db/migrations.js';
import {
  applySqlSource, compareWithDatabase, createdAfterBaseline, dependencyOrder, handWrittenObjects, readSqlFiles,
  SQL_SOURCE_ROOT, type SqlFile,
} from '../../src/db/sqlSource.js';

type Queryable = Pick<pg.ClientBase, 'query'>;

/** Where an object without a file goes, by its name's start; else `cube` (move it: the name is the key). */
const PLACES: [string, string][] = [
  ['survey_', 'surveys'],
  ['bi_', 'bi'],
  ['app_', 'db'],
  ['deployment_source', 'deploymentSources'],
  ['deployment_replaced', 'deploymentSources'],
];

export function placeOf(name: string, placed: Map<string, string>): string {
  return placed.get(name) ?? PLACES.find(([prefix]) => name.startsWith(prefix))?.[1] ?? 'cube';
}

/** The filed objects `name` reads: views and functions a view's rules name, and names a `LANGUAGE sql` body mentions. */
async function readsOf(client: Queryable, name: string, kind: 'view' | 'function', names: Set<string>): Promise<string[]> {
  if (kind === 'view') {
    const { rows } = await client.query<{ name: string }>(
      `select distinct coalesce(rc.relname, p.proname)::text as name from pg_class v
         join pg_rewrite r on r.ev_class = v.oid
         join pg_depend d on d.classid = 'pg_rewrite'::regclass and d.objid = r.oid
         left join pg_class rc on d.refclassid = 'pg_class'::regclass and rc.oid = d.refobjid and rc.relkind in ('v', 'm') and rc.relnamespace = 'public'::regnamespace
         left join pg_proc p on d.refclassid = 'pg_proc'::regclass and p.oid = d.refobjid and p.pronamespace = 'public'::regnamespace
        where v.relnamespace = 'public'::regnamespace and v.relname = $1`,
      [name],
    );
    return rows.map((r) => r.name).filter((n) => n !== null && n !== name && names.has(n));
  }
  const { rows } = await client.query<{ body: string }>(
    `select pg_get_functiondef(p.oid) as body from pg_proc p join pg_language l on l.oid = p.prolang
      where p.pronamespace = 'public'::regnamespace and p.proname = $1 and l.lanname = 'sql'`,
    [name],
  );
  const mentioned = new Set(rows.flatMap((r) => r.body.split(/[^A-Za-z0-9_]+/)));
  return [...names].filter((n) => n !== name && mentioned.has(n));
}

/** `CREATE OR REPLACE …;` as the catalog prints the object, names relative to search_path public. */
async function catalogText(client: Queryable, name: string, kind: 'view' | 'function'): Promise<string> {
  if (kind === 'view') {
    const { rows } = await client.query<{ text: string }>(
      `select format('CREATE OR REPLACE VIEW %I%s AS', c.relname, coalesce(' WITH (' || array_to_string(c.reloptions, ', ') || ')', ''))
              || E'\\n' || pg_get_viewdef(c.oid) as text
         from pg_class c where c.relnamespace = 'public'::regnamespace and c.relname = $1`,
      [name],
    );
    return `${rows[0]!.text.trimEnd()}\n`;
  }
  const { rows } = await client.query<{ text: string }>(
    `select pg_get_functiondef(p.oid) as text from pg_proc p where p.pronamespace = 'public'::regnamespace and p.proname = $1 order by 1`,
    [name],
  );
  return rows.map((r) => `${r.text.trimEnd()};\n`).join('\n');
}

/** The file's leading comment lines, without its `-- depends-on:` line. */
function leadingComments(text: string): string[] {
  const lines: string[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim().startsWith('--')) break;
    if (!line.trim().toLowerCase().startsWith('-- depends-on:')) lines.push(line);
  }
  return lines;
}

/** The text with its `-- depends-on:` line set to `dependsOn` (placed after the other leading comments). */
export function withDependsOn(text: string, dependsOn: string[]): string {
  const head = leadingComments(text);
  const lines = text.split('\n');
  let at = 0;
  while (at < lines.length && lines[at]!.trim().startsWith('--')) at += 1;
  const body = lines.slice(at).join('\n');
  return [...head, ...(dependsOn.length > 0 ? [`-- depends-on: ${dependsOn.join(', ')}`] : []), body].join('\n');
}

export interface ExtractReport {
  kept: string[];
  /** Only the `-- depends-on:` line changed. */
  headers: string[];
  rewritten: string[];
  created: string[];
  /** Files whose object is not in the database (left alone). */
  unmatched: string[];
}

/** Brings the files under `root` to the database's definitions; writes only when `write`. */
export async function extractSqlSource(client: pg.ClientBase, root: string, write: boolean, placed = new Map<string, string>()): Promise<ExtractReport> {
  const report: ExtractReport = { kept: [], headers: [], rewritten: [], created: [], unmatched: [] };
  await client.query(`set search_path = public`);
  const objects = await handWrittenObjects(client);
  const names = new Set(objects.map((o) => o.name));
  const files = readSqlFiles(root);
  const byName = new Map(files.map((f) => [f.name, f]));
  const same = new Map((await compareWithDatabase(client, files.filter((f) => names.has(f.name)))).map((c) => [c.file.name, c.same]));
  for (const object of objects) {
    const reads = await readsOf(client, object.name, object.kind, names);
    const file = byName.get(object.name);
    let text: string;
    let path: string;
    if (file && same.get(object.name)) {
      const dependsOn = [...new Set([...file.dependsOn, ...reads])].sort();
      path = file.path;
      text = dependsOn.join() === [...file.dependsOn].sort().join() ? file.text : withDependsOn(file.text, dependsOn);
      (text === file.text ? report.kept : report.headers).push(object.name);
    } else {
      const dependsOn = [...new Set([...(file?.dependsOn ?? []), ...reads])].filter((n) => names.has(n)).sort();
      const head = file ? leadingComments(file.text) : [];
      path = file?.path ?? `${placeOf(object.name, placed)}/sql/${object.name}.sql`;
      text = [...head, ...(dependsOn.length > 0 ? [`-- depends-on: ${dependsOn.join(', ')}`] : []), await catalogText(client, object.name, object.kind)].join('\n');
      (file ? report.rewritten : report.created).push(object.name);
    }
    if (write && (!file || text !== file.text)) {
      mkdirSync(join(root, path, '..'), { recursive: true });
      writeFileSync(join(root, path), text);
    }
  }
  report.unmatched = files.filter((f) => !names.has(f.name)).map((f) => f.path);
  return report;
}

/** The journal's migrations up to and including `tag`, as a folder drizzle's migrator reads. */
function migrationsUpTo(tag: string, from: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'da-sql-extract-'));
  cpSync(from, dir, { recursive: true });
  const journalPath = join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { tag: string }[] };
  const at = journal.entries.findIndex((e) => e.tag === tag);
  if (at === -1) throw new Error(`no migration ${tag} in the journal`);
  journal.entries = journal.entries.slice(0, at + 1);
  writeFileSync(journalPath, JSON.stringify(journal));
  return dir;
}

/** The migration after which the files are applied: the one before the first later migration that creates a view or function. */
export function defaultSince(dir = MIGRATIONS_DIR): string {
  const entries = bundledMigrations(dir);
  const first = createdAfterBaseline(dir, entries)[0];
  if (!first) return entries[entries.length - 1]!.tag;
  const at = entries.findIndex((e) => e.tag === first.tag);
  return entries[at - 1]!.tag;
}

/** Versioned migrations up to `since`, the files under `root`, then the later versioned migrations. */
export async function migrateForExtract(client: pg.Client, root: string, since: string, dir = MIGRATIONS_DIR): Promise<void> {
  const before = migrationsUpTo(since, dir);
  try {
    await migrate(drizzle(client), { migrationsFolder: before });
  } finally {
    rmSync(before, { recursive: true, force: true });
  }
  await applySqlSource(client, filesInOrder(root));
  await migrate(drizzle(client), { migrationsFolder: dir });
}

function filesInOrder(root: string): SqlFile[] {
  return dependencyOrder(readSqlFiles(root));
}

async function main(argv: string[]): Promise<number> {
  const option = (flag: string) => {
    const at = argv.indexOf(flag);
    return at === -1 ? undefined : argv[at + 1];
  };
  const check = argv.includes('--check');
  const root = option('--root') ?? SQL_SOURCE_ROOT;
  const placed = new Map<string, string>();
  argv.forEach((arg, i) => {
    if (arg !== '--place') return;
    const [name, folder] = (argv[i + 1] ?? '').split('=');
    if (name && folder) placed.set(name, folder);
  });
  const url = option('--database-url');
  let stop: (() => Promise<void>) | null = null;
  let connection = url;
  if (!connection) {
    const embedded = await startEmbeddedPostgres({ password: 'extract', tempPrefix: 'da-sql-extract-pg-', flags: ['-c', 'fsync=off'] });
    stop = embedded.stop;
    const admin = new pg.Client({ connectionString: embedded.urlFor('postgres') });
    await admin.connect();
    await admin.query('create database extract');
    await admin.end();
    connection = embedded.urlFor('extract');
  }
  const client = new pg.Client({ connectionString: connection });
  await client.connect();
  try {
    if (!url) {
      const since = option('--since') ?? defaultSince();
      process.stdout.write(`migrating a throw-away database: versioned up to ${since}, the files, then the later versioned migrations\n`);
      await migrateForExtract(client, root, since);
    }
    const report = await extractSqlSource(client, root, !check, placed);
    const line = (label: string, names: string[]) => names.length > 0 && process.stdout.write(`${label} (${names.length}): ${names.join(', ')}\n`);
    process.stdout.write(`${report.kept.length} files hold their object's definition\n`);
    line(check ? 'would gain a depends-on' : 'depends-on updated', report.headers);
    line(check ? 'would be rewritten from the catalog' : 'rewritten from the catalog (read the diff: a view loses its inline comments)', report.rewritten);
    line(check ? 'would be created' : 'created', report.created);
    line('files with no object in the database (left alone)', report.unmatched);
    const changes = report.headers.length + report.rewritten.length + report.created.length;
    return check && changes > 0 ? 1 : 0;
  } finally {
    await client.end();
    await stop?.();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.exitCode = await main(process.argv.slice(2));
}
