import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import pg from 'pg';
import { grantBiCredential, type BiCredential } from '../../src/bi/credentials.js';
import { syncBiDatabase } from '../../src/bi/database.js';
import { biViews } from '../../src/bi/views.js';
import { biUrl } from './biUrl.js';
import { pgClients, revokeAll, twoFixtureTenants } from './helpers.js';

const run = promisify(execFile);
const here = new URL('./clients/', import.meta.url).pathname;
// Debian's clients (.ci/run installs them): its python3 is the one with python3-sqlalchemy.
const PYTHON = '/usr/bin/python3';
const JDBC_JAR = '/usr/share/java/postgresql.jar';

async function client(command: string, args: string[], input?: string): Promise<string> {
  const child = run(command, args, { maxBuffer: 16 * 1024 * 1024, env: { ...process.env, PGCONNECT_TIMEOUT: '10' } });
  if (input !== undefined) child.child.stdin!.end(input);
  try {
    return (await child).stdout;
  } catch (error) {
    const e = error as { code?: string; stderr?: string; message: string };
    if (e.code === 'ENOENT') throw new Error(`${command} is missing: .ci/run installs the BI clients from Debian`);
    throw new Error(`${command} failed: ${e.stderr || e.message}`);
  }
}

// Issue 46: since the bi relations were foreign tables (relkind 'f'), BI tools' catalogue calls
// listed none of them; bi now holds views over the foreign tables of bi_source.
describe('bi catalogue: BI tools list the bi relations, with their comments', function () {
  this.timeout(180_000);
  const expected = [...biViews().map((v) => v.cube), 'team_month'].sort();
  let databaseUrl: string, admin: pg.Pool, tenantA: string, tenantB: string;
  let credA: BiCredential, credB: BiCredential;
  let passwordA: string, passwordB: string;
  const clients = pgClients();
  const urlA = () => biUrl(databaseUrl, credA.user, passwordA);
  const keys = async (c: pg.Client | pg.Pool, sql: string, values: unknown[] = []) => (await c.query<{ k: string }>(sql, values)).rows.map((r) => r.k);
  // The comments the application database's bi views carry (from the models).
  const commentsOf = async (relation: string) => {
    const { rows } = await admin.query<{ name: string; comment: string }>(
      `select a.attname as name, col_description(a.attrelid, a.attnum) as comment from pg_attribute a
       where a.attrelid = format('bi.%I', $1::text)::regclass and a.attnum > 0 and not a.attisdropped order by a.attnum`,
      [relation],
    );
    return rows;
  };
  const relationComment = async (relation: string) =>
    (await admin.query<{ c: string }>("select obj_description(format('bi.%I', $1::text)::regclass, 'pg_class') as c", [relation])).rows[0]!.c;

  before(async () => {
    ({ databaseUrl, admin, tenantA, tenantB } = await twoFixtureTenants());
    ({ credential: credA, password: passwordA } = await grantBiCredential(admin, { tenantId: tenantA, name: 'Superset' }));
    ({ credential: credB, password: passwordB } = await grantBiCredential(admin, { tenantId: tenantB, name: 'Superset' }));
  });

  after(async () => {
    await clients.closeAll();
    await revokeAll(admin, [credA, credB]);
  });

  it('is listed to SQLAlchemy: get_view_names, get_columns with comments, get_table_comment', async () => {
    const url = urlA().replace(/^postgres(ql)?:/, 'postgresql+psycopg2:');
    const seen = JSON.parse(await client(PYTHON, [`${here}sqlalchemy_catalog.py`, url]));
    expect(expected).to.have.length(22);
    expect(seen.views).to.deep.equal(expected);
    expect(seen.tables).to.deep.equal([]);
    expect(seen.columns).to.deep.equal(await commentsOf('deployments'));
    expect(seen.columns.filter((c: { comment: string | null }) => !c.comment)).to.deep.equal([]);
    expect(seen.comment).to.equal(await relationComment('deployments')).and.to.be.a('string').that.is.not.empty;
  });

  it("is listed to pgjdbc: getTables(TABLE, VIEW) with REMARKS, getColumns' REMARKS", async () => {
    const url = new URL(urlA());
    const jdbc = `jdbc:postgresql://${url.host}${url.pathname}`;
    const out = await client('java', ['-cp', JDBC_JAR, `${here}Metadata.java`, jdbc, decodeURIComponent(url.username), decodeURIComponent(url.password)]);
    const lines = out.trim().split('\n').map((l) => l.split('\t'));
    const tables = lines.filter((l) => l[0] === 'table');
    expect(tables.map((l) => l[1])).to.deep.equal(expected);
    expect(tables.map((l) => l[2])).to.deep.equal(expected.map(() => 'VIEW'));
    for (const [, name, , remarks] of tables) expect(remarks, name).to.equal(await relationComment(name!));
    const columns = lines.filter((l) => l[0] === 'column').map(([, name, comment]) => ({ name, comment }));
    // pgjdbc's REMARKS is the comment with newlines as written; the program prints them as spaces.
    expect(columns).to.deep.equal((await commentsOf('deployments')).map((c) => ({ name: c.name, comment: c.comment.replace(/[\t\n]/g, ' ') })));
  });

  it('is listed by psql \\dv bi.* with descriptions', async () => {
    const out = await client('psql', [urlA(), '-X', '-A', '-t', '-F', '\t', '-c', '\\dv+ bi.*']);
    const rows = out.trim().split('\n').map((l) => l.split('\t'));
    expect(rows.map((r) => [r[0], r[1], r[2]])).to.deep.equal(expected.map((name) => ['bi', name, 'view']));
    for (const row of rows) expect(row.at(-1), row[1]).to.equal((await relationComment(row[1]!)).split('\n')[0]);
    const tables = await client('psql', [urlA(), '-X', '-A', '-t', '-c', '\\dt bi.*']);
    expect(tables.trim()).to.equal('');
  });

  it("is listed to psqlODBC's SQLTables and SQLColumns (unixODBC's isql) as views", async () => {
    const url = new URL(urlA());
    const connection = `Driver={PostgreSQL Unicode};Server=${url.hostname};Port=${url.port};Database=${url.pathname.slice(1)};Uid=${decodeURIComponent(url.username)};Pwd=${decodeURIComponent(url.password)}`;
    // isql's `help` calls SQLTables (every schema and type), `help <table>` SQLColumns.
    const rowsOf = async (command: string) => (await client('isql', ['-k', connection, '-b', '-d\t'], `${command}\n`)).trim().split('\n').map((l) => l.split('\t'));
    const tables = (await rowsOf('help')).filter((r) => r[1] === 'bi');
    expect(tables.map((r) => [r[2], r[3]])).to.deep.equal(expected.map((name) => [name, 'VIEW']));
    // Columns in order (psqlODBC's SQLColumns reads no comment: its REMARKS are empty, docs/bi.md).
    const columns = (await rowsOf('help deployments')).filter((r) => r[1] === 'bi' && r[2] === 'deployments').map((r) => r[3]);
    expect(columns).to.deep.equal((await commentsOf('deployments')).map((c) => c.name));
  });

  it("keeps each tenant's rows: B through a view reads B's only, and cannot name bi_source", async () => {
    const a = await clients.connect(urlA());
    const b = await clients.connect(biUrl(databaseUrl, credB.user, passwordB));
    const teamsOf = (tenant: string) => keys(admin, 'select id::text as k from teams where tenant_id = $1 order by 1', [tenant]);
    const ofA = await teamsOf(tenantA);
    const ofB = await teamsOf(tenantB);
    expect(ofA.length).to.be.greaterThan(0);
    expect(await keys(b, 'select id::text as k from bi.teams order by 1')).to.deep.equal(ofB);
    expect(await keys(a, 'select id::text as k from bi.teams order by 1')).to.deep.equal(ofA);
    expect(await keys(b, 'select id::text as k from bi.deployments order by 1')).to.deep.equal(
      await keys(admin, 'select id::text as k from cube_deployments where tenant_id = $1 order by 1', [tenantB]),
    );
    for (const c of [a, b]) {
      const error = await c.query('select id from bi_source.teams').then(() => null, (e: { code?: string; message: string }) => e);
      expect(error).to.include({ code: '42501', message: 'permission denied for schema bi_source' });
    }
    // Filters and aggregates still reach the source session (and its limits) whole.
    const { rows } = await a.query('explain (verbose, costs off) select count(*) from bi.deployments where is_production');
    expect(rows.map((r) => r['QUERY PLAN']).join('\n')).to.match(/Remote SQL: SELECT count\(\*\) FROM bi\.deployments WHERE \(?is_production\)?/);
  });

  it('upgrades a BI database whose bi held the foreign tables (before issue 46): views after one sync', async () => {
    const bi = await clients.connect(biUrl(databaseUrl, new URL(databaseUrl).username, decodeURIComponent(new URL(databaseUrl).password)));
    await bi.query('drop schema bi_source cascade');
    await bi.query(`create foreign table bi.teams (id uuid, slug text) server bi_source options (schema_name 'bi', table_name 'teams')`);
    await bi.query(`grant select on bi.teams to "${credA.user}"`);
    const a = await clients.connect(urlA());
    expect(await keys(a, "select relkind::text as k from pg_class where oid = 'bi.teams'::regclass")).to.deep.equal(['f']);
    // The watchdog's run (no database-level setup) is enough.
    expect((await syncBiDatabase(admin)).tables).to.deep.equal(expected);
    expect((await syncBiDatabase(admin)).tables).to.deep.equal([]);
    expect(await keys(a, "select relkind::text as k from pg_class where oid = 'bi.teams'::regclass")).to.deep.equal(['v']);
    expect(await keys(a, 'select id::text as k from bi.teams order by 1')).to.deep.equal(
      await keys(admin, 'select id::text as k from teams where tenant_id = $1 order by 1', [tenantA]),
    );
  });
});
