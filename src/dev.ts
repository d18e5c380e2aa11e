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
import type { Env } from './config.js';
import { loadDatabaseConfig } from './config.js';
import { openDatabase, type Db } from './db/client.js';
import { startEmbeddedPostgres } from './db/embedded.js';
import { tenants } from './db/schema/index.js';
import { createTenant } from './services/tenants.js';
import { runMigrations } from './db/migrations.js';
import { serveUntilSignalled } from './cli/commands.js';
import { ensureWebBuilt } from './webBuild.js';

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

export async function runDev(baseEnv: Env): Promise<number> {
  mkdirSync(DATA_DIR, { recursive: true });
  // Before the database starts: a fresh clone has no web/dist, and a pulled change may have made it stale.
  ensureWebBuilt();
  const env: Env = { ...baseEnv };
  const port = env.PORT?.trim() || '3000';
  env.APP_URL ||= `http://localhost:${port}`;
  env.OAUTH_ENCRYPTION_KEY ||= keptSecret('oauth-encryption-key', () => randomBytes(32).toString('hex'));
  if (!env.S3_BUCKET) env.LOCAL_OBJECT_STORE_DIR ||= join(DATA_DIR, 'objects');

  let stopEmbedded: (() => Promise<void>) | undefined;
  if (!env.DATABASE_URL) {
    const password = keptSecret('postgres-password', () => randomBytes(18).toString('base64url'));
    const embedded = await startEmbeddedPostgres({ password, dataDir: join(DATA_DIR, 'postgres') });
    stopEmbedded = embedded.stop;
    const admin = new pg.Client({ connectionString: embedded.urlFor('postgres') });
    await admin.connect();
    const found = await admin.query('select 1 from pg_database where datname = $1', [DATABASE_NAME]);
    if (found.rowCount === 0) await admin.query(`create database ${DATABASE_NAME}`);
    await admin.end();
    env.DATABASE_URL = embedded.urlFor(DATABASE_NAME);
    // For CLI commands against the running embedded database: DATABASE_URL=$(cat .data/database-url).
    writeFileSync(join(DATA_DIR, 'database-url'), `${env.DATABASE_URL}\n`, { mode: 0o600 });
  }

  let firstTenant: string | null = null;
  try {
    const database = openDatabase(loadDatabaseConfig(env).databaseUrl, { max: 2 });
    try {
      await runMigrations(database.pool);
      firstTenant = await bootstrapFirstTenant(database.db);
    } finally {
      await database.close();
    }
    return await serveUntilSignalled(env, {
      onListening: (appUrl) => {
        const signIn = firstTenant
          ? `\nA first tenant "Local" was created with owner ${firstTenant}: sign in at ${appUrl}/login with that address;\nwithout MAILER_API_KEY the sign-in link is printed in the log below.\n`
          : '';
        process.stdout.write(`\nDelivery analytics is running at ${appUrl}  (Ctrl-C stops it)\n${signIn}\n`);
      },
    });
  } finally {
    await stopEmbedded?.();
  }
}
