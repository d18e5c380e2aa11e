import { expect } from 'chai';
import pg from 'pg';
import { bundledMigrations } from '../../src/db/migrations.js';
import { emptyDatabase, freshDatabase } from '../helpers/database.js';
import { baseEnv, testServer, type TestServer } from '../helpers/server.js';
import { runCli, spawnServeOnFreePort } from '../helpers/cli.js';
import { freePort } from '../../src/dev.js';

async function sql(url: string, text: string, params: unknown[] = []) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(text, params);
  } finally {
    await client.end();
  }
}

describe('operational endpoints', () => {
  let api: TestServer;
  before(async () => {
    api = await testServer({ env: { RELEASE_VERSION: '1.4.2' } });
  });
  after(() => api.close());

  it('GET /health answers 200 with a request id', async () => {
    const res = await api.get('/health');
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ status: 'ok' });
    expect(res.headers.get('x-request-id')).to.match(/^[0-9a-f-]{36}$/);
  });

  it('echoes a well-formed incoming request id and replaces a malformed one', async () => {
    expect((await api.get('/health', { 'x-request-id': 'lb-123.abc' })).headers.get('x-request-id')).to.equal('lb-123.abc');
    expect((await api.get('/health', { 'x-request-id': 'bad id with spaces' })).headers.get('x-request-id')).to.match(/^[0-9a-f-]{36}$/);
  });

  it('GET /health/ready is exactly the readiness document', async () => {
    const res = await api.get('/health/ready');
    const bundled = bundledMigrations().length;
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ status: 'ready', schema: { applied: bundled, bundled, ahead: false }, jobs: { workerEnabled: true } });
  });

  it('GET /api/version reports RELEASE_VERSION', async () => {
    const res = await api.get('/api/version');
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ product: 'delivery-analytics', version: '1.4.2', minimumClientVersion: '0.1.0', runtime: `node ${process.version}` });
  });

  it('reports version dev when RELEASE_VERSION is unset, and the worker flag', async () => {
    const other = await testServer({ env: { JOBS_WORKER_ENABLED: 'false' } });
    try {
      expect((await other.get('/api/version')).body.version).to.equal('dev');
      expect((await other.get('/health/ready')).body.jobs).to.deep.equal({ workerEnabled: false });
    } finally {
      await other.close();
    }
  });

  it('answers unknown paths with the general 404 envelope and a request id', async () => {
    const res = await api.get('/api/nothing-here');
    expect(res.status).to.equal(404);
    expect(res.body).to.deep.equal({ error: { code: 'not_found', message: 'Not found' } });
    expect(res.headers.get('x-request-id')).to.be.a('string');
  });

  it('answers 503 saying why when the database is unreachable', async () => {
    const url = await freshDatabase();
    const server = await testServer({ databaseUrl: url });
    try {
      await sql(url.replace(/\/[^/]+$/, '/postgres'), `select pg_terminate_backend(pid) from pg_stat_activity where datname = $1`, [new URL(url).pathname.slice(1)]);
      await sql(url.replace(/\/[^/]+$/, '/postgres'), `alter database "${new URL(url).pathname.slice(1)}" with allow_connections false`);
      await sql(url.replace(/\/[^/]+$/, '/postgres'), `select pg_terminate_backend(pid) from pg_stat_activity where datname = $1`, [new URL(url).pathname.slice(1)]);
      const res = await server.get('/health/ready');
      expect(res.status).to.equal(503);
      expect(res.body).to.deep.equal({ status: 'unavailable', reason: 'database unreachable' });
      expect((await server.get('/health')).status).to.equal(200);
    } finally {
      await server.close();
    }
  });
});

describe('migration guard', () => {
  const last = () => bundledMigrations().at(-1)!;

  it('migrate applies every bundled migration to an empty database', async function () {
    this.timeout(300_000); // a loaded machine: the CLI child migrates, builds the generated bi views and loads the corpus
    const url = await emptyDatabase();
    const result = await runCli(['migrate'], { DATABASE_URL: url });
    expect(result.stderr).to.equal('');
    expect(result.code).to.equal(0);
    const bundled = bundledMigrations().length;
    expect(JSON.parse(result.stdout)).to.deep.equal({ applied: bundled, bundled, ahead: false });
    const again = await runCli(['migrate'], { DATABASE_URL: url });
    expect(JSON.parse(again.stdout)).to.deep.equal({ applied: bundled, bundled, ahead: false });
    expect(again.stderr).to.equal('');
    // And the BI database (docs/bi-database.md "The BI database"), with a view and a foreign table per bi view.
    const bi = new URL(url);
    bi.pathname = `${bi.pathname}_bi`;
    const views = await sql(url, "select count(*)::int as n from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'bi' and c.relkind = 'v'");
    const tables = await sql(bi.toString(), "select count(*)::int as n from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'bi_source' and c.relkind = 'f'");
    const biViews = await sql(bi.toString(), "select count(*)::int as n from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'bi' and c.relkind = 'v'");
    expect(tables.rows).to.deep.equal(views.rows);
    expect(biViews.rows).to.deep.equal(views.rows);
    expect(views.rows[0].n).to.be.greaterThan(10);
  });

  it('refuses to start when the database is behind, naming the first missing migration', async function () {
    this.timeout(120000);
    const url = await freshDatabase();
    await sql(url, 'delete from drizzle.__drizzle_migrations where created_at = $1', [last().when]);
    const port = await freePort();
    const result = await runCli(['serve'], baseEnv(url, port));
    expect(result.code).to.equal(1);
    expect(result.stderr).to.include(`expected migration ${last().tag}`);
    // The port was never bound.
    const probe = await fetch(`http://127.0.0.1:${port}/health`).then(() => 'bound', () => 'refused');
    expect(probe).to.equal('refused');
  });

  it('refuses an empty database, naming the first migration', async function () {
    this.timeout(120000);
    const url = await emptyDatabase();
    const result = await runCli(['serve'], baseEnv(url, await freePort()));
    expect(result.code).to.equal(1);
    expect(result.stderr).to.include(`expected migration ${bundledMigrations()[0]!.tag}`);
  });

  it('starts on a database that is ahead and reports ahead: true', async () => {
    const url = await freshDatabase();
    await sql(url, `insert into drizzle.__drizzle_migrations (hash, created_at) values ('future', $1)`, [last().when + 1000]);
    const server = await testServer({ databaseUrl: url });
    try {
      const res = await server.get('/health/ready');
      const bundled = bundledMigrations().length;
      expect(res.body.schema).to.deep.equal({ applied: bundled, bundled, ahead: true });
    } finally {
      await server.close();
    }
  });
});

describe('graceful shutdown', () => {
  it('SIGTERM finishes in-flight requests, closes the pool and exits 0', async function () {
    this.timeout(120000);
    const url = await freshDatabase();
    const { child, exited, port } = await spawnServeOnFreePort((free) => baseEnv(url, free));
    // A keep-alive connection that is idle must not hold the shutdown open.
    await fetch(`http://127.0.0.1:${port}/health`);
    child.kill('SIGTERM');
    expect(await exited).to.equal(0);
    const left = await sql(url, `select count(*)::int as n from pg_stat_activity where datname = $1 and application_name = 'delivery-analytics'`, [new URL(url).pathname.slice(1)]);
    expect(left.rows[0].n).to.equal(0);
  });
});
