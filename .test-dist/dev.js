import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import pg from "pg";
import { loadDatabaseConfig, loadLogLevel } from "./config/index.js";
import { openDatabase } from "./db/client.js";
import { startEmbeddedPostgres } from "./db/embedded.js";
import { tenants, users } from "./db/schema/index.js";
import { createTenant } from "./tenants/service.js";
import { runMigrations } from "./db/migrations.js";
import { nextStopSignal, serveUntilSignalled } from "./cli/commands.js";
import { createLogger } from "./log.js";
import { ensureWebBuilt } from "./webBuild.js";
import { eq } from "drizzle-orm";
const DATA_DIR = resolve(process.cwd(), ".data");
const DATABASE_NAME = "delivery_analytics";
function keptSecret(file, make) {
  const path = join(DATA_DIR, file);
  if (existsSync(path)) return readFileSync(path, "utf8").trim();
  const value = make();
  writeFileSync(path, `${value}
`, { mode: 384 });
  return value;
}
import { freePort } from "./db/embedded.js";
const FIRST_OWNER = "owner@example.com";
async function bootstrapFirstTenant(db) {
  const [any] = await db.select({ id: tenants.id }).from(tenants).limit(1);
  if (any) return null;
  await createTenant(db, { name: "Local", ownerEmail: FIRST_OWNER });
  return FIRST_OWNER;
}
async function firstOwnerToSignIn(db) {
  const [owner] = await db.select({ id: users.id }).from(users).where(eq(users.email, FIRST_OWNER)).limit(1);
  return owner ? FIRST_OWNER : null;
}
async function startDatabase(env, log) {
  const password = keptSecret("postgres-password", () => randomBytes(18).toString("base64url"));
  const embedded = await startEmbeddedPostgres({ password, dataDir: join(DATA_DIR, "postgres"), ownProcessGroup: true });
  if (embedded.relocated) {
    log.warn({ dataDir: embedded.dataDir }, `embedded database kept in ${embedded.dataDir}: ${embedded.relocated.reason}`);
  }
  try {
    const admin = new pg.Client({ connectionString: embedded.urlFor("postgres") });
    await admin.connect();
    const found = await admin.query("select 1 from pg_database where datname = $1", [DATABASE_NAME]);
    if (found.rowCount === 0) await admin.query(`create database ${DATABASE_NAME}`);
    await admin.end();
  } catch (error) {
    await embedded.stop();
    throw error;
  }
  env.DATABASE_URL = embedded.urlFor(DATABASE_NAME);
  writeFileSync(join(DATA_DIR, "database-url"), `${env.DATABASE_URL}
`, { mode: 384 });
  return embedded;
}
async function prepareDatabase(env) {
  const database = openDatabase(loadDatabaseConfig(env).databaseUrl, { max: 2, unscoped: "operator" });
  try {
    await runMigrations(database.pool);
    await bootstrapFirstTenant(database.db);
    return await firstOwnerToSignIn(database.db);
  } finally {
    await database.close();
  }
}
async function runDev(baseEnv) {
  const stop = nextStopSignal();
  mkdirSync(DATA_DIR, { recursive: true });
  ensureWebBuilt();
  const env = { ...baseEnv };
  const log = createLogger(loadLogLevel(env));
  const port = env.PORT?.trim() || "3000";
  env.APP_URL ||= `http://localhost:${port}`;
  env.OAUTH_ENCRYPTION_KEY ||= keptSecret("oauth-encryption-key", () => randomBytes(32).toString("hex"));
  if (!env.S3_BUCKET) env.LOCAL_OBJECT_STORE_DIR ||= join(DATA_DIR, "objects");
  const embedded = env.DATABASE_URL ? null : await startDatabase(env, log);
  try {
    const owner = await prepareDatabase(env);
    return await serveUntilSignalled(env, {
      stop,
      onListening: (appUrl) => {
        const signIn = owner ? `
Sign in at ${appUrl}/login as ${owner} (owner of the first tenant, "Local");
without MAILER_API_KEY the sign-in link is printed in the log below.
` : "";
        process.stdout.write(`
Delivery analytics is running at ${appUrl}  (Ctrl-C stops it)
${signIn}
`);
      }
    });
  } finally {
    if (embedded) {
      await embedded.stop();
      log.info("embedded database stopped");
    }
  }
}
export {
  bootstrapFirstTenant,
  firstOwnerToSignIn,
  freePort,
  runDev
};
