/**
 * The current SQL in source (issue 44, docs/sql-source.md): each hand-written view and function of
 * schema public is one file under src/<capability>/sql/, the migrated database holds exactly those
 * definitions, `migrate` applies a changed file (dropping and recreating what CREATE OR REPLACE
 * cannot change, dependent views kept), and tools/sql/extract.ts writes the files back from a
 * database.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import pg from 'pg';
import { bundledMigrations, MIGRATIONS_DIR, runMigrations } from '../../src/db/migrations.js';
import {
  applySqlSource, checksumOf, compareWithDatabase, createdAfterBaseline, definitionOf, dependencyOrder, dependsOnOf,
  handWrittenObjects, objectsCreatedBy, readSqlFiles, SQL_SOURCE_ROOT, sqlFiles, type GeneratedViews, type SqlFile,
} from '../../src/db/sqlSource.js';
import { defaultSince, extractSqlSource, migrateForExtract } from '../../tools/sql/extract.js';
import { emptyDatabase, freshDatabase } from '../helpers/database.js';

/** The view's file text with one column appended (the query wrapped: CREATE OR REPLACE keeps the existing columns first). */
function wrap(text: string, name: string, column: string): string {
  const head = `CREATE OR REPLACE VIEW "${name}" AS`;
  expect(text).to.include(head);
  return `${text.trimEnd().replace(/;$/, '').replace(head, `${head} SELECT s.*, ${column} FROM (`)}) s;\n`;
}

function probe(name: string, text: string, dependsOn: string[] = []): SqlFile {
  return { name, path: `probe/sql/${name}.sql`, text, checksum: checksumOf(text), dependsOn };
}

describe('SQL source: views and functions as files', function () {
  this.timeout(120_000);
  const files = sqlFiles();
  let migrated: pg.Client;

  before(async () => {
    migrated = new pg.Client({ connectionString: await freshDatabase() });
    await migrated.connect();
  });
  after(() => migrated?.end());

  it('holds one file per hand-written view and function of schema public, and no file without its object', async () => {
    const objects = await handWrittenObjects(migrated);
    expect(objects.length).to.be.greaterThan(30);
    expect(files.map((f) => f.name).sort()).to.deep.equal(objects.map((o) => o.name).sort());
    for (const file of files) expect(file.path, file.name).to.match(/^[a-zA-Z]+\/sql\/[a-z_0-9]+\.sql$/);
  });

  it('each file makes exactly the definition the migrated database holds', async () => {
    const differing = (await compareWithDatabase(migrated, files)).filter((c) => !c.same).map((c) => `${c.file.path}: ${c.error ?? 'differs'}`);
    expect(differing).to.deep.equal([]);
  });

  it('tells a file that differs from the database by one expression, one column or one argument type', async () => {
    const text = (name: string) => files.find((f) => f.name === name)!.text;
    const changed = [
      probe('cube_deployments', text('cube_deployments').replace("f.status IN ('success', 'failure', 'error') AS is_finished", "f.status IN ('success', 'failure') AS is_finished")),
      probe('survey_team_results', wrap(text('survey_team_results'), 'survey_team_results', '1 AS extra')),
      probe('cube_rollup_month', text('cube_rollup_month').replace('cube_rollup_month(ts timestamptz)', 'cube_rollup_month(ts timestamp)')),
      probe('deployment_source_of', `${text('deployment_source_of').trimEnd()}\n`),
    ];
    expect(changed.map((c) => c.text === text(c.name))).to.deep.equal([false, false, false, true]);
    const result = await compareWithDatabase(migrated, changed);
    expect(result.map((c) => [c.file.name, c.same])).to.deep.equal([
      ['cube_deployments', false], ['survey_team_results', false], ['cube_rollup_month', false], ['deployment_source_of', true],
    ]);
    // Nothing of the comparison stays behind.
    expect((await compareWithDatabase(migrated, files)).every((c) => c.same)).to.equal(true);
    expect((await definitionOf(migrated, 'cube_rollup_month'))!.definitions).to.have.lengthOf(1);
  });

  it('orders the files by their depends-on lines, refusing a cycle or an unknown name', () => {
    const names = files.map((f) => f.name);
    for (const file of files) for (const needed of file.dependsOn) expect(names.indexOf(needed), `${file.name} after ${needed}`).to.be.lessThan(names.indexOf(file.name));
    expect(dependsOnOf('-- why\n-- depends-on: a, b\n-- depends-on: c\nCREATE VIEW x AS SELECT 1; -- depends-on: d')).to.deep.equal(['a', 'b', 'c']);
    expect(() => dependencyOrder([probe('a', '', ['b']), probe('b', '', ['a'])])).to.throw('cycle: a -> b -> a');
    expect(() => dependencyOrder([probe('a', '', ['nowhere'])])).to.throw('depends on nowhere, which has no SQL source file');
    expect(() => dependencyOrder([probe('a', ''), { ...probe('a', ''), path: 'other/sql/a.sql' }])).to.throw('two SQL source files define a');
  });

  it('versioned migrations after the baseline create no filed view or function (the file is changed instead)', () => {
    expect(objectsCreatedBy(`-- create view not_this\nCREATE OR REPLACE VIEW "public"."a" AS SELECT 1;\ncreate function b(x int) returns int;\nCREATE VIEW "bi"."c" AS SELECT 1;\nCREATE MATERIALIZED VIEW d AS SELECT 1;`))
      .to.deep.equal(['a', 'b', 'd']);
    const names = new Set(files.map((f) => f.name));
    expect(createdAfterBaseline(MIGRATIONS_DIR, bundledMigrations()).filter((c) => names.has(c.name))).to.deep.equal([]);
  });

  it('records each applied file; a second run applies nothing', async () => {
    const recorded = (await migrated.query<{ name: string; path: string; checksum: string }>('select name, path, checksum from drizzle.sql_source order by name')).rows;
    expect(recorded).to.deep.equal(files.map((f) => ({ name: f.name, path: f.path, checksum: f.checksum })).sort((a, b) => a.name.localeCompare(b.name)));
    expect(await applySqlSource(migrated, files)).to.deep.equal({ applied: [], dropped: [], generated: [] });
  });

  it('the extract tool finds every file current on the migrated database', async () => {
    const report = await extractSqlSource(migrated, SQL_SOURCE_ROOT, false);
    expect(report).to.deep.equal({ kept: files.map((f) => f.name).sort(), headers: [], rewritten: [], created: [], unmatched: [] });
  });
});

describe('SQL source: migrate applies changed files', function () {
  this.timeout(120_000);
  let url: string;
  let client: pg.Client;
  const files = sqlFiles();
  const biReader = `CREATE VIEW bi.sqlsrc_probe_reader WITH (security_barrier = true) AS SELECT a, b FROM public.sqlsrc_probe;
    COMMENT ON VIEW bi.sqlsrc_probe_reader IS 'reads the probe';
    COMMENT ON COLUMN bi.sqlsrc_probe_reader.a IS 'the a';
    GRANT SELECT ON bi.sqlsrc_probe_reader TO app_tenant`;
  const readerState = async () => (await client.query(`
    select c.reloptions, c.relacl::text[] as acl, pg_get_viewdef(c.oid) as def, obj_description(c.oid, 'pg_class') as comment,
           col_description(c.oid, 1) as column_comment
      from pg_class c where c.oid = 'bi.sqlsrc_probe_reader'::regclass`)).rows[0];

  before(async () => {
    url = await freshDatabase();
    client = new pg.Client({ connectionString: url });
    await client.connect();
  });
  after(() => client?.end());

  it('a view losing a column is dropped and recreated, and the views reading it come back with their options, grants and comments', async () => {
    const first = probe('sqlsrc_probe', 'CREATE OR REPLACE VIEW sqlsrc_probe AS SELECT 1 AS a, 2 AS b, 3 AS c;');
    expect(await applySqlSource(client, [...files, first])).to.deep.equal({ applied: ['sqlsrc_probe'], dropped: [], generated: [] });
    await client.query(biReader);
    const before = await readerState();
    expect(before.reloptions).to.deep.equal(['security_barrier=true']);
    const second = probe('sqlsrc_probe', 'CREATE OR REPLACE VIEW sqlsrc_probe AS SELECT 10 AS a, 20 AS b;');
    expect(await applySqlSource(client, [...files, second])).to.deep.equal({ applied: ['sqlsrc_probe'], dropped: [], generated: [] });
    expect(await readerState()).to.deep.equal(before);
    expect((await client.query('select a, b from bi.sqlsrc_probe_reader')).rows).to.deep.equal([{ a: 10, b: 20 }]);
    expect((await client.query(`select checksum from drizzle.sql_source where name = 'sqlsrc_probe'`)).rows).to.deep.equal([{ checksum: second.checksum }]);
  });

  it('refuses, changing nothing, when a dependent view cannot read the new definition', async () => {
    const third = probe('sqlsrc_probe', 'CREATE OR REPLACE VIEW sqlsrc_probe AS SELECT 10 AS a;');
    let error: Error | null = null;
    await applySqlSource(client, [...files, third]).catch((e: Error) => { error = e; });
    expect(error!.message).to.include('probe/sql/sqlsrc_probe.sql: a view that depended on sqlsrc_probe cannot be recreated');
    expect((await client.query('select a, b from bi.sqlsrc_probe_reader')).rows).to.deep.equal([{ a: 10, b: 20 }]);
    await client.query('DROP VIEW bi.sqlsrc_probe_reader');
  });

  it('a function with new argument types replaces the old one; with a new result type it is dropped and recreated', async () => {
    const fn = (text: string) => probe('sqlsrc_probe_fn', text);
    // The view probe's file is gone from this run's files: its view goes.
    expect(await applySqlSource(client, [...files, fn('CREATE OR REPLACE FUNCTION sqlsrc_probe_fn(x integer) RETURNS integer LANGUAGE sql IMMUTABLE AS $$ SELECT x + 1 $$;')]))
      .to.deep.equal({ applied: ['sqlsrc_probe_fn'], dropped: ['sqlsrc_probe'], generated: [] });
    expect(await definitionOf(client, 'sqlsrc_probe')).to.equal(null);
    await applySqlSource(client, [...files, fn('CREATE OR REPLACE FUNCTION sqlsrc_probe_fn(x bigint) RETURNS integer LANGUAGE sql IMMUTABLE AS $$ SELECT (x + 2)::int $$;')]);
    const signatures = async () => (await client.query<{ s: string }>(`select p.oid::regprocedure::text || ' ' || pg_get_function_result(p.oid) as s from pg_proc p where p.proname = 'sqlsrc_probe_fn'`)).rows.map((r) => r.s);
    expect(await signatures()).to.deep.equal(['sqlsrc_probe_fn(bigint) integer']);
    await applySqlSource(client, [...files, fn('CREATE OR REPLACE FUNCTION sqlsrc_probe_fn(x bigint) RETURNS text LANGUAGE sql IMMUTABLE AS $$ SELECT x::text $$;')]);
    expect(await signatures()).to.deep.equal(['sqlsrc_probe_fn(bigint) text']);
  });

  it('refuses to drop a function an index reads, naming the index, and keeps the database as it was', async () => {
    const file = files.find((f) => f.name === 'deployment_source_of')!;
    const retyped = probe('deployment_source_of', file.text.replace('RETURNS text', 'RETURNS varchar'));
    expect(retyped.text).to.not.equal(file.text);
    const before = await definitionOf(client, 'deployment_source_of');
    let error: Error | null = null;
    await applySqlSource(client, [...files.filter((f) => f !== file), retyped]).catch((e: Error) => { error = e; });
    expect(error!.message).to.include('index deployments_project_source_created_idx');
    expect(error!.message).to.include('change it with a versioned migration');
    expect(await definitionOf(client, 'deployment_source_of')).to.deep.equal(before);
  });

  it('drops the object of a deleted file', async () => {
    expect(await applySqlSource(client, files)).to.deep.equal({ applied: [], dropped: ['sqlsrc_probe_fn'], generated: [] });
    expect(await definitionOf(client, 'sqlsrc_probe_fn')).to.equal(null);
  });

  it('recreates a filed object a versioned migration dropped, though its file did not change', async () => {
    await client.query('DROP VIEW survey_team_results CASCADE');
    expect(await applySqlSource(client, files)).to.deep.equal({ applied: ['survey_team_results'], dropped: [], generated: [] });
    expect((await compareWithDatabase(client, files.filter((f) => f.name === 'survey_team_results')))[0]!.same).to.equal(true);
  });

  it('three instances migrating at once all succeed, one after the other under the migration lock, and the changed file is applied and recorded', async () => {
    await client.query(`update drizzle.sql_source set checksum = 'stale' where name = 'cube_commits'`);
    const pools = [1, 2, 3].map(() => new pg.Pool({ connectionString: url, max: 1 }));
    try {
      await Promise.all(pools.map((pool) => runMigrations(pool, { jobs: [] })));
    } finally {
      await Promise.all(pools.map((pool) => pool.end()));
    }
    const record = (await client.query(`select checksum, applied_at from drizzle.sql_source where name = 'cube_commits'`)).rows[0];
    expect(record.checksum).to.equal(files.find((f) => f.name === 'cube_commits')!.checksum);
    expect((await compareWithDatabase(client, files)).every((c) => c.same)).to.equal(true);
  });
});

describe('SQL source: migrate recreates the generated views over the files', function () {
  this.timeout(120_000);
  let client: pg.Client;
  const files = sqlFiles();
  const source = (text: string) => probe('sqlsrc_gen_source', `CREATE OR REPLACE VIEW sqlsrc_gen_source AS ${text};`);
  /** Generated views as the bi ones are (a schema of their own here): over a filed view, with options and comments; `columns` picks what they read. */
  const generated = (columns: string, views = ['sqlsrc_gen_a', 'sqlsrc_gen_b']): GeneratedViews => ({
    schema: 'sqlsrc_gen',
    views,
    statements: views.flatMap((view) => [
      `CREATE VIEW "sqlsrc_gen"."${view}" WITH (security_barrier = true) AS SELECT ${columns} FROM "public"."sqlsrc_gen_source" s`,
      `COMMENT ON VIEW "sqlsrc_gen"."${view}" IS 'generated ${view}'`,
    ]),
  });
  const oids = async () => (await client.query<{ relname: string; oid: number }>(
    `select c.relname, c.oid::int as oid from pg_class c where c.relnamespace = 'sqlsrc_gen'::regnamespace and c.relname like 'sqlsrc_gen_%' order by 1`,
  )).rows;

  before(async () => {
    client = new pg.Client({ connectionString: await freshDatabase() });
    await client.connect();
    await client.query('CREATE SCHEMA sqlsrc_gen');
  });
  after(() => client?.end());

  it('creates them after the files and records them; a second run recreates nothing', async () => {
    const first = source('SELECT 1 AS a, 2 AS b');
    expect(await applySqlSource(client, [...files, first], generated('s.a, s.b')))
      .to.deep.equal({ applied: ['sqlsrc_gen_source'], dropped: [], generated: ['sqlsrc_gen.sqlsrc_gen_a', 'sqlsrc_gen.sqlsrc_gen_b'] });
    expect((await client.query('select * from sqlsrc_gen.sqlsrc_gen_b')).rows).to.deep.equal([{ a: 1, b: 2 }]);
    expect((await client.query(`select obj_description('sqlsrc_gen.sqlsrc_gen_a'::regclass, 'pg_class') as c`)).rows).to.deep.equal([{ c: 'generated sqlsrc_gen_a' }]);
    expect((await client.query(`select schema, views from drizzle.sql_source_generated where schema = 'sqlsrc_gen'`)).rows)
      .to.deep.equal([{ schema: 'sqlsrc_gen', views: ['sqlsrc_gen_a', 'sqlsrc_gen_b'] }]);
    const before = await oids();
    expect(await applySqlSource(client, [...files, first], generated('s.a, s.b'))).to.deep.equal({ applied: [], dropped: [], generated: [] });
    expect(await oids()).to.deep.equal(before);
  });

  it('a file losing a column the old views read: the views are dropped first and generated anew over it', async () => {
    const before = await oids();
    // Without the generated views the runner would have to carry them over and refuses (see above).
    expect(await applySqlSource(client, [...files, source('SELECT 10 AS a')], generated('s.a')))
      .to.deep.equal({ applied: ['sqlsrc_gen_source'], dropped: [], generated: ['sqlsrc_gen.sqlsrc_gen_a', 'sqlsrc_gen.sqlsrc_gen_b'] });
    expect((await client.query('select * from sqlsrc_gen.sqlsrc_gen_a')).rows).to.deep.equal([{ a: 10 }]);
    const after = await oids();
    expect(after.map((r) => r.relname)).to.deep.equal(before.map((r) => r.relname));
    expect(after.map((r) => r.oid)).to.not.include.members(before.map((r) => r.oid));
  });

  it('their SQL changing, a file unchanged: recreated; a view no longer generated is dropped; one dropped by hand comes back', async () => {
    const file = source('SELECT 10 AS a');
    expect(await applySqlSource(client, [...files, file], generated('s.a, s.a + 1 AS a1', ['sqlsrc_gen_a'])))
      .to.deep.equal({ applied: [], dropped: [], generated: ['sqlsrc_gen.sqlsrc_gen_a'] });
    expect((await oids()).map((r) => r.relname)).to.deep.equal(['sqlsrc_gen_a']);
    expect((await client.query('select * from sqlsrc_gen.sqlsrc_gen_a')).rows).to.deep.equal([{ a: 10, a1: 11 }]);
    await client.query('DROP VIEW sqlsrc_gen.sqlsrc_gen_a');
    expect(await applySqlSource(client, [...files, file], generated('s.a, s.a + 1 AS a1', ['sqlsrc_gen_a'])))
      .to.deep.equal({ applied: [], dropped: [], generated: ['sqlsrc_gen.sqlsrc_gen_a'] });
  });

  it('refuses, changing nothing, when the generated views do not fit the files', async () => {
    const before = await oids();
    let error: Error | null = null;
    await applySqlSource(client, [...files, source('SELECT 20 AS a')], generated('s.a, s.gone', ['sqlsrc_gen_a'])).catch((e: Error) => { error = e; });
    expect(error!.message).to.include('the generated sqlsrc_gen views cannot be created over the files');
    expect(await oids()).to.deep.equal(before);
    expect((await client.query('select * from sqlsrc_gen.sqlsrc_gen_a')).rows).to.deep.equal([{ a: 10, a1: 11 }]);
  });
});

describe('SQL source: the extract tool', function () {
  this.timeout(180_000);
  let root: string;

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'da-sql-root-'));
    for (const file of readSqlFiles()) cpSync(join(SQL_SOURCE_ROOT, file.path), join(root, file.path));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('rewrites a file a database defines otherwise under its comments, adds a missing depends-on, writes a file for an object without one', async () => {
    const client = new pg.Client({ connectionString: await freshDatabase() });
    await client.connect();
    try {
      const cubeDeployments = join(root, 'cube/sql/cube_deployments.sql');
      writeFileSync(cubeDeployments, readFileSync(cubeDeployments, 'utf8').replace('-- depends-on: cube_incidents\n', ''));
      await client.query(`CREATE OR REPLACE FUNCTION cube_rollup_month(ts timestamptz) RETURNS date LANGUAGE sql IMMUTABLE PARALLEL SAFE
        AS $$ SELECT date_trunc('month', ts AT TIME ZONE 'Europe/Paris')::date $$`);
      await client.query(`CREATE FUNCTION survey_probe_fn() RETURNS int LANGUAGE sql AS $$ SELECT count(*)::int FROM survey_team_results $$`);
      const report = await extractSqlSource(client, root, true);
      expect(report.headers).to.deep.equal(['cube_deployments']);
      expect(report.rewritten).to.deep.equal(['cube_rollup_month']);
      expect(report.created).to.deep.equal(['survey_probe_fn']);
      expect(readFileSync(cubeDeployments, 'utf8')).to.include('-- depends-on: cube_incidents\nCREATE OR REPLACE VIEW "cube_deployments" AS\n');
      const month = readFileSync(join(root, 'cube/sql/cube_rollup_month.sql'), 'utf8');
      expect(month).to.match(/^-- Defined by versioned migrations up to 0016_cube_rollups; [^\n]*\n-- The month \(UTC\) [^\n]*\nCREATE OR REPLACE FUNCTION public\.cube_rollup_month\(ts timestamp with time zone\)/);
      expect(month).to.include("'Europe/Paris'");
      const created = readFileSync(join(root, 'surveys/sql/survey_probe_fn.sql'), 'utf8');
      expect(created).to.match(/^-- depends-on: survey_team_results\nCREATE OR REPLACE FUNCTION public\.survey_probe_fn\(\)/);
      expect((await compareWithDatabase(client, dependencyOrder(readSqlFiles(root)))).every((c) => c.same)).to.equal(true);
    } finally {
      await client.end();
    }
  });

  it('moves a view a merged versioned migration redefines into its file, keeping a file edited since', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'da-sql-migrations-'));
    const client = new pg.Client({ connectionString: await emptyDatabase() });
    try {
      cpSync(MIGRATIONS_DIR, dir, { recursive: true });
      const journalPath = join(dir, 'meta', '_journal.json');
      const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { idx: number; when: number; tag: string; version: string; breakpoints: boolean }[] };
      const last = journal.entries[journal.entries.length - 1]!;
      const tag = '9999_merged_branch';
      journal.entries.push({ ...last, idx: last.idx + 1, when: last.when + 1000, tag });
      writeFileSync(journalPath, JSON.stringify(journal));
      // The branch's migration: cube_seat_months gains a column, as a branch begun before the files wrote it.
      const seatMonths = readFileSync(join(root, 'cube/sql/cube_seat_months.sql'), 'utf8');
      writeFileSync(join(dir, `${tag}.sql`), wrap(seatMonths, 'cube_seat_months', '1 AS merged_probe'));
      // A file edited on this side since the baseline, which the branch did not touch.
      const teamResults = join(root, 'surveys/sql/survey_team_results.sql');
      const edited = wrap(readFileSync(teamResults, 'utf8'), 'survey_team_results', '2 AS edited_here');
      writeFileSync(teamResults, edited);
      expect(defaultSince(dir)).to.equal(last.tag);
      await client.connect();
      await migrateForExtract(client, root, defaultSince(dir), dir);
      const report = await extractSqlSource(client, root, true);
      expect(report.rewritten).to.deep.equal(['cube_seat_months']);
      expect(readFileSync(join(root, 'cube/sql/cube_seat_months.sql'), 'utf8')).to.include('merged_probe');
      expect(readFileSync(teamResults, 'utf8')).to.equal(edited);
    } finally {
      await client.end();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
