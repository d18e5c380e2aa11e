/**
 * A BI credential cannot write to the cluster (issue 43, docs/bi-cluster.md "The cluster"): its role
 * connects to the BI database only, creates nothing anywhere, carries temp_file_limit, and the
 * owner takes the credential back (rotate, revoke) from a holder who changes its own password and
 * holds its connection slots. As the role, over TCP, on the run's shared cluster (which the global
 * setup's migrate closed, as `npm start` and compose's migrate job do); the refusal of a cluster
 * that grants PUBLIC more, on a cluster of this file's own (opening the shared one would make
 * every other file's grants refuse meanwhile).
 */
import { expect } from 'chai';
import pg from 'pg';
import { grantBiCredential, revokeBiCredential, rotateBiCredential, type BiCredential } from '../../src/bi/credentials.js';
import { syncBiDatabase } from '../../src/bi/database.js';
import { restoreBiRoles } from '../../src/bi/watchdog.js';
import { startEmbeddedPostgres, type EmbeddedPostgresServer } from '../../src/db/embedded.js';
import { migrateDatabase } from '../../src/jobCatalog.js';
import { runCli } from '../helpers/cli.js';
import { clusterParent, freshDatabase } from '../helpers/database.js';
import { buildTenant, closeFactoryPools, dbFor } from '../helpers/factories.js';
import { biUrl } from './biUrl.js';
import { pgClients, revokeAll } from './helpers.js';

type PgError = Error & { code?: string };
const failure = (promise: Promise<unknown>): Promise<PgError | null> => promise.then(() => null, (error: PgError) => error);

function urlTo(databaseUrl: string, database: string, user?: string, password?: string): string {
  const url = new URL(databaseUrl);
  url.pathname = `/${database}`;
  if (user !== undefined) url.username = user;
  if (password !== undefined) url.password = password;
  return url.toString();
}

