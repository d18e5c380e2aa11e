/**
 * A BI role cannot keep a change to itself (issue 32). PostgreSQL lets every role change its own
 * password and setting defaults in a read-write transaction, which any session may open; nothing
 * in PostgreSQL forbids it. So the views refuse a session outside the credential's settings, and
 * the bi.watchdog job puts the role's password (SCRAM verifier) and setting defaults back.
 * Every statement runs as the BI role, over TCP, with its credential.
 */
import { expect } from 'chai';
import pg from 'pg';
import { biRoleSettings, grantBiCredential, type BiCredential } from '../../src/bi/credentials.js';
import { restoreBiRoles } from '../../src/bi/watchdog.js';
import { loadConfig } from '../../src/config/index.js';
import type { AppContext } from '../../src/context.js';
import { openDatabase, type Database } from '../../src/db/client.js';
import { asSystem, withTenant } from '../../src/db/tenancy.js';
import { jobCatalog } from '../../src/jobCatalog.js';
import type { JobContext, JobDefinition } from '../../src/jobs/define.js';
import { createJobQueue } from '../../src/jobs/index.js';
import { createLivePublisher } from '../../src/live/publisher.js';
import { createLogger } from '../../src/log.js';
import { buildFixture } from '../cube/fixture.js';
import { biUrl } from './biUrl.js';
import { freshDatabase } from '../helpers/database.js';
import { buildTenant } from '../helpers/factories.js';
import { baseEnv } from '../helpers/server.js';
import { requestHooks } from '../../src/app.js';

