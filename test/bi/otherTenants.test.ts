/**
 * A BI grant changes nothing outside its tenant (issue 32): the database's PUBLIC privileges are
 * taken once, by `migrate` (src/db/privileges.ts), after the application's roles were granted what
 * they use, never by a grant. Before, a grant took TEMPORARY from PUBLIC, and tenant work (as
 * app_tenant, which had it only through PUBLIC) could no longer create the register import's
 * temporary tables on any new connection.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { expect } from 'chai';
import pg from 'pg';
import { migrateDatabase } from '../../src/jobCatalog.js';
import { freshDatabase } from '../helpers/database.js';
import type { BuiltTenant } from '../helpers/factories.js';
import { testServer, type TestServer } from '../helpers/server.js';
import { CSV, EXAMPLE_REGISTER } from '../organisation/helpers.js';
import { serverWithTwoTenants } from '../helpers/suites.js';

const ENV = { JOBS_POLL_INTERVAL_MS: '100' };

async function privileges(url: string): Promise<Record<string, boolean>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query(`select
      has_database_privilege('public', current_database(), 'CONNECT') as public_connect,
      has_database_privilege('public', current_database(), 'TEMPORARY') as public_temporary,
      has_database_privilege('app_tenant', current_database(), 'TEMPORARY') as tenant_temporary,
      has_database_privilege(current_user, current_database(), 'CONNECT') as own_connect,
      has_schema_privilege('public', 'public', 'USAGE') as public_schema,
      has_schema_privilege('public', 'drizzle', 'USAGE') as public_drizzle,
      has_schema_privilege('public', 'pgboss', 'USAGE') as public_pgboss`);
    return rows[0];
  } finally {
    await client.end();
  }
}

const LOCKED = { public_connect: false, public_temporary: false, tenant_temporary: true, own_connect: true, public_schema: false, public_drizzle: false, public_pgboss: false };

describe('a BI grant changes nothing outside its tenant', function () {
  this.timeout(120_000);
  let api: TestServer, a: BuiltTenant, b: BuiltTenant;
  after(() => api?.close());

  it("after tenant B's grant and a restart (new connections), tenant A imports a register synchronously and through the workflow", async () => {
    ({ api, a, b } = await serverWithTwoTenants({ env: ENV }));
    const granted = await api.as(b.owner.apiKey).post('/api/bi/credentials', { name: 'Metabase' });
    expect(granted.status).to.equal(201);
    // The restart: every connection of the pool is new, so none kept a temporary schema from before.
    await api.close();
    api = await testServer({ databaseUrl: api.databaseUrl, env: ENV });

    const sync = await api.as(a.owner.apiKey).post('/api/register/imports', EXAMPLE_REGISTER, CSV);
    expect([sync.status, sync.body.data?.rowCount]).to.deep.equal([201, 6]);

    // The workflow applies a changed file (the same one again would change nothing): one row less.
    const shorter = `${EXAMPLE_REGISTER.trimEnd().split('\n').slice(0, -1).join('\n')}\n`;
    const queued = await api.as(a.owner.apiKey).post('/api/register/imports?mode=async', shorter, CSV);
    expect(queued.status).to.equal(202);
    const { jobId } = queued.body.data;
    let outcome: any;
    for (const end = Date.now() + 60_000; Date.now() < end; await delay(100)) {
      outcome = (await api.as(a.owner.apiKey).get(`/api/register/imports/jobs/${jobId}`)).body;
      if (outcome.data.status === 'completed' || outcome.data.status === 'failed') break;
    }
    expect(outcome.data).to.deep.include({ status: 'completed', rowCount: 5, recorded: true });
    expect((await api.as(a.owner.apiKey).get('/api/register/imports')).body.data).to.have.length(2);
    expect((await api.as(b.owner.apiKey).get('/api/bi/credentials')).body.data).to.have.length(1);
  });

  it('migrate takes PUBLIC’s privileges on every database it runs on (a clone of a migrated template has them back)', async () => {
    const source = new URL(await freshDatabase());
    const admin = new URL(source);
    admin.pathname = '/postgres';
    const name = `da_acl_${Date.now()}`;
    const client = new pg.Client({ connectionString: admin.toString() });
    await client.connect();
    try {
      await client.query(`create database ${name} template ${source.pathname.slice(1)}`);
    } finally {
      await client.end();
    }
    const clone = new URL(source);
    clone.pathname = `/${name}`;
    // CREATE DATABASE … TEMPLATE does not copy the database's privileges: PostgreSQL's defaults again.
    expect(await privileges(clone.toString())).to.deep.include({ public_connect: true, public_temporary: true });
    expect(await privileges(source.toString())).to.deep.equal(LOCKED);
    const pool = new pg.Pool({ connectionString: clone.toString(), max: 1 });
    try {
      const status = await migrateDatabase(pool);
      expect(status.missing).to.deep.equal([]);
    } finally {
      await pool.end();
    }
    expect(await privileges(clone.toString())).to.deep.equal(LOCKED);
  });
});
