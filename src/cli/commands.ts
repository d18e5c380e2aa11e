import { loadConfig, loadDatabaseConfig, type Config, type Env } from '../config/index.js';
import type { Database, Db } from '../db/client.js';
import { createLogger, type Logger } from '../log.js';
import type { Options } from './args.js';

export interface Command {
  summary: string;
  usage: string;
  /** The arguments reach `run` as given (`argv`), not parsed as options: a hook's caller decides them. */
  rawArguments?: true;
  run(options: Options, env: Env, argv: string[]): Promise<number | void>;
}

/** Opens the database named by DATABASE_URL for the length of one command. */
export async function withDatabase<T>(env: Env, body: (database: Database) => Promise<T>): Promise<T> {
  const { databaseUrl } = loadDatabaseConfig(env);
  const { openDatabase } = await import('../db/client.js');
  const database = openDatabase(databaseUrl, { max: 4, applicationName: 'delivery-analytics-cli', unscoped: 'operator' });
  try {
    return await body(database);
  } finally {
    await database.close();
  }
}

// The services are imported when a command runs, not with the command table: `whoami` or an export
// with --url must not load the server's modules (seconds of start-up for every CLI call).
export async function requireTenant(db: Db, tenantId: string): Promise<void> {
  const [{ eq }, { tenants }] = await Promise.all([import('drizzle-orm'), import('../db/schema/index.js')]);
  const [found] = await db.select({ id: tenants.id }).from(tenants).where(eq(tenants.id, tenantId));
  if (!found) throw new Error(`tenant ${tenantId} not found`);
}

/** Resolves with the first SIGTERM or SIGINT received from now on (later ones are ignored). */
export function nextStopSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      process.off('SIGTERM', stop).off('SIGINT', stop);
      // A second Ctrl-C while draining must not kill the process half-way: the stop is under way.
      process.on('SIGTERM', () => {}).on('SIGINT', () => {});
      resolve(signal);
    };
    process.on('SIGTERM', stop).on('SIGINT', stop);
  });
}

/**
 * server.ts, loaded only to serve: the app graph (OAuth provider, cube compiler…) costs seconds to
 * import. The entry points (main.ts, dev.ts) hand it in, so cli/ imports no composition root.
 */
export type LoadServer = () => Promise<{ startServer(config: Readonly<Config>, log: Logger): Promise<{ url: string; close(): Promise<void> }> }>;

/**
 * Runs until SIGTERM or SIGINT (or `hooks.stop`, a signal the caller listened for already), then
 * stops gracefully and returns 0.
 */
export async function serveUntilSignalled(
  env: Env,
  loadServer: LoadServer,
  hooks: { onListening?: (appUrl: string) => void; after?: () => Promise<void>; stop?: Promise<NodeJS.Signals> } = {},
): Promise<number> {
  const config = loadConfig(env);
  const log = createLogger(config.logLevel);
  const stop = hooks.stop ?? nextStopSignal();
  await refuseWhenBehind(config.database.url);
  const { startServer } = await loadServer();
  const running = await startServer(config, log);
  log.info({ url: running.url, appUrl: config.appUrl, release: config.releaseVersion }, 'listening');
  hooks.onListening?.(config.appUrl);
  log.info({ signal: await stop }, 'shutting down');
  await running.close();
  await hooks.after?.();
  log.info('stopped');
  return 0;
}

/**
 * A database that lacks this release's migrations refuses the start before the server's modules
 * load (seconds of CPU); startServer checks again, for starts that do not come through here.
 */
async function refuseWhenBehind(databaseUrl: string): Promise<void> {
  const [{ default: pg }, { schemaStatus }, { SchemaBehindError }] = await Promise.all([import('pg'), import('../db/migrations.js'), import('../db/errors.js')]);
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1, application_name: 'delivery-analytics' });
  try {
    const status = await schemaStatus(pool);
    if (status.missing.length > 0) throw new SchemaBehindError(status.missing);
  } finally {
    await pool.end();
  }
}
