import { expect } from 'chai';
import { readdirSync } from 'node:fs';
import pg from 'pg';
import { biViews } from '../../src/bi/views.js';
import { generatedBiViews } from '../../src/bi/generated.js';
import { runMigrations } from '../../src/db/migrations.js';
import { BASELINE_COLUMNS } from '../../src/exports/baseline.js';
import { grantBiCredential, revokeBiCredential, type BiCredential } from '../../src/bi/credentials.js';
import { biUrl } from './biUrl.js';
import { pgClients, revokeAll, twoFixtureTenants } from './helpers.js';

/** The PostgreSQL error code a query fails with, or null when it succeeds. */
async function failsWith(client: pg.Client, sql: string): Promise<string | null> {
  try {
    await client.query(sql);
    return null;
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  }
}

describe('bi schema: the tenant floor in the database', function () {
  this.timeout(120_000);
  const views = biViews();
  let databaseUrl: string, admin: pg.Pool, tenantA: string, tenantB: string;
  let credA: BiCredential, credB: BiCredential;
  let passwordA: string;
  const clients = pgClients();

  let shared: pg.Client | null = null;
  const sharedClient = async () => (shared ??= await connectAs(credA.user, passwordA));
  const connectAs = async (user: string, password: string): Promise<pg.Client> => {
    // The BI database, as a BI tool connects (docs/bi-database.md "The BI database").
    return clients.connect(biUrl(databaseUrl, user, password));
  };

  before(async () => {
    ({ databaseUrl, admin, tenantA, tenantB } = await twoFixtureTenants());
    const a = await grantBiCredential(admin, { tenantId: tenantA, name: 'Metabase' }, { connectionLimit: 3, statementTimeoutMs: 1000 });
    const b = await grantBiCredential(admin, { tenantId: tenantB, name: 'Metabase' });
    credA = a.credential;
    credB = b.credential;
    passwordA = a.password;
  });

  after(async () => {
    await clients.closeAll();
    await revokeAll(admin, [credA, credB]);
  });

  it('has one view per cube, with every column the models define and their descriptions as comments', async () => {
    const { rows } = await admin.query<{ table_name: string; column_name: string; comment: string | null }>(
      `select c.table_name, c.column_name, col_description(format('bi.%I', c.table_name)::regclass, c.ordinal_position) as comment
       from information_schema.columns c where c.table_schema = 'bi' order by c.table_name, c.ordinal_position`,
    );
    const actual = new Map<string, string[]>();
    for (const row of rows) actual.set(row.table_name, [...(actual.get(row.table_name) ?? []), row.column_name]);
    expect([...actual.keys()]).to.deep.equal([...views.map((v) => v.cube), 'team_month'].sort());
    expect(actual.get('team_month')).to.deep.equal([...BASELINE_COLUMNS, 'month_start']);
    for (const view of views) expect(actual.get(view.cube), view.cube).to.deep.equal(view.columns.map((c) => c.name));
    expect(rows.filter((r) => !r.comment).map((r) => `${r.table_name}.${r.column_name}`)).to.deep.equal([]);
    const flags = rows.filter((r) => r.table_name === 'deployments').map((r) => r.column_name);
    expect(flags).to.include.members(['is_production', 'is_failed', 'in_production_deploys', 'in_finished_production_deploys', 'recovered_at']);
    expect(rows.filter((r) => r.table_name === 'pull_requests').map((r) => r.column_name)).to.include('ai_assisted');
  });

  it('holds the views generated from the models today (migrate creates them: src/bi/generated.ts)', async () => {
    const generated = (await generatedBiViews()).statements
      .filter((statement) => statement.includes('CREATE VIEW'))
      .map((statement) => statement.replaceAll('"bi".', '"bi_check".'));
    const client = await admin.connect();
    try {
      await client.query('begin');
      await client.query('create schema bi_check');
      for (const statement of generated) await client.query(statement);
      const { rows } = await client.query(
        `select c.relname, pg_get_viewdef(c.oid) = pg_get_viewdef(format('bi_check.%I', c.relname)::regclass) as same
         from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'bi' and c.relkind = 'v' order by 1`,
      );
      expect(rows).to.deep.equal([...views.map((v) => v.cube), 'team_month'].sort().map((relname) => ({ relname, same: true })));
    } finally {
      await client.query('rollback');
      client.release();
    }
  });

  it("shows a BI role exactly its tenant's rows in every view", async () => {
    const clientA = await sharedClient();
    // One view per model file: the loop below covers every one of them.
    // The public corpus (schema/benchmarks.yml) is no tenant's data and has no BI view.
    const models = readdirSync(new URL('../../schema/', import.meta.url)).filter((f) => f.endsWith('.yml')).map((f) => f.replace('.yml', '')).filter((m) => m !== 'benchmarks').sort();
    expect(views.map((v) => v.cube)).to.deep.equal(models);
    for (const view of views) {
      const column = view.columns.find((c) => c.name === view.primaryKey)!;
      const expected = async (tenantId: string) =>
        (await admin.query<{ k: string }>(`select (${column.expression})::text as k from public.${view.source} s where s.tenant_id = $1 order by 1`, [tenantId])).rows.map((r) => r.k);
      const seen = (await clientA.query<{ k: string }>(`select "${view.primaryKey}"::text as k from bi."${view.cube}" order by 1`)).rows.map((r) => r.k);
      const ofA = await expected(tenantA);
      const ofB = await expected(tenantB);
      expect(ofA.length, `${view.cube} has rows in the fixture`).to.be.greaterThan(0);
      expect(seen, view.cube).to.deep.equal(ofA);
      expect(seen.filter((k) => ofB.includes(k)), view.cube).to.deep.equal([]);
    }
  });

  it('migrate recreates every bi view when a view file changed, and a granted BI role reads them as before', async () => {
    const clientA = await sharedClient();
    const read = async () => (await clientA.query<{ id: string }>('select id::text from bi.deployments order by 1')).rows;
    const oids = async () => (await admin.query<{ relname: string; oid: number }>(
      `select c.relname, c.oid::int as oid from pg_class c where c.relnamespace = 'bi'::regnamespace and c.relkind = 'v' order by 1`,
    )).rows;
    const seen = await read();
    expect(seen.length).to.be.greaterThan(0);
    const before = await oids();
    const migrate = async () => {
      const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
      try {
        await runMigrations(pool, { jobs: [], generatedViews: generatedBiViews });
      } finally {
        await pool.end();
      }
    };
    // Nothing changed: nothing recreated.
    await migrate();
    expect(await oids()).to.deep.equal(before);
    // As after a release whose cube_deployments.sql differs from the one applied.
    await admin.query(`update drizzle.sql_source set checksum = 'stale' where name = 'cube_deployments'`);
    await migrate();
    const after = await oids();
    expect(after.map((r) => r.relname)).to.deep.equal(before.map((r) => r.relname));
    expect(after.filter((r) => before.some((b) => b.oid === r.oid))).to.deep.equal([]);
    expect(await read()).to.deep.equal(seen);
  });

  it('aggregates a measure from its flags to the same number as the facts', async () => {
    const clientA = await sharedClient();
    const { rows: [bi] } = await clientA.query('select count(*) filter (where in_production_deploys)::int as n, count(*) filter (where in_failed_production_deploys)::int as failed from bi.deployments');
    const { rows: [facts] } = await admin.query(
      `select count(*) filter (where is_production and status = 'success')::int as n, count(*) filter (where is_failed)::int as failed from cube_deployments where tenant_id = $1`,
      [tenantA],
    );
    expect(bi).to.deep.equal(facts);
    expect(facts.n).to.be.greaterThan(0);
  });

  it('refuses reading public.*, the mapping, writes, temporary tables and SET ROLE', async () => {
    const client = await sharedClient();
    // The BI database has no such relations at all (42P01), not even schema public.
    expect(await failsWith(client, 'select * from public.deployments')).to.equal('42P01');
    expect(await failsWith(client, 'select * from public.cube_deployments')).to.equal('42P01');
    expect(await failsWith(client, 'select * from public.bi_credentials')).to.equal('42P01');
    expect(await failsWith(client, 'select * from drizzle.__drizzle_migrations')).to.equal('42P01');
    expect(await failsWith(client, "select pg_read_file('/etc/hostname')")).to.equal('42501');
    // A write to a view is refused for want of the privilege (the rewriter checks it, before the
    // executor's read-only check); default_transaction_read_only refuses DDL first and, once the
    // client turns it off (it may), the missing privileges do.
    expect(await failsWith(client, 'delete from bi.deployments')).to.equal('42501');
    expect(await failsWith(client, 'create table bi.t (x int)')).to.equal('25006');
    await client.query('set default_transaction_read_only = off');
    expect(await failsWith(client, 'delete from bi.deployments')).to.equal('42501');
    expect(await failsWith(client, 'create table bi.t (x int)')).to.equal('42501');
    expect(await failsWith(client, 'create table public.t (x int)')).to.equal('3F000');
    expect(await failsWith(client, 'create table bi_fdw.t (x int)')).to.equal('42501');
    expect(await failsWith(client, 'create table bi_source.t (x int)')).to.equal('42501');
    expect(await failsWith(client, 'create temporary table t (x int)')).to.equal('42501');
    expect(await failsWith(client, `set role "${credB.user}"`)).to.equal('42501');
    expect(await failsWith(client, 'set role postgres')).to.equal('42501');
    expect(await failsWith(client, `set session authorization "${credB.user}"`)).to.equal('42501');
    await client.query('reset default_transaction_read_only');
  });

  it('lists the bi views, and nothing else readable by name, to the introspection queries of BI tools', async () => {
    const client = await sharedClient();
    const cubes = views.map((v) => v.cube);
    const all = [...cubes, 'team_month'].sort();
    // The foreign tables under the views (bi_source) are listed too, where a listing shows every
    // relation the role holds a privilege on: a security_invoker view needs SELECT on them. Their
    // schema gives no USAGE, so no query can name them (docs/bi-database.md "The BI database").
    const tables = await client.query(
      "select table_schema, table_name, table_type from information_schema.tables where table_schema not in ('pg_catalog', 'information_schema') order by 1, 2",
    );
    expect(tables.rows).to.deep.equal([
      ...all.map((name) => ({ table_schema: 'bi', table_name: name, table_type: 'VIEW' })),
      ...all.map((name) => ({ table_schema: 'bi_source', table_name: name, table_type: 'FOREIGN' })),
    ]);
    const columns = await client.query("select distinct table_schema from information_schema.columns where table_schema not in ('pg_catalog', 'information_schema') order by 1");
    expect(columns.rows).to.deep.equal([{ table_schema: 'bi' }, { table_schema: 'bi_source' }]);
    // What psql's \d and Metabase's sync read from pg_catalog, limited as they do to readable relations in usable schemas.
    const readable = await client.query(
      `select n.nspname, c.relname from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
       where c.relkind in ('r', 'p', 'v', 'm', 'f') and n.nspname not in ('pg_catalog', 'information_schema')
         and has_table_privilege(c.oid, 'SELECT') and has_schema_privilege(n.oid, 'USAGE') order by 2`,
    );
    expect(readable.rows).to.deep.equal(all.map((name) => ({ nspname: 'bi', relname: name })));
    const schemas = await client.query(
      "select nspname from pg_namespace where has_schema_privilege(oid, 'USAGE') and nspname not like 'pg\\_%' and nspname <> 'information_schema' order by 1",
    );
    expect(schemas.rows).to.deep.equal([{ nspname: 'bi' }]);
    for (const name of all) expect(await failsWith(client, `select * from bi_source.${name}`), name).to.equal('42501');
  });

  it('has no other schema for information_schema and privilege checks to answer about (issue 32), and gives every bi column its comment', async () => {
    const client = await sharedClient();
    const columns = await client.query("select column_name from information_schema.columns where table_schema = 'public' and table_name = 'api_keys'");
    expect(columns.rows).to.deep.equal([]);
    const usage = await client.query(
      "select to_regnamespace('public') as public, to_regnamespace('drizzle') as drizzle, to_regnamespace('pgboss') as pgboss, has_schema_privilege('bi', 'USAGE') as bi, has_schema_privilege('bi_fdw', 'USAGE') as fdw, has_schema_privilege('bi_source', 'USAGE') as source",
    );
    expect(usage.rows).to.deep.equal([{ public: null, drizzle: null, pgboss: null, bi: true, fdw: false, source: false }]);
    for (const table of ['public.api_keys', 'public.tenants', 'pgboss.job', 'drizzle.__drizzle_migrations']) {
      expect(await failsWith(client, `select * from ${table}`), table).to.equal('42P01');
    }
    expect(await failsWith(client, "select pg_relation_size('public.api_keys')")).to.equal('42P01');
    // What ODBC's and JDBC's column listings can read as REMARKS: every bi column has a comment.
    const uncommented = await client.query(
      `select c.relname, a.attname from pg_class c join pg_namespace n on n.oid = c.relnamespace join pg_attribute a on a.attrelid = c.oid
       where n.nspname = 'bi' and a.attnum > 0 and not a.attisdropped and col_description(c.oid, a.attnum) is null`,
    );
    expect(uncommented.rows).to.deep.equal([]);
    expect((await client.query('select count(*)::int as n from bi.teams')).rows[0].n).to.be.greaterThan(0);
  });

  it('sets a connection limit and a statement_timeout on the role, which cancels a slow query', async () => {
    const { rows } = await admin.query(
      `select r.rolconnlimit, r.rolsuper, r.rolcreaterole, r.rolcreatedb, s.setconfig from pg_roles r
       left join pg_db_role_setting s on s.setrole = r.oid where r.rolname = $1`,
      [credA.user],
    );
    expect(rows[0]).to.deep.include({ rolconnlimit: 3, rolsuper: false, rolcreaterole: false, rolcreatedb: false });
    expect(rows[0].setconfig).to.include('statement_timeout=1000');
    const client = await sharedClient();
    expect(await failsWith(client, 'select pg_sleep(5)')).to.equal('57014');
    expect(await failsWith(client, 'select pg_sleep(5), id from bi.deployments limit 1')).to.equal('57014');
  });

  it("keeps the credential's limits on the source side whatever the BI session sets, and the views refuse a source session outside them", async () => {
    // In the BI database a client may switch its own timeouts off (no view there can check them;
    // the watchdog bounds that session). The reading runs in the source role's session, which
    // nobody can SET anything in: its defaults are the credential's.
    const client = await sharedClient();
    const { rows: [{ source }] } = await admin.query('select role_name as source from bi_credentials where id = $1', [credA.id]);
    try {
      await client.query('set statement_timeout = 0');
      await client.query('set idle_in_transaction_session_timeout = 0');
      await client.query("set work_mem = '1GB'");
      expect((await client.query('select count(*)::int as n from bi.deployments')).rows[0].n).to.be.greaterThan(0);
      expect((await client.query('select count(*)::int as n from bi.team_month')).rows[0].n).to.be.greaterThan(0);
      // A join and count postgres_fdw sends whole to the source session runs there under 1000 ms.
      const error = await client.query(
        `select count(*) from ${'abcdefghij'.split('').map((t) => `bi.pull_requests ${t}`).join(', ')}`,
      ).then(() => null, (e: { code?: string; message?: string }) => e);
      expect(error, 'cancelled by the source session').to.include({ code: '57014' });
      await client.query('set default_transaction_read_only = off');
      expect(await failsWith(client, `alter role "${source}" set statement_timeout = 0`)).to.equal('42501');
    } finally {
      await client.query('reset all');
    }
    const { rows: [settings] } = await admin.query(
      'select s.setconfig from pg_db_role_setting s join pg_roles r on r.oid = s.setrole where r.rolname = $1 and s.setdatabase = 0',
      [source],
    );
    expect(settings.setconfig).to.include.members(['statement_timeout=1000', 'idle_in_transaction_session_timeout=1000', 'default_transaction_read_only=on']);
    // The views' own check (migration 0037) still refuses a source session outside the limits.
    const direct = await admin.connect();
    try {
      await direct.query(`set role "${source}"`);
      for (const setting of ['statement_timeout = 0', "statement_timeout = '10min'", 'idle_in_transaction_session_timeout = 0', 'idle_in_transaction_session_timeout = 5000']) {
        await direct.query(`set ${setting}`);
        let error: { code?: string; message?: string } | null = null;
        await direct.query('select count(*) from bi.deployments').catch((e) => (error = e));
        expect(error, setting).to.include({ code: '42501' });
        expect(error!.message).to.match(/^(statement_timeout|idle_in_transaction_session_timeout) is \d+ ms; this BI credential allows at most 1000 ms$/);
        await direct.query('reset statement_timeout');
        await direct.query('reset idle_in_transaction_session_timeout');
      }
    } finally {
      await direct.query('reset all').catch(() => {});
      await direct.query('reset role').catch(() => {});
      direct.release();
    }
  });

  it('refuses a wrong password', async () => {
    let code: string | null = null;
    await connectAs(credA.user, 'wrong').catch((error) => (code = (error as { code?: string }).code ?? null));
    expect(code).to.equal('28P01');
  });

  it('revoking drops the role and ends its open connection', async () => {
    const granted = await grantBiCredential(admin, { tenantId: tenantA, name: 'Temporary' });
    const client = await connectAs(granted.credential.user, granted.password);
    expect((await client.query('select count(*)::int as n from bi.teams')).rows[0].n).to.be.greaterThan(0);
    await revokeBiCredential(admin, tenantA, granted.credential.id);
    expect(await failsWith(client, 'select 1')).to.not.equal(null);
    const roles = await admin.query('select 1 from pg_roles where rolname = $1', [granted.credential.user]);
    expect(roles.rowCount).to.equal(0);
    let code: string | null = null;
    await connectAs(granted.credential.user, granted.password).catch((error) => (code = (error as { code?: string }).code ?? null));
    expect(code).to.equal('28P01');
  });
});
