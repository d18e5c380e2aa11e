import { loadBiCommandConfig, loadConfig, loadDatabaseConfig, type Env } from '../config/index.js';
import type { Database } from '../db/client.js';
import { createLogger } from '../log.js';
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
 * Runs until SIGTERM or SIGINT (or `hooks.stop`, a signal the caller listened for already), then
 * stops gracefully and returns 0.
 */
export async function serveUntilSignalled(
  env: Env,
  hooks: { onListening?: (appUrl: string) => void; after?: () => Promise<void>; stop?: Promise<NodeJS.Signals> } = {},
): Promise<number> {
  const config = loadConfig(env);
  const log = createLogger(config.logLevel);
  const stop = hooks.stop ?? nextStopSignal();
  await refuseWhenBehind(config.database.url);
  // Loaded only to serve: the app graph (OAuth provider, cube compiler…) costs seconds to import.
  const { startServer } = await import('../server.js');
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

export const coreCommands: Record<string, Command> = {
  serve: {
    summary: 'Run one instance from the environment (never migrates).',
    usage: 'serve',
    // Once closed, exit even if abandoned work (a job handler past its grace that ignores its
    // abort signal) still holds a timer or socket: its job is already back in the queue.
    run: (_options, env) =>
      serveUntilSignalled(env).then((code) => {
        setTimeout(() => process.exit(code), 500).unref();
        return code;
      }),
  },
  migrate: {
    summary: 'Apply pending database migrations (the compose migration job).',
    usage: 'migrate',
    run: (_options, env) =>
      withDatabase(env, async ({ pool }) => {
        const { migrateDatabase } = await import('../jobCatalog.js');
        const status = await migrateDatabase(pool);
        process.stdout.write(`${JSON.stringify({ applied: status.applied, bundled: status.bundled, ahead: status.ahead })}\n`);
        // The BI database (docs/bi.md): created when missing, its foreign tables following the views
        // just migrated. Where the user may not create it, BI credentials cannot be issued; the
        // application itself does not need it, so migrate still succeeds.
        const { bi } = loadBiCommandConfig(env);
        const { syncBiDatabase } = await import('../bi/database.js');
        await syncBiDatabase(pool, { replicaUrl: bi.databaseUrl, database: bi.database, updateServer: true }).catch((error: unknown) => {
          process.stderr.write(`BI database not set up (BI credentials cannot be issued until it is; docs/bi.md): ${(error as Error).message}\n`);
        });
      }),
  },
  dev: {
    summary: 'Development launcher behind `npm start`: embedded PostgreSQL, local object store, migrate, serve.',
    usage: 'dev',
    run: async (_options, env) => (await import('../dev.js')).runDev(env),
  },
};
