import { ConfigError, loadBiCommandConfig, loadCompileCacheDir } from './config/index.js';
import { UsageError, parseOptions } from './cli/args.js';
import { serveUntilSignalled, withDatabase, type Command } from './cli/commands.js';
import { tenantCommands } from './tenants/cli.js';
import { organisationCommands } from './organisation/cli.js';
import { exportCommands } from './exports/cli.js';
import { codehostCommands } from './codehost/cli.js';
import { biCommands } from './bi/cli.js';
import { loginCommands } from './cliLogin/cli.js';
import { notionCommands } from './integrations/notion/cli.js';
import { captureCommands } from './aiSessions/cli.js';
import { SchemaBehindError } from './db/errors.js';
import { configureCube, DEFAULT_CUBE_SETTINGS } from './cube/settings.js';

/** The process's own commands; `dev` is the launcher behind `npm start` (dev.ts, loaded when it runs). */
const coreCommands: Record<string, Command> = {
  serve: {
    summary: 'Run one instance from the environment (never migrates).',
    usage: 'serve',
    // Once closed, exit even if abandoned work (a job handler past its grace that ignores its
    // abort signal) still holds a timer or socket: its job is already back in the queue.
    run: (_options, env) =>
      serveUntilSignalled(env, () => import('./server.js')).then((code) => {
        setTimeout(() => process.exit(code), 500).unref();
        return code;
      }),
  },
  migrate: {
    summary: 'Apply pending database migrations (the compose migration job).',
    usage: 'migrate',
    run: (_options, env) =>
      withDatabase(env, async ({ pool }) => {
        const { migrateDatabase } = await import('./jobCatalog.js');
        const status = await migrateDatabase(pool);
        process.stdout.write(`${JSON.stringify({ applied: status.applied, bundled: status.bundled, ahead: status.ahead })}\n`);
        // The BI database (docs/bi.md): created when missing, its foreign tables following the views
        // just migrated. Where the user may not create it, BI credentials cannot be issued; the
        // application itself does not need it, so migrate still succeeds.
        const { bi } = loadBiCommandConfig(env);
        const { syncBiDatabase } = await import('./bi/database.js');
        await syncBiDatabase(pool, { replicaUrl: bi.databaseUrl, database: bi.database, updateServer: true }).catch((error: unknown) => {
          process.stderr.write(`BI database not set up (BI credentials cannot be issued until it is; docs/bi.md): ${(error as Error).message}\n`);
        });
      }),
  },
  dev: {
    summary: 'Development launcher behind `npm start`: embedded PostgreSQL, local object store, migrate, serve.',
    usage: 'dev',
    run: async (_options, env) => (await import('./dev.js')).runDev(env),
  },
};

/** Every CLI command, in the order `help` lists them; each capability's are in its cli.ts. */
const commands: Record<string, Command> = {
  ...coreCommands,
  ...tenantCommands,
  ...organisationCommands,
  ...exportCommands,
  ...codehostCommands,
  ...biCommands,
  ...loginCommands,
  ...notionCommands,
  ...captureCommands,
};

function help(): string {
  const lines = Object.entries(commands).map(([name, c]) => `  ${c.usage.padEnd(60)} ${c.summary}`);
  return `usage: delivery-analytics <command> [--option=value …]\n\ncommands:\n${lines.join('\n')}\n`;
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === 'help' || name === '--help') {
    process.stdout.write(help());
    return name ? 0 : 2;
  }
  const command = commands[name];
  if (!command) {
    process.stderr.write(`unknown command "${name}"\n\n${help()}`);
    return 2;
  }
  // Each compile otherwise pays the transpile again (1.7 s of CPU); `serve` sets it again from its configuration.
  const compileCacheDir = loadCompileCacheDir(process.env);
  if (compileCacheDir) configureCube({ ...DEFAULT_CUBE_SETTINGS, compileCacheDir });
  try {
    return (await command.run(command.rawArguments ? {} : parseOptions(rest), process.env, rest)) ?? 0;
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`configuration problems:\n${error.problems.map((p) => `  ${p}`).join('\n')}\n`);
      return 1;
    }
    if (error instanceof UsageError) {
      process.stderr.write(`${name}: ${error.message}\nusage: delivery-analytics ${command.usage}\n`);
      return 2;
    }
    if (error instanceof SchemaBehindError) {
      process.stderr.write(`${error.message}\n`);
      return 1;
    }
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`${name}: ${message}\n`);
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
