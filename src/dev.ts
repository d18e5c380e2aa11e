/**
 * `npm start`: a whole service on a laptop with no setup. Fills in what a fresh clone lacks
 * (an embedded PostgreSQL 17 under .data/, a generated OAUTH_ENCRYPTION_KEY kept in .data/,
 * APP_URL from PORT, .data/objects as object store), migrates, then serves. Whatever the
 * environment already sets wins; with DATABASE_URL set nothing is started.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import pg from 'pg';
import type { Env } from './config/index.js';
import { loadDatabaseConfig, loadLogLevel } from './config/index.js';
import { openDatabase, type Db } from './db/client.js';
import { startEmbeddedPostgres, type EmbeddedPostgresServer } from './db/embedded.js';
import { tenants, users } from './db/schema/index.js';
import { createTenant } from './tenants/service.js';
import { migrateDatabase } from './jobCatalog.js';
import { nextStopSignal, serveUntilSignalled } from './cli/commands.js';
import { createLogger } from './log.js';
import { ensureWebBuilt } from './webBuild.js';
import { eq } from 'drizzle-orm';

const DATA_DIR = resolve(process.cwd(), '.data');
const DATABASE_NAME = 'delivery_analytics';

function keptSecret(file: string, make: () => string): string {
  const path = join(DATA_DIR, file);
  if (existsSync(path)) return readFileSync(path, 'utf8').trim();
  const value = make();
  writeFileSync(path, `${value}\n`, { mode: 0o600 });
  return value;
}

export { freePort } from './db/embedded.js';

const FIRST_OWNER = 'owner@example.com';

/** On an empty database, a tenant and owner to sign in with, so a first `npm start` is usable at once. */
export async function bootstrapFirstTenant(db: Db): Promise<string | null> {
  const [any] = await db.select({ id: tenants.id }).from(tenants).limit(1);
  if (any) return null;
  await createTenant(db, { name: 'Local', ownerEmail: FIRST_OWNER });
  return FIRST_OWNER;
}

/** The sign-in hint of every start while the first owner exists (not only the start that created it). */
export async function firstOwnerToSignIn(db: Db): Promise<string | null> {
  const [owner] = await db.select({ id: users.id }).from(users).where(eq(users.email, FIRST_OWNER)).limit(1);
  return owner ? FIRST_OWNER : null;
}

/** The embedded PostgreSQL under .data/postgres, with the application's database created in it. */
async function startDatabase(env: Env, log: ReturnType<typeof createLogger>): Promise<EmbeddedPostgresServer> {
  const password = keptSecret('postgres-password', () => randomBytes(18).toString('base64url'));
  // A process group of its own: Ctrl-C reaches only us, and we stop the database after the server drained.
  const embedded = await startEmbeddedPostgres({ password, dataDir: join(DATA_DIR, 'postgres'), ownProcessGroup: true });
  if (embedded.relocated) {
    log.warn({ dataDir: embedded.dataDir }, `embedded database kept in ${embedded.dataDir}: ${embedded.relocated.reason}`);
  }
  try {
    const admin = new pg.Client({ connectionString: embedded.urlFor('postgres') });
    await admin.connect();
    const found = await admin.query('select 1 from pg_database where datname = $1', [DATABASE_NAME]);
    if (found.rowCount === 0) await admin.query(`create database ${DATABASE_NAME}`);
    await admin.end();
  } catch (error) {
    await embedded.stop();
    throw error;
  }
  env.DATABASE_URL = embedded.urlFor(DATABASE_NAME);
  // For CLI commands against the running embedded database: DATABASE_URL=$(cat .data/database-url).
  writeFileSync(join(DATA_DIR, 'database-url'), `${env.DATABASE_URL}\n`, { mode: 0o600 });
  return embedded;
}

/** Migrates, creates the first tenant on an empty database; returns the owner to sign in as, if any. */
async function prepareDatabase(env: Env): Promise<string | null> {
  const database = openDatabase(loadDatabaseConfig(env).databaseUrl, { max: 2, unscoped: 'operator' });
  try {
    await migrateDatabase(database.pool);
    await bootstrapFirstTenant(database.db);
    return await firstOwnerToSignIn(database.db);
  } finally {
    await database.close();
  }
}

/**
 * Ctrl-C (or SIGTERM) at any point: the server drains, then the embedded database stops, then
 * the launcher returns 0. The signal is listened for from the start, so one that arrives while
 * the database starts still ends in that order.
 */
export async function runDev(baseEnv: Env): Promise<number> {
  const stop = nextStopSignal();
  mkdirSync(DATA_DIR, { recursive: true });
  // Before the database starts: a fresh clone has no web/dist, and a pulled change may have made it stale.
  ensureWebBuilt();
  const env: Env = { ...baseEnv };
  const log = createLogger(loadLogLevel(env));
  const port = env.PORT?.trim() || '3000';
  env.APP_URL ||= `http://localhost:${port}`;
  env.OAUTH_ENCRYPTION_KEY ||= keptSecret('oauth-encryption-key', () => randomBytes(32).toString('hex'));
  if (!env.S3_BUCKET) env.LOCAL_OBJECT_STORE_DIR ||= join(DATA_DIR, 'objects');

  const embedded = env.DATABASE_URL ? null : await startDatabase(env, log);
  try {
    const owner = await prepareDatabase(env);
    return await serveUntilSignalled(env, () => import('./server.js'), {
      stop,
      onListening: (appUrl) => {
        const signIn = owner
          ? `\nSign in at ${appUrl}/login as ${owner} (owner of the first tenant, "Local");\nwithout MAILER_API_KEY the sign-in link is printed in the log below.\n`
          : '';
        process.stdout.write(`\nDelivery analytics is running at ${appUrl}  (Ctrl-C stops it)\n${signIn}\n`);
      },
    });
  } finally {
    if (embedded) {
      await embedded.stop();
      log.info('embedded database stopped');
    }
  }
}

