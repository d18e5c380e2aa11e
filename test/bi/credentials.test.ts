import { expect } from 'chai';
import pg from 'pg';
import { runCli, type CliResult } from '../helpers/cli.js';
import { buildMember, type BuiltTenant, type BuiltUser } from '../helpers/factories.js';
import { apiError, expectRefusal } from '../helpers/refusals.js';
import { capturedLog, testServer, type TestServer } from '../helpers/server.js';
import { serverWithTwoTenants } from '../helpers/suites.js';

const NOT_FOUND = { error: { code: 'not_found', message: 'BI credential not found' } };
const FORBIDDEN = { error: { code: 'forbidden', message: 'You do not have permission to do this' } };

function printed(result: CliResult): Record<string, unknown> {
  expect(result.stderr.replace(/^oidc-provider WARNING: Unsupported runtime[^\n]*\n/m, ''), result.stderr).to.equal('');
  expect(result.code).to.equal(0);
  const lines = result.stdout.trimEnd().split('\n');
  expect(lines).to.have.length(1);
  return JSON.parse(lines[0] as string);
}

async function countTeams(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query('select count(*)::int as n from bi.teams')).rows[0].n;
  } finally {
    await client.end();
  }
}

describe('BI credentials: API and CLI', function () {
  this.timeout(240_000);
  let api: TestServer;
  let log: ReturnType<typeof capturedLog>;
  let a: BuiltTenant;
  let b: BuiltTenant;
  let member: BuiltUser;
  before(async () => {
    log = capturedLog('debug');
    ({ api, a, b } = await serverWithTwoTenants({ logger: log.logger }));
    member = await buildMember(api.databaseUrl, a.tenantId, 'member');
    const teams = new pg.Pool({ connectionString: api.databaseUrl, max: 1 });
    await teams.query(`insert into teams (tenant_id, slug, name) values ($1, 'a1', 'A1'), ($1, 'a2', 'A2'), ($2, 'b1', 'B1')`, [a.tenantId, b.tenantId]);
    await teams.end();
  });
  after(() => api.close());

  it('an owner creates a credential, sees its password once, lists it without secrets and revokes it', async () => {
    const created = await api.as(a.owner.apiKey).post('/api/bi/credentials', { name: 'Power BI' });
    expect(created.status).to.equal(201);
    const db = new URL(api.databaseUrl);
    const data = created.body.data;
    expect(Object.keys(data).sort()).to.deep.equal(['createdAt', 'database', 'host', 'id', 'name', 'password', 'port', 'sslmode', 'url', 'user']);
    // The BI database (docs/bi-database.md "The BI database"), never the application's.
    const biDatabase = `${db.pathname.slice(1)}_bi`;
    expect(data).to.deep.include({ name: 'Power BI', host: db.hostname, port: Number(db.port), database: biDatabase, sslmode: 'prefer' });
    expect(data.user).to.match(/^bi_[0-9a-f]{8}_power_bi_[0-9a-f]{8}$/);
    expect(data.password).to.match(/^[A-Za-z0-9_-]{32}$/);
    expect(data.url).to.equal(`postgresql://${data.user}:${data.password}@${db.hostname}:${db.port}/${biDatabase}`);
    expect(await countTeams(data.url)).to.equal(2);

    const listed = await api.as(a.owner.apiKey).get('/api/bi/credentials');
    expect(listed.status).to.equal(200);
    expect(listed.body).to.deep.equal({ data: [{ id: data.id, name: 'Power BI', user: data.user, createdAt: data.createdAt }], meta: {} });
    expect(JSON.stringify(listed.body)).to.not.include(data.password);

    const duplicate = await api.as(a.owner.apiKey).post('/api/bi/credentials', { name: 'Power BI' });
    expectRefusal(duplicate, 409, apiError('conflict', 'A BI credential with this name exists'));
    expectRefusal(await api.as(a.owner.apiKey).post('/api/bi/credentials', { name: '' }), 400, { error: { code: 'validation_failed', message: 'Validation failed', details: [{ path: 'name', message: 'Must not be empty' }] } });
    expectRefusal(await api.as(a.owner.apiKey).post('/api/bi/credentials', { name: 'x', extra: 1 }), 400, { error: { code: 'validation_failed', message: 'Validation failed', details: [{ path: 'body', message: 'Unknown field: extra' }] } });

    // Tenant B: the id is not found, its list is empty, and nothing changed.
    expect((await api.as(b.owner.apiKey).get('/api/bi/credentials')).body).to.deep.equal({ data: [], meta: {} });
    const foreign = await api.as(b.owner.apiKey).delete(`/api/bi/credentials/${data.id}`);
    expect([foreign.status, foreign.body]).to.deep.equal([404, NOT_FOUND]);
    expectRefusal(await api.as(a.owner.apiKey).delete('/api/bi/credentials/not-a-uuid'), 404, apiError('not_found', 'BI credential not found'));

    // Members may not issue, list or revoke.
    for (const res of [
      await api.as(member.apiKey).get('/api/bi/credentials'),
      await api.as(member.apiKey).post('/api/bi/credentials', { name: 'Mine' }),
      await api.as(member.apiKey).delete(`/api/bi/credentials/${data.id}`),
    ]) expect([res.status, res.body]).to.deep.equal([403, FORBIDDEN]);
    expectRefusal(await api.get('/api/bi/credentials'), 401, apiError('unauthorized', 'Missing or invalid credentials'));

    const revoked = await api.as(a.owner.apiKey).delete(`/api/bi/credentials/${data.id}`);
    expect(revoked.status).to.equal(200);
    expect(revoked.body.data).to.deep.equal({ id: data.id, name: 'Power BI', user: data.user, createdAt: data.createdAt });
    expect((await api.as(a.owner.apiKey).get('/api/bi/credentials')).body.data).to.deep.equal([]);
    let code: string | undefined;
    await countTeams(data.url).catch((error) => (code = error.code));
    expect(code).to.equal('28P01');
    expect(log.text()).to.not.include(data.password);
  });

  it('a name is only a label: quotes and SQL in it change neither the role name nor anything else', async () => {
    const created = await api.as(a.owner.apiKey).post('/api/bi/credentials', { name: `x"; DROP TABLE teams; --` });
    expect(created.status).to.equal(201);
    expect(created.body.data.user).to.match(/^bi_[0-9a-f]{8}_x_drop_table_teams_[0-9a-f]{8}$/);
    expect(await countTeams(created.body.data.url)).to.equal(2);
    expect((await api.as(a.owner.apiKey).delete(`/api/bi/credentials/${created.body.data.id}`)).status).to.equal(200);
  });

  it('bi:grant prints one JSON connection object; bi:revoke drops it', async () => {
    const env = { DATABASE_URL: api.databaseUrl };
    const out = printed(await runCli(['bi:grant', `--tenant=${b.tenantId}`, '--name=Metabase'], env));
    expect(Object.keys(out)).to.deep.equal(['name', 'user', 'password', 'host', 'port', 'database', 'url']);
    expect(out.name).to.equal('Metabase');
    expect(out.database).to.equal(`${new URL(api.databaseUrl).pathname.slice(1)}_bi`);
    expect(await countTeams(out.url as string)).to.equal(1);
    const listed = await api.as(b.owner.apiKey).get('/api/bi/credentials');
    expect(listed.body.data.map((c: { user: string }) => c.user)).to.deep.equal([out.user]);

    const bad = await runCli(['bi:grant', '--tenant=nope', '--name=x'], env);
    expect(bad.code).to.equal(2);
    const again = await runCli(['bi:revoke', `--tenant=${a.tenantId}`, '--name=Metabase'], env);
    expect(again.code).to.equal(1);
    expect(again.stderr).to.include('BI credential not found');

    expect(printed(await runCli(['bi:revoke', `--tenant=${b.tenantId}`, '--name=Metabase'], env))).to.deep.equal({ name: 'Metabase', user: out.user, revoked: true });
    let code: string | undefined;
    await countTeams(out.url as string).catch((error) => (code = error.code));
    expect(code).to.equal('28P01');
  });

  it('behind the load balancer (BI_PORT), gives BI_HOST or APP_URL\'s host, that port and sslmode=require', async () => {
    const db = new URL(api.databaseUrl);
    const database = `${db.pathname.slice(1)}_bi`;
    const behind = await testServer({ databaseUrl: api.databaseUrl, env: { BI_PORT: '6432', BI_HOST: 'bi.acme.example' } });
    try {
      const created = await behind.as(a.owner.apiKey).post('/api/bi/credentials', { name: 'Tableau' });
      expect(created.status).to.equal(201);
      const data = created.body.data;
      expect(data).to.deep.include({ host: 'bi.acme.example', port: 6432, database, sslmode: 'require' });
      expect(data.url).to.equal(`postgresql://${data.user}:${data.password}@bi.acme.example:6432/${database}?sslmode=require`);
      expect((await behind.as(a.owner.apiKey).delete(`/api/bi/credentials/${data.id}`)).status).to.equal(200);
    } finally {
      await behind.close();
    }

    const env = { DATABASE_URL: api.databaseUrl, APP_URL: 'https://analytics.acme.example', BI_PORT: '15432' };
    const out = printed(await runCli(['bi:grant', `--tenant=${b.tenantId}`, '--name=Excel'], env));
    expect(out).to.deep.include({ host: 'analytics.acme.example', port: 15432, database });
    expect(out.url).to.equal(`postgresql://${out.user}:${out.password}@analytics.acme.example:15432/${database}?sslmode=require`);
    expect(printed(await runCli(['bi:revoke', `--tenant=${b.tenantId}`, '--name=Excel'], env))).to.include({ revoked: true });

    // A bad value is refused before any role is created.
    const bad = await runCli(['bi:grant', `--tenant=${b.tenantId}`, '--name=Excel'], { ...env, BI_PORT: '99999' });
    expect(bad.code).to.not.equal(0);
    expect(bad.stderr).to.include('BI_PORT must be a whole number from 1 to 65535');
    expect((await api.as(b.owner.apiKey).get('/api/bi/credentials')).body.data).to.deep.equal([]);
  });

  it('with DATABASE_URL_BI (a replica), gives its address and ends the sessions there on revoke', async () => {
    // The replica here is the same server under another address: what the test shows is that the
    // address comes from DATABASE_URL_BI and that revoking with it configured ends an open session.
    const replica = new URL(api.databaseUrl);
    replica.hostname = replica.hostname === '127.0.0.1' ? 'localhost' : '127.0.0.1';
    const server = await testServer({ databaseUrl: api.databaseUrl, env: { DATABASE_URL_BI: replica.toString() } });
    try {
      const created = await server.as(a.owner.apiKey).post('/api/bi/credentials', { name: 'Superset' });
      const data = created.body.data;
      expect(data).to.deep.include({ host: replica.hostname, port: Number(replica.port), database: `${replica.pathname.slice(1)}_bi`, sslmode: 'prefer' });
      const session = new pg.Client({ connectionString: data.url });
      session.on('error', () => {});
      await session.connect();
      expect((await session.query('select count(*)::int as n from bi.teams')).rows[0].n).to.equal(2);
      expect((await server.as(a.owner.apiKey).delete(`/api/bi/credentials/${data.id}`)).status).to.equal(200);
      let failed = false;
      await session.query('select 1').catch(() => (failed = true));
      expect(failed).to.equal(true);
      await session.end().catch(() => {});
    } finally {
      await server.close();
    }
  });

  it('with BI_DATABASE, makes that database and names it in the API and the CLI', async () => {
    const name = `${new URL(api.databaseUrl).pathname.slice(1)}_tools`;
    const server = await testServer({ databaseUrl: api.databaseUrl, env: { BI_DATABASE: name } });
    try {
      const created = await server.as(a.owner.apiKey).post('/api/bi/credentials', { name: 'Looker' });
      expect(created.status).to.equal(201);
      expect(created.body.data).to.deep.include({ database: name });
      expect(new URL(created.body.data.url).pathname).to.equal(`/${name}`);
      expect(await countTeams(created.body.data.url)).to.equal(2);
      expect((await server.as(a.owner.apiKey).delete(`/api/bi/credentials/${created.body.data.id}`)).status).to.equal(200);
    } finally {
      await server.close();
    }
    const env = { DATABASE_URL: api.databaseUrl, BI_DATABASE: name };
    const out = printed(await runCli(['bi:grant', `--tenant=${b.tenantId}`, '--name=Looker'], env));
    expect(out).to.deep.include({ database: name });
    expect(await countTeams(out.url as string)).to.equal(1);
    expect(printed(await runCli(['bi:revoke', `--tenant=${b.tenantId}`, '--name=Looker'], env))).to.include({ revoked: true });
    const bad = await runCli(['bi:grant', `--tenant=${b.tenantId}`, '--name=Looker'], { ...env, BI_DATABASE: 'no spaces; please' });
    expect(bad.code).to.not.equal(0);
    expect(bad.stderr).to.include('BI_DATABASE must be a database name');
  });
});