describe('a BI role cannot keep a change to itself', function () {
  this.timeout(60_000);
  let url: string;
  let database: Database;
  let app: AppContext;
  let credential: BiCredential;
  let password: string;
  const clients: pg.Client[] = [];

  const watchdog = () => {
    const ctx: JobContext = { app, job: { id: '00000000-0000-0000-0000-000000000000', name: 'bi.watchdog', retryCount: 0 }, signal: new AbortController().signal, instanceId: 'test', progress: async () => {} };
    return asSystem('maintenance', () => (jobCatalog.find((d) => d.name === 'bi.watchdog') as JobDefinition).run(ctx, { schedule: 'manual', windowStart: new Date().toISOString() })) as Promise<{ restored: unknown[] }>;
  };

  async function connect(secret = password): Promise<pg.Client> {
    // The BI database, as a BI tool connects.
    const client = new pg.Client({ connectionString: biUrl(url, credential.user, secret) });
    client.on('error', () => {});
    await client.connect();
    clients.push(client);
    return client;
  }

  /** The error code of `sql` run as the role, or null. */
  async function code(client: pg.Client, sql: string): Promise<string | null> {
    try {
      await client.query(sql);
      return null;
    } catch (error) {
      return (error as { code?: string }).code ?? String(error);
    }
  }

  const teams = async (client: pg.Client) => (await client.query<{ n: number }>('select count(*)::int as n from bi.teams')).rows[0]!.n;

  async function roleSettings(): Promise<{ database: boolean; settings: string[] }[]> {
    const { rows } = await database.pool.query(
      `select s.setdatabase <> 0 as database, s.setconfig as settings from pg_db_role_setting s join pg_roles r on r.oid = s.setrole where r.rolname = $1 order by 1`,
      [credential.user],
    );
    return rows.map((r) => ({ database: r.database, settings: [...r.settings].sort() }));
  }
  const granted = () => [{ database: false, settings: biRoleSettings(60_000).sort() }];

  before(async () => {
    url = await freshDatabase();
    database = openDatabase(url, { max: 4 });
    const { tenantId } = await buildTenant(url);
    await asSystem('test-fixture', () => buildFixture(database.pool, tenantId));
    const config = loadConfig(baseEnv(url));
    app = { config, database, log: createLogger('silent'), jobs: createJobQueue(database.pool, jobCatalog), live: createLivePublisher(database.pool, config), requestHooks };
    ({ credential, password } = await grantBiCredential(database.pool, { tenantId, name: 'Tableau' }));
  });
  // The role may hold 5 connections.
  const closeAll = () => Promise.all(clients.splice(0).map((c) => c.end().catch(() => {})));
  afterEach(closeAll);
  after(() => database.close());

  it('is granted with its settings and reads its views; the watchdog then finds nothing to restore', async () => {
    expect(await roleSettings()).to.deep.equal(granted());
    expect(await teams(await connect())).to.be.greaterThan(0);
    expect((await watchdog()).restored).to.deep.equal([]);
    // The verifier kept for that is system work's: tenant work lists its credentials without it.
    const asTenant = (sql: string) => withTenant(credential.tenantId, () => database.pool.query(sql));
    expect((await asTenant('select user_name from bi_credentials')).rows).to.deep.equal([{ user_name: credential.user }]);
    let refused: string | null = null;
    await asTenant('select password_verifier from bi_credentials').catch((error) => (refused = error.code));
    expect(refused).to.equal('42501');
  });

  it('BEGIN READ WRITE; ALTER ROLE current_user PASSWORD: the password is put back, the old one works again and the new one no more', async () => {
    const client = await connect();
    await client.query('begin read write');
    await client.query("alter role current_user password 'chosen-by-the-client'");
    await client.query('commit');
    await connect('chosen-by-the-client');
    expect((await watchdog()).restored).to.deep.equal([{ user: credential.user, restored: ['password'] }]);
    expect(await teams(await connect())).to.be.greaterThan(0);
    let refused: string | null = null;
    await connect('chosen-by-the-client').catch((error) => (refused = error.code));
    expect(refused).to.equal('28P01');
    expect((await watchdog()).restored).to.deep.equal([]);
  });

  it('SET default_transaction_read_only = off, or BEGIN READ WRITE: no write succeeds in the BI database; the reading stays read-only in the source session', async () => {
    const client = await connect();
    await client.query('set default_transaction_read_only = off');
    // No schema public there (3F000); no privilege on bi, the foreign tables or TEMPORARY (42501).
    for (const write of ['create table bi.t (x int)', 'create table public.t (x int)', 'create temporary table t (x int)', 'delete from bi.teams', 'insert into bi.teams (id) values (gen_random_uuid())']) {
      expect(await code(client, write), write).to.be.oneOf(['42501', '3F000']);
    }
    // The source session's transaction is read-only by its role default, which no BI session can
    // change, so the views' check passes there and the reading works.
    expect(await teams(client)).to.be.greaterThan(0);
    await client.query('reset default_transaction_read_only');
    await client.query('begin read write');
    expect(await code(client, 'select count(*) from bi.team_month')).to.equal(null);
    await client.query('rollback');
  });

  it('raising work_mem or hash_mem_multiplier in the BI session changes only that session: the source session keeps 4MB', async () => {
    const client = await connect();
    for (const setting of ["work_mem = '1GB'", 'hash_mem_multiplier = 100']) {
      await client.query(`set ${setting}`);
      expect(await teams(client), setting).to.be.greaterThan(0);
      await client.query('reset all');
    }
    const { rows: [source] } = await asSystem('test-fixture', () => database.pool.query(
      'select s.setconfig from pg_db_role_setting s join pg_roles r on r.oid = s.setrole join bi_credentials c on c.role_name = r.rolname where c.id = $1',
      [credential.id],
    ));
    expect(source.setconfig).to.include.members(['work_mem=4MB', 'hash_mem_multiplier=2']);
  });

  it('ALTER ROLE current_user SET work_mem / RESET ALL / IN DATABASE …: the watchdog restores the settings', async () => {
    const name = `${new URL(url).pathname.slice(1)}_bi`;
    for (const change of ["alter role current_user set work_mem = '1GB'", 'alter role current_user reset all', `alter role current_user in database ${pg.escapeIdentifier(name)} set statement_timeout = 0`]) {
      const client = await connect();
      await client.query('begin read write');
      await client.query(change);
      await client.query('commit');
      expect(await roleSettings(), change).to.not.deep.equal(granted());
      // The source session still reads under the credential's limits: nothing the role changed reaches it.
      expect(await code(await connect(), 'select count(*) from bi.teams'), change).to.equal(null);
      expect((await watchdog()).restored, change).to.deep.equal([{ user: credential.user, restored: ['settings'] }]);
      expect(await roleSettings(), change).to.deep.equal(granted());
      const fresh = await connect();
      expect((await fresh.query('show work_mem')).rows[0].work_mem).to.equal('4MB');
      expect((await fresh.query('show statement_timeout')).rows[0].statement_timeout).to.equal('1min');
      expect(await teams(fresh)).to.be.greaterThan(0);
      await closeAll();
    }
  });

  it('restores as a server role that is no superuser (cannot read pg_authid): the password is set again on every run', async () => {
    // What an external database gives the server: CREATEROLE, ADMIN on the roles it created, app_system.
    const owner = `bi_owner_${Date.now()}`;
    const admin = (sql: string) => asSystem('test-fixture', () => database.pool.query(sql));
    await admin(`create role ${owner} login createrole password 'owner-secret'`);
    await admin(`grant app_system to ${owner}`);
    await admin(`grant connect on database ${pg.escapeIdentifier(new URL(url).pathname.slice(1))} to ${owner}`);
    await admin(`grant ${pg.escapeIdentifier(credential.user)} to ${owner} with admin option`);
    await admin(`grant usage on schema public to ${owner}`);
    await admin(`grant select on bi_credentials to ${owner}`);
    const address = new URL(url);
    address.username = owner;
    address.password = 'owner-secret';
    const server = new pg.Pool({ connectionString: address.toString(), max: 1 });
    try {
      expect((await server.query("select has_table_privilege('pg_catalog.pg_authid', 'SELECT') as ok")).rows[0].ok).to.equal(false);
      const client = await connect();
      await client.query('begin read write');
      await client.query("alter role current_user password 'chosen-by-the-client'");
      await client.query('alter role current_user reset all');
      await client.query('commit');
      expect(await restoreBiRoles(server)).to.deep.equal([{ user: credential.user, restored: ['settings'] }]);
      expect(await roleSettings()).to.deep.equal(granted());
      expect(await teams(await connect())).to.be.greaterThan(0);
      let refused: string | null = null;
      await connect('chosen-by-the-client').catch((error) => (refused = error.code));
      expect(refused).to.equal('28P01');
    } finally {
      await server.end();
      await admin(`drop owned by ${owner}`);
      await admin(`drop role ${owner}`);
    }
  });
});