describe('a BI credential cannot write to the cluster', function () {
  this.timeout(120_000);
  const clients = pgClients();
  const granted: BiCredential[] = [];
  let databaseUrl: string, main: string, admin: pg.Pool, tenant: string;

  before(async () => {
    databaseUrl = await freshDatabase();
    main = new URL(databaseUrl).pathname.slice(1);
    admin = dbFor(databaseUrl).pool;
    tenant = (await buildTenant(databaseUrl)).tenantId;
  });
  after(async () => {
    await clients.closeAll();
    await revokeAll(admin, granted);
  });

  async function grant(name: string) {
    const result = await grantBiCredential(admin, { tenantId: tenant, name });
    granted.push(result.credential);
    return result;
  }

  it('connects to the BI database only: postgres, template1 and the application database refuse it (42501)', async () => {
    const { credential, password } = await grant('Connect');
    const refused: Array<[string, string | undefined, string | undefined]> = [];
    for (const database of ['postgres', 'template1', main]) {
      const error = await failure(clients.connect(urlTo(databaseUrl, database, credential.user, password)));
      refused.push([database, error?.code, error?.message]);
    }
    expect(refused).to.deep.equal([
      ['postgres', '42501', 'permission denied for database "postgres"'],
      ['template1', '42501', 'permission denied for database "template1"'],
      [main, '42501', `permission denied for database "${main}"`],
    ]);
    const bi = await clients.connect(biUrl(databaseUrl, credential.user, password));
    expect((await bi.query('select current_database() as db')).rows[0].db).to.equal(`${main}_bi`);
  });

  it('creates nothing anywhere: no temporary table in any database, nothing in any schema', async () => {
    const { credential, password } = await grant('Create');
    const bi = await clients.connect(biUrl(databaseUrl, credential.user, password));
    // Its transactions are read-only by default; a read-write one is what it could open.
    await bi.query('set default_transaction_read_only = off');
    const temp = await failure(bi.query('create temp table filler (x text)'));
    expect([temp?.code, temp?.message]).to.deep.equal(['42501', `permission denied to create temporary tables in database "${main}_bi"`]);
    const { rows: schemas } = await bi.query<{ name: string }>('select nspname as name from pg_namespace order by 1');
    const created: Array<[string, string | undefined]> = [];
    for (const { name } of schemas) created.push([name, (await failure(bi.query(`create table ${pg.escapeIdentifier(name)}.filler (x text)`)))?.code]);
    expect(created).to.deep.equal(schemas.map(({ name }) => [name, '42501']));
    expect((await failure(bi.query('create schema filler')))?.code).to.equal('42501');
    // What it may do in the cluster's databases, as PostgreSQL itself answers for the role.
    const { rows } = await bi.query(
      `select datname, has_database_privilege(current_user, datname, 'CONNECT') as connect, has_database_privilege(current_user, datname, 'TEMPORARY') as temporary
       from pg_database where datname = any($1::text[]) order by datname`,
      [['postgres', 'template1', main, `${main}_bi`]],
    );
    expect(rows).to.deep.equal([
      { datname: main, connect: false, temporary: false },
      { datname: `${main}_bi`, connect: true, temporary: false },
      { datname: 'postgres', connect: false, temporary: false },
      { datname: 'template1', connect: false, temporary: false },
    ].sort((x, y) => (x.datname < y.datname ? -1 : 1)));
  });

  it('carries temp_file_limit, which it can neither SET nor change or reset as its own default', async () => {
    const { credential, password } = await grant('Temp');
    const url = biUrl(databaseUrl, credential.user, password);
    const bi = await clients.connect(url);
    expect((await bi.query('show temp_file_limit')).rows[0].temp_file_limit).to.equal('1GB');
    expect((await failure(bi.query(`set temp_file_limit = '-1'`)))?.code).to.equal('42501');
    await bi.query('begin read write');
    expect((await failure(bi.query(`alter role current_user set temp_file_limit = '-1'`)))?.code).to.equal('42501');
    await bi.query('rollback');
    await bi.query('begin read write');
    await bi.query('alter role current_user reset all');
    await bi.query('commit');
    const again = await clients.connect(url);
    expect((await again.query('show temp_file_limit')).rows[0].temp_file_limit).to.equal('1GB');
    // The source role (the sessions the views run in) carries it too.
    const { rows } = await admin.query(
      `select r.rolname, s.setconfig from pg_db_role_setting s join pg_roles r on r.oid = s.setrole
       where r.rolname in (select role_name from bi_credentials where id = $1)`,
      [credential.id],
    );
    expect(rows).to.have.length(1);
    expect(rows[0].setconfig).to.include('temp_file_limit=1GB');
    await restoreBiRoles(admin);
  });

  it('rotate: a password the role set itself, even in a transaction it holds open, does not survive; the new one works, its sessions end', async () => {
    const { credential, password } = await grant('Rotate');
    const url = (secret: string) => biUrl(databaseUrl, credential.user, secret);
    const holder = await clients.connect(url(password));
    await holder.query('begin read write');
    await holder.query(`alter role current_user password 'chosen-by-holder'`);
    await holder.query('commit');
    // A second change, kept open with its idle timeout off: it holds the role's catalogue row.
    const open = await clients.connect(url('chosen-by-holder'));
    await open.query('set idle_in_transaction_session_timeout = 0');
    await open.query('begin read write');
    await open.query(`alter role current_user password 'chosen-again'`);

    const rotated = await rotateBiCredential(admin, tenant, credential.id);
    expect(rotated.credential).to.deep.equal(credential);
    expect(rotated.password).to.match(/^[A-Za-z0-9_-]{32}$/).and.not.equal(password);
    for (const session of [holder, open]) expect((await failure(session.query('select 1')))?.message).to.be.a('string');
    const refused: Array<string | undefined> = [];
    for (const secret of [password, 'chosen-by-holder', 'chosen-again']) refused.push((await failure(clients.connect(url(secret))))?.code);
    expect(refused).to.deep.equal(['28P01', '28P01', '28P01']);
    const fresh = await clients.connect(url(rotated.password));
    expect((await fresh.query('select current_user as u')).rows[0].u).to.equal(credential.user);
    // The watchdog keeps the new password (its stored verifier is the role's).
    expect((await restoreBiRoles(admin)).filter((r) => r.user === credential.user)).to.deep.equal([]);
    const other = await grant('Rotate other tenant');
    expect((await failure(rotateBiCredential(admin, '00000000-0000-0000-0000-000000000000', other.credential.id)))?.message).to.equal('BI credential not found');
  });

  it('revoke: a role holding all its connection slots, one in an open ALTER ROLE, loses them all and cannot log in again', async () => {
    const { credential, password } = await grant('Revoke');
    const url = biUrl(databaseUrl, credential.user, password);
    const held = await Promise.all(Array.from({ length: 5 }, () => clients.connect(url)));
    // The connection limit bounds the slots it can hold.
    expect((await failure(clients.connect(url)))?.code).to.equal('53300');
    await held[0]!.query('set idle_in_transaction_session_timeout = 0');
    await held[0]!.query('begin read write');
    await held[0]!.query(`alter role current_user password 'chosen-by-holder'`);

    await revokeBiCredential(admin, tenant, credential.id);
    const ended: Array<boolean> = [];
    for (const session of held) ended.push((await failure(session.query('select 1'))) !== null);
    expect(ended).to.deep.equal([true, true, true, true, true]);
    for (const secret of [password, 'chosen-by-holder']) expect((await failure(clients.connect(biUrl(databaseUrl, credential.user, secret))))?.code).to.equal('28P01');
    const { rows } = await admin.query('select count(*)::int as n from pg_roles where rolname = $1', [credential.user]);
    expect(rows[0].n).to.equal(0);
  });
});

