/**
 * One PostgreSQL per test run: embedded (PostgreSQL 17 from npm, in a temporary directory) unless
 * TEST_DATABASE_URL names a server to use. Migrations are applied once to a template database;
 * `freshDatabase()` clones it, so each test file gets its own database in milliseconds.
 */
import { randomBytes } from 'node:crypto';
import { accessSync, constants, statfsSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import pg from 'pg';
import { startEmbeddedPostgres } from '../../src/db/embedded.js';
import { databasePrivileges } from '../../src/db/privileges.js';

const TEMPLATE = 'da_test_template';

let serverUrl: URL | null = null;
let stopServer: (() => Promise<void>) | null = null;

function urlFor(database: string): string {
  const url = new URL((serverUrl as URL).toString());
  url.pathname = `/${database}`;
  return url.toString();
}

/**
 * The worker's connections to the cluster's `postgres` database, kept open for the run: a file
 * clones the template several times, and on these machines a new PostgreSQL backend costs about
 * 28 ms of CPU (fork, authentication, caches; docs/testing.md), so one per clone added up.
 */
let adminPool: pg.Pool | null = null;

async function admin<T>(body: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  if (!adminPool) {
    adminPool = new pg.Pool({ connectionString: urlFor('postgres'), max: 2, idleTimeoutMillis: 0, allowExitOnIdle: true });
    // A test that ends every session of the cluster ends these too: the pool drops them and connects again.
    adminPool.on('error', () => {});
  }
  const client = await adminPool.connect();
  try {
    return await body(client);
  } finally {
    client.release();
  }
}

/** What a whole run's cluster may grow to (several hundred cloned databases), with room to spare. */
const CLUSTER_ROOM = 8 * 1024 ** 3;

/**
 * Where the tests' PostgreSQL clusters keep their files: /dev/shm (memory) where the machine has
 * one with room for a run, else the system's temporary directory (a container's /dev/shm is often
 * 64 MB). On this machine's disk a clone of the template cost 165 ms (mostly the kernel's file
 * creation and journal) and removing a run's cluster 12 s of the run's last seconds; in memory a
 * clone costs 47 ms. The clusters run with fsync off and are thrown away, so nothing is lost that a
 * disk would have kept.
 */
export function clusterParent(): string {
  try {
    if (!statSync('/dev/shm').isDirectory()) return tmpdir();
    accessSync('/dev/shm', constants.W_OK);
    const { bavail, bsize } = statfsSync('/dev/shm');
    return bavail * bsize >= CLUSTER_ROOM ? '/dev/shm' : tmpdir();
  } catch {
    return tmpdir();
  }
}

/** Set by the global setup (globalSetup.ts) once the template exists: each test file then only connects. */
const TEMPLATE_READY = 'DA_TEST_TEMPLATE_READY';

export async function startTestDatabase(): Promise<void> {
  if (process.env[TEMPLATE_READY] && process.env.TEST_DATABASE_URL) {
    serverUrl = new URL(process.env.TEST_DATABASE_URL);
    return;
  }
  if (process.env.TEST_DATABASE_URL) {
    serverUrl = new URL(process.env.TEST_DATABASE_URL);
  } else {
    const embedded = await startEmbeddedPostgres({
      password: 'test',
      tempPrefix: 'da-test-pg-',
      tempParent: clusterParent(),
      // autovacuum off: its launcher visits every database once a minute, each visit a new backend
      // (with a run's 240 databases, 144 ms of CPU a second), and a file's database lives a minute.
      flags: ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'max_connections=400', '-c', 'autovacuum=off'],
    });
    serverUrl = new URL(embedded.urlFor('postgres'));
    stopServer = embedded.stop;
  }
  await admin(async (client) => {
    await client.query(`drop database if exists ${TEMPLATE}`);
    await client.query(`create database ${TEMPLATE}`);
  });
  const pool = new pg.Pool({ connectionString: urlFor(TEMPLATE), max: 1 });
  try {
    await (await import('../../src/jobCatalog.js')).migrateDatabase(pool);
  } finally {
    await pool.end();
  }
}

/**
 * What the run asked of PostgreSQL (`TEST_TIMES` writes it beside the files' times): databases
 * made, and sessions (backends) started, on the clones and on `postgres` (pg_stat_database).
 */
export async function clusterSessions(): Promise<{ databases: number; sessions: number; adminSessions: number }> {
  return admin(async (client) => {
    const { rows } = await client.query<{ databases: number; sessions: number; admin: number }>(
      `select count(*) filter (where datname like 'da\\_%')::int as databases,
              coalesce(sum(sessions) filter (where datname like 'da\\_%'), 0)::int as sessions,
              coalesce(sum(sessions) filter (where datname = 'postgres'), 0)::int as admin
         from pg_stat_database`,
    );
    return { databases: rows[0]!.databases, sessions: rows[0]!.sessions, adminSessions: rows[0]!.admin };
  });
}

export async function stopTestDatabase(): Promise<void> {
  await adminPool?.end();
  adminPool = null;
  await stopServer?.();
  stopServer = null;
}

/**
 * The run's one server and template, made before any test file loads, so that files run in
 * parallel workers (`npm test` uses mocha --parallel) share them: the workers inherit the address.
 */
export async function startSharedTestDatabase(): Promise<void> {
  await startTestDatabase();
  process.env.TEST_DATABASE_URL = urlFor('postgres');
  process.env[TEMPLATE_READY] = '1';
}

/**
 * Creates a database that PUBLIC may neither connect to nor create temporary tables in at any
 * moment: a BI grant of another test file refuses while any database of the cluster would admit
 * its role (src/bi/cluster.ts), and a new database grants PUBLIC both. Closed to connections
 * until PUBLIC's privileges are taken (GRANT on a database works from any database).
 *
 * `file_copy`: PostgreSQL 15+ copies a template block by block through the WAL by default
 * (`wal_log`), which cost 286 ms of the server's CPU per clone of the migrated template against
 * 97 ms copying its files (the clusters run with fsync off, so the checkpoints it asks are cheap).
 */
async function createClosed(name: string, template: string, privileges: string[]): Promise<void> {
  await admin(async (client) => {
    await client.query(`create database ${name} template ${template} allow_connections false strategy file_copy`);
    for (const statement of privileges) await client.query(statement);
    await client.query(`alter database ${name} allow_connections true`);
  });
}

/** A new, migrated database of its own; returns its connection URL. */
export async function freshDatabase(): Promise<string> {
  const name = `da_test_${randomBytes(6).toString('hex')}`;
  // A clone does not inherit the template's database privileges: what `migrate` sets on every
  // database is set again (its schemas' privileges came with the template).
  await createClosed(name, TEMPLATE, databasePrivileges(name));
  return urlFor(name);
}

/** An empty database with no migrations applied. */
export async function emptyDatabase(): Promise<string> {
  const name = `da_empty_${randomBytes(6).toString('hex')}`;
  await createClosed(name, 'template1', [`revoke connect, temporary on database ${name} from public`]);
  return urlFor(name);
}
