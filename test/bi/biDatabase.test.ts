import { expect } from 'chai';
import pg from 'pg';
import { applyRoleSettings, grantBiCredential, revokeBiCredential, scramVerifier, type BiCredential } from '../../src/bi/credentials.js';
import { syncBiDatabase } from '../../src/bi/database.js';
import { biUrl } from './biUrl.js';
import { pgClients, revokeAll, twoFixtureTenants } from './helpers.js';

/** The PostgreSQL error a promise fails with ({code, message}), or null when it succeeds. */
async function failure(work: Promise<unknown>): Promise<{ code?: string; message: string } | null> {
  try {
    await work;
    return null;
  } catch (error) {
    return error as { code?: string; message: string };
  }
}

// Issue 32 point 3: in the database it connects to, PostgreSQL shows every role the whole catalogue.
describe('bi database: a BI role connects to a database holding only bi', function () {
  this.timeout(120_000);
  let databaseUrl: string, admin: pg.Pool, tenantA: string, tenantB: string;
  let credA: BiCredential, credB: BiCredential;
  let passwordA: string;
  let passwordB: string;
  const clients = pgClients();
  const connect = clients.connect;
  const asBi = (user: string, password: string) => connect(biUrl(databaseUrl, user, password));
  // The credential's connection limit (5) counts every session: the tests of A share one.
  let shared: pg.Client | null = null;
  const asA = async () => (shared ??= await asBi(credA.user, passwordA));
  const biAdmin = () => connect(biUrl(databaseUrl, new URL(databaseUrl).username, decodeURIComponent(new URL(databaseUrl).password)));
  const keys = async (client: pg.Client | pg.Pool, sql: string, values: unknown[] = []) => (await client.query<{ k: string }>(sql, values)).rows.map((r) => r.k);

  before(async () => {
    ({ databaseUrl, admin, tenantA, tenantB } = await twoFixtureTenants());
    ({ credential: credA, password: passwordA } = await grantBiCredential(admin, { tenantId: tenantA, name: 'Metabase' }));
    ({ credential: credB, password: passwordB } = await grantBiCredential(admin, { tenantId: tenantB, name: 'Metabase' }));
  });

  after(async () => {
    await clients.closeAll();
    await revokeAll(admin, [credA, credB]);
  });

  it('shows no table, column, schema or row count of the application in pg_catalog', async () => {
    const client = await asA();
    const { rows: [{ database }] } = await client.query('select current_database() as database');
    expect(database).to.equal(`${new URL(databaseUrl).pathname.slice(1)}_bi`);
    const open = await client.query(
      "select has_database_privilege('public', current_database(), 'CONNECT') as connect, has_database_privilege('public', current_database(), 'TEMPORARY') as temporary",
    );
    expect(open.rows).to.deep.equal([{ connect: false, temporary: false }]);
    const schemas = await keys(client, "select nspname as k from pg_namespace where nspname not like 'pg\\_%' and nspname <> 'information_schema' order by 1");
    expect(schemas).to.deep.equal(['bi', 'bi_fdw', 'bi_source']);
    const named = await client.query(
      `select (select count(*) from pg_class where relname in ('api_keys', 'tenants', 'bi_credentials', 'job', '__drizzle_migrations'))::int as relations,
              (select count(*) from pg_attribute where attname in ('key_hash', 'password_verifier', 'tenant_id'))::int as columns,
              (select count(*) from pg_namespace where nspname in ('public', 'drizzle', 'pgboss'))::int as schemas,
              to_regclass('public.api_keys') is null as no_api_keys`,
    );
    expect(named.rows).to.deep.equal([{ relations: 0, columns: 0, schemas: 0, no_api_keys: true }]);
    // Every relation outside the system catalogs is a view of bi or the foreign table under it in
    // bi_source (psqlODBC's and SQLAlchemy's unfiltered catalog queries see these and nothing else).
    const relations = await client.query(
      `select distinct n.nspname, c.relkind from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where n.nspname not in ('pg_catalog', 'information_schema', 'pg_toast') order by 1`,
    );
    expect(relations.rows).to.deep.equal([{ nspname: 'bi', relkind: 'v' }, { nspname: 'bi_source', relkind: 'f' }]);
    // No row estimate of anything but the catalogs themselves: the foreign tables were never analysed.
    const counted = await client.query(
      `select count(*)::int as n from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where n.nspname not in ('pg_catalog', 'information_schema', 'pg_toast') and (c.reltuples > 0 or c.relpages > 0)`,
    );
    expect(counted.rows).to.deep.equal([{ n: 0 }]);
    const live = await client.query("select count(*)::int as n from pg_stat_all_tables where schemaname not in ('pg_catalog', 'information_schema', 'pg_toast')");
    expect(live.rows).to.deep.equal([{ n: 0 }]);
  });

  it("reads exactly its tenant's rows through the foreign tables; tenant B's role none of A's", async () => {
    const a = await asA();
    const b = await asBi(credB.user, passwordB);
    const teamsOf = (tenant: string) => keys(admin, 'select id::text as k from teams where tenant_id = $1 order by 1', [tenant]);
    const ofA = await teamsOf(tenantA);
    expect(ofA.length).to.be.greaterThan(0);
    expect(await keys(a, 'select id::text as k from bi.teams order by 1')).to.deep.equal(ofA);
    const seenByB = await keys(b, 'select id::text as k from bi.teams order by 1');
    expect(seenByB).to.deep.equal(await teamsOf(tenantB));
    expect(seenByB.filter((k) => ofA.includes(k))).to.deep.equal([]);
    const deploys = await keys(a, 'select id::text as k from bi.deployments order by 1');
    expect(deploys).to.deep.equal(await keys(admin, 'select id::text as k from cube_deployments where tenant_id = $1 order by 1', [tenantA]));
  });

  it('cannot connect to the application database', async () => {
    const main = new URL(databaseUrl);
    main.username = credA.user;
    main.password = passwordA;
    const error = await failure(connect(main.toString()));
    expect(error).to.include({ code: '42501' });
    expect(error!.message).to.match(/permission denied for database/);
    // Nor can the source role be reached by name from there: it has no password the owner knows.
    const { rows: [row] } = await admin.query('select role_name from bi_credentials where id = $1', [credA.id]);
    expect(row.role_name).to.match(/^bisrc_/);
    main.username = row.role_name;
    expect(await failure(connect(main.toString()))).to.include({ code: '28P01' });
  });

  it("cannot read its user mapping's options (the source role's password)", async () => {
    const client = await asA();
    // Every mapping's user is listed (role names are the cluster's, pg_roles lists them too); no options.
    const mappings = await client.query('select usename, srvname, umoptions from pg_user_mappings order by usename');
    expect(mappings.rows.map((r) => r.usename)).to.include.members([credA.user, credB.user]);
    expect(mappings.rows.filter((r) => r.umoptions !== null)).to.deep.equal([]);
    expect((await failure(client.query('select * from pg_user_mapping')))?.code).to.equal('42501');
    expect((await failure(client.query('select * from bi_fdw.postgres_fdw_get_connections()')))?.code).to.equal('42501');
    expect((await failure(client.query(`create user mapping for current_user server bi_source options (user 'postgres')`)))?.code).to.be.oneOf(['42501', '25006']);
    // The mapping is there, with the source role and a password (as the server's owner sees it).
    const owner = await biAdmin();
    const { rows: [mapping] } = await owner.query('select umoptions from pg_user_mappings where usename = $1', [credA.user]);
    expect(mapping.umoptions.map((o: string) => o.split('=')[0])).to.deep.equal(['user', 'password']);
  });

  it('gives every view, foreign table and column the comment of its view in the application database', async () => {
    const comments = (schema: string) => `select c.relname || '.' || coalesce(a.attname, '') as k, coalesce(col_description(c.oid, a.attnum), obj_description(c.oid, 'pg_class')) as comment
       from pg_class c join pg_namespace n on n.oid = c.relnamespace left join pg_attribute a on a.attrelid = c.oid and a.attnum > 0
       where n.nspname = '${schema}' order by 1`;
    const main = (await admin.query(comments('bi'))).rows;
    const client = await asA();
    const bi = (await client.query(comments('bi'))).rows;
    expect(bi).to.deep.equal(main);
    expect(bi.filter((r) => !r.comment)).to.deep.equal([]);
    expect((await client.query(comments('bi_source'))).rows).to.deep.equal(main);
  });

  it('follows a view a migration adds to bi (the sync migrate and the watchdog run), tenant-filtered', async () => {
    await admin.query(
      `create view bi.later with (security_barrier = true) as select t.slug from public.teams t
       where t.tenant_id = (select r.tenant_id from public.bi_credentials r where r.role_name = current_user)`,
    );
    await admin.query(`comment on column bi.later.slug is 'The team slug.'`);
    try {
      const synced = await syncBiDatabase(admin);
      expect(synced.tables).to.deep.equal(['later']);
      expect((await syncBiDatabase(admin)).tables).to.deep.equal([]);
      const client = await asA();
      expect(await keys(client, 'select slug as k from bi.later order by 1')).to.deep.equal(await keys(admin, 'select slug as k from teams where tenant_id = $1 order by 1', [tenantA]));
    } finally {
      await admin.query('drop view bi.later');
      await syncBiDatabase(admin);
    }
    const client = await asA();
    expect(await keys(client, "select relname as k from pg_class where relname = 'later'")).to.deep.equal([]);
  });

  it('revoking drops both roles and the user mapping', async () => {
    const granted = await grantBiCredential(admin, { tenantId: tenantA, name: 'Temporary' });
    const { rows: [row] } = await admin.query('select role_name from bi_credentials where id = $1', [granted.credential.id]);
    const client = await asBi(granted.credential.user, granted.password);
    expect((await client.query('select count(*)::int as n from bi.teams')).rows[0].n).to.be.greaterThan(0);
    await revokeBiCredential(admin, tenantA, granted.credential.id);
    expect(await failure(client.query('select 1'))).to.not.equal(null);
    const roles = await admin.query('select rolname from pg_roles where rolname = any($1::text[])', [[granted.credential.user, row.role_name]]);
    expect(roles.rows).to.deep.equal([]);
    const owner = await biAdmin();
    expect((await owner.query('select count(*)::int as n from pg_user_mappings where usename = $1', [granted.credential.user])).rows[0].n).to.equal(0);
  });

  it('a grant whose BI database cannot be set up leaves no credential and no role behind', async () => {
    const main = new URL(databaseUrl).pathname.slice(1);
    const error = await failure(grantBiCredential(admin, { tenantId: tenantA, name: 'Broken' }, undefined, { database: main }));
    expect(error?.message).to.equal("BI_DATABASE must name a database other than the application's");
    expect((await admin.query('select 1 from bi_credentials where name = $1', ['Broken'])).rowCount).to.equal(0);
    expect((await admin.query("select rolname from pg_roles where rolname like '%\\_broken\\_%'")).rows).to.deep.equal([]);
  });

  it('upgrades a credential issued before the BI database: same user and password, now on the BI database only', async () => {
    // What a grant did before migration 0044: one role, CONNECT here, reading bi.
    const user = `bi_${tenantA.replace(/-/g, '').slice(0, 8)}_legacy_0a0b0c0d`;
    const password = 'legacy-password-0123456789';
    const verifier = scramVerifier(password);
    await admin.query('insert into bi_credentials (tenant_id, name, role_name, statement_timeout_ms, password_verifier) values ($1, $2, $3, 60000, $4)', [tenantA, 'Legacy', user, verifier]);
    await admin.query(`create role "${user}" login noinherit connection limit 5 password '${verifier}'`);
    await applyRoleSettings(admin, user, 60_000);
    await admin.query(`grant connect on database "${new URL(databaseUrl).pathname.slice(1)}" to "${user}"`);
    await admin.query(`grant usage on schema bi to "${user}"`);
    await admin.query(`grant select on all tables in schema bi to "${user}"`);
    await admin.query(`alter default privileges in schema bi grant select on tables to "${user}"`);
    const main = new URL(databaseUrl);
    main.username = user;
    main.password = password;
    const before = await connect(main.toString());
    expect((await before.query('select count(*)::int as n from bi.teams')).rows[0].n).to.be.greaterThan(0);

    const synced = await syncBiDatabase(admin);
    expect(synced.upgraded).to.deep.equal([user]);
    expect((await syncBiDatabase(admin)).upgraded).to.deep.equal([]);
    expect(await failure(before.query('select 1')), 'its session on the application database ended').to.not.equal(null);
    expect(await failure(connect(main.toString()))).to.include({ code: '42501' });
    const { rows: [row] } = await admin.query('select role_name, user_name from bi_credentials where tenant_id = $1 and name = $2', [tenantA, 'Legacy']);
    expect(row).to.deep.equal({ role_name: `bisrc_${user.slice(3)}`, user_name: user });
    const left = await admin.query(
      `select has_database_privilege($1, current_database(), 'CONNECT') as connect, has_schema_privilege($1, 'bi', 'USAGE') as bi,
              has_table_privilege($1, 'bi.teams', 'SELECT') as teams,
              (select count(*)::int from pg_default_acl d, aclexplode(d.defaclacl) x where x.grantee = $1::regrole) as defaults`,
      [user],
    );
    expect(left.rows).to.deep.equal([{ connect: false, bi: false, teams: false, defaults: 0 }]);
    const client = await asBi(user, password);
    expect(await keys(client, 'select id::text as k from bi.teams order by 1')).to.deep.equal(await keys(admin, 'select id::text as k from teams where tenant_id = $1 order by 1', [tenantA]));
    const { rows: [id] } = await admin.query('select id from bi_credentials where user_name = $1', [user]);
    await revokeBiCredential(admin, tenantA, id.id);
    expect((await admin.query('select 1 from pg_roles where rolname = any($1::text[])', [[user, row.role_name]])).rowCount).to.equal(0);
  });
});