describe('a cluster that grants PUBLIC more than the bundled setup', function () {
  this.timeout(180_000);
  let server: EmbeddedPostgresServer, appUrl: string, pool: pg.Pool, initial: unknown[];
  const clients = pgClients();

  // From postgres: a session on app would keep it from being cloned.
  const privileges = async (database: string, role = 'public') => {
    const client = await clients.connect(server.urlFor('postgres'));
    const { rows } = await client.query(
      `select has_database_privilege($2, $1, 'CONNECT') as connect, has_database_privilege($2, $1, 'TEMPORARY') as temporary`,
      [database, role],
    );
    await client.end();
    return rows[0];
  };
  const migrate = async (database: string) => {
    const migrating = new pg.Pool({ connectionString: server.urlFor(database), max: 1 });
    try {
      await migrateDatabase(migrating);
    } finally {
      await migrating.end();
    }
  };
  const asAdmin = async (database: string, statements: string[]) => {
    const client = await clients.connect(server.urlFor(database));
    for (const statement of statements) await client.query(statement);
    await client.end();
  };

  before(async () => {
    server = await startEmbeddedPostgres({ password: 'owner-secret', tempPrefix: 'da-bi-cluster-pg-', tempParent: clusterParent(), flags: ['-c', 'fsync=off'] });
    await asAdmin('postgres', ['create database app']);
    appUrl = server.urlFor('app');
    initial = [await privileges('postgres'), await privileges('template1')];
    await migrate('app');
    pool = dbFor(appUrl).pool;
  });
  after(async () => {
    await clients.closeAll();
    await closeFactoryPools();
    await server?.stop();
  });

  it('migrate (npm start, compose) takes CONNECT and TEMPORARY on postgres and template1 from PUBLIC, and again after a change', async () => {
    // initdb's: template1 without TEMPORARY.
    expect(initial).to.deep.equal([{ connect: true, temporary: true }, { connect: true, temporary: false }]);
    expect([await privileges('postgres'), await privileges('template1')]).to.deep.equal([{ connect: false, temporary: false }, { connect: false, temporary: false }]);
    await asAdmin('postgres', ['grant temporary on database template1 to public']);
    await migrate('app');
    expect(await privileges('template1')).to.deep.equal({ connect: false, temporary: false });
  });

  // Here, not on the run's shared cluster (issue 32's test was there): the clone admits every role
  // until its migrate, and another file's BI grant meanwhile would refuse.
  it('migrate takes PUBLIC’s privileges on every database it runs on (a clone of a migrated one has them back)', async () => {
    await asAdmin('postgres', ['create database clone template app']);
    // CREATE DATABASE … TEMPLATE does not copy the database's privileges: PostgreSQL's defaults again.
    expect([await privileges('app'), await privileges('clone')]).to.deep.equal([{ connect: false, temporary: false }, { connect: true, temporary: true }]);
    await migrate('clone');
    expect([await privileges('clone'), await privileges('clone', 'app_tenant')]).to.deep.equal([{ connect: false, temporary: false }, { connect: false, temporary: true }]);
    const client = await clients.connect(server.urlFor('clone'));
    const { rows } = await client.query(`select nspname from pg_namespace where nspname in ('public', 'drizzle', 'pgboss') and has_schema_privilege('public', oid, 'USAGE')`);
    await client.end();
    expect(rows).to.deep.equal([]);
  });

  it('bi:grant refuses while a BI role could connect elsewhere, use TEMPORARY or create in a schema, naming the statements; issues once they ran', async () => {
    const tenant = (await buildTenant(appUrl)).tenantId;
    await asAdmin('postgres', ['grant connect on database postgres to public', 'grant temporary on database template1 to public', 'create database other']);
    await asAdmin('app', ['create schema scratch', 'grant create on schema scratch to public']);
    const cli = await runCli(['bi:grant', `--tenant=${tenant}`, '--name=Metabase'], { DATABASE_URL: appUrl });
    const fixes = [
      'REVOKE CONNECT, TEMPORARY ON DATABASE "other" FROM PUBLIC;',
      'REVOKE CONNECT, TEMPORARY ON DATABASE "postgres" FROM PUBLIC;',
      'REVOKE CONNECT, TEMPORARY ON DATABASE "template1" FROM PUBLIC;',
      'REVOKE CREATE ON SCHEMA "scratch" FROM PUBLIC; -- in database "app"',
    ];
    expect([cli.code, cli.stdout, cli.stderr]).to.deep.equal([1, '',
      'bi:grant: BI credential refused: this PostgreSQL cluster would let a BI role do more than read its BI database (docs/bi-cluster.md "The cluster"): ' +
        'PUBLIC (every role) may connect to and create temporary tables in database "other"; PUBLIC (every role) may connect to database "postgres"; ' +
        'PUBLIC (every role) may create temporary tables in database "template1"; PUBLIC (every role) may create in schema "scratch" of database "app". ' +
        `Run as a superuser (or the owner), then grant again:\n${fixes.map((f) => `  ${f}`).join('\n')}\n`]);
    const nothing = async () => (await pool.query(`select (select count(*)::int from pg_roles where rolname ~ '^bi(src)?_') as roles, (select count(*)::int from bi_credentials) as rows`)).rows[0];
    expect(await nothing()).to.deep.equal({ roles: 0, rows: 0 });

    await asAdmin('postgres', fixes.slice(0, 3));
    await asAdmin('app', [fixes[3]!]);
    // In the BI database (set up by the sync): checked against the new role, which then goes again.
    await syncBiDatabase(pool);
    await asAdmin('postgres', ['grant temporary on database app_bi to public']);
    await asAdmin('app_bi', ['grant create on schema bi to public']);
    const refused = await failure(grantBiCredential(pool, { tenantId: tenant, name: 'Metabase' }));
    expect(refused?.message).to.match(/ may create temporary tables in database "app_bi"; the role "bi_[0-9a-f]{8}_metabase_[0-9a-f]{8}" may create in schema "bi" of database "app_bi"\. /);
    expect(refused?.message).to.include('\n  REVOKE TEMPORARY ON DATABASE "app_bi" FROM PUBLIC;\n  REVOKE CREATE ON SCHEMA "bi" FROM PUBLIC; -- in database "app_bi"');
    expect(await nothing()).to.deep.equal({ roles: 0, rows: 0 });

    await asAdmin('app_bi', ['REVOKE TEMPORARY ON DATABASE app_bi FROM PUBLIC', 'REVOKE CREATE ON SCHEMA bi FROM PUBLIC']);
    const { credential, password } = await grantBiCredential(pool, { tenantId: tenant, name: 'Metabase' });
    const bi = await clients.connect(urlTo(appUrl, 'app_bi', credential.user, password));
    expect((await bi.query('select count(*)::int as n from bi.teams')).rows[0].n).to.equal(0);
    expect((await failure(clients.connect(urlTo(appUrl, 'other', credential.user, password))))?.code).to.equal('42501');
  });
});
