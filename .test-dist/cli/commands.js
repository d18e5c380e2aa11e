import { loadBiCommandConfig, loadConfig, loadDatabaseConfig } from "../config/index.js";
import { createLogger } from "../log.js";
async function withDatabase(env, body) {
  const { databaseUrl } = loadDatabaseConfig(env);
  const { openDatabase } = await import("../db/client.js");
  const database = openDatabase(databaseUrl, { max: 4, applicationName: "delivery-analytics-cli", unscoped: "operator" });
  try {
    return await body(database);
  } finally {
    await database.close();
  }
}
function nextStopSignal() {
  return new Promise((resolve) => {
    const stop = (signal) => {
      process.off("SIGTERM", stop).off("SIGINT", stop);
      process.on("SIGTERM", () => {
      }).on("SIGINT", () => {
      });
      resolve(signal);
    };
    process.on("SIGTERM", stop).on("SIGINT", stop);
  });
}
async function serveUntilSignalled(env, hooks = {}) {
  const config = loadConfig(env);
  const log = createLogger(config.logLevel);
  const stop = hooks.stop ?? nextStopSignal();
  const { startServer } = await import("../server.js");
  const running = await startServer(config, log);
  log.info({ url: running.url, appUrl: config.appUrl, release: config.releaseVersion }, "listening");
  hooks.onListening?.(config.appUrl);
  log.info({ signal: await stop }, "shutting down");
  await running.close();
  await hooks.after?.();
  log.info("stopped");
  return 0;
}
const coreCommands = {
  serve: {
    summary: "Run one instance from the environment (never migrates).",
    usage: "serve",
    // Once closed, exit even if abandoned work (a job handler past its grace that ignores its
    // abort signal) still holds a timer or socket: its job is already back in the queue.
    run: (_options, env) => serveUntilSignalled(env).then((code) => {
      setTimeout(() => process.exit(code), 500).unref();
      return code;
    })
  },
  migrate: {
    summary: "Apply pending database migrations (the compose migration job).",
    usage: "migrate",
    run: (_options, env) => withDatabase(env, async ({ pool }) => {
      const { runMigrations } = await import("../db/migrations.js");
      const status = await runMigrations(pool);
      process.stdout.write(`${JSON.stringify({ applied: status.applied, bundled: status.bundled, ahead: status.ahead })}
`);
      const { bi } = loadBiCommandConfig(env);
      const { syncBiDatabase } = await import("../bi/database.js");
      await syncBiDatabase(pool, { replicaUrl: bi.databaseUrl, database: bi.database, updateServer: true }).catch((error) => {
        process.stderr.write(`BI database not set up (BI credentials cannot be issued until it is; docs/bi.md): ${error.message}
`);
      });
    })
  },
  dev: {
    summary: "Development launcher behind `npm start`: embedded PostgreSQL, local object store, migrate, serve.",
    usage: "dev",
    run: async (_options, env) => (await import("../dev.js")).runDev(env)
  }
};
export {
  coreCommands,
  nextStopSignal,
  serveUntilSignalled,
  withDatabase
};
