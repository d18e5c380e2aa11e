const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"];
function parseLogLevel(r) {
  const logLevel = r.get("LOG_LEVEL") ?? "info";
  if (!LOG_LEVELS.includes(logLevel)) r.problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")}`);
  return logLevel;
}
function parseRuntime(r) {
  return {
    jobs: {
      workerEnabled: r.boolean("JOBS_WORKER_ENABLED", true),
      pollIntervalMs: r.integer("JOBS_POLL_INTERVAL_MS", 1e3, 100, 36e5),
      queueConcurrency: r.integer("JOBS_QUEUE_CONCURRENCY", 2, 1, 1e3),
      workflowConcurrency: r.integer("JOBS_WORKFLOW_CONCURRENCY", 2, 1, 1e3),
      retentionDays: r.integer("JOBS_RETENTION_DAYS", 7, 1, 3650),
      shutdownGraceMs: r.integer("JOBS_SHUTDOWN_GRACE_MS", 2e4, 0, 36e5)
    },
    live: { maxConnectionsPerTenant: r.integer("LIVE_MAX_CONNECTIONS_PER_TENANT", 200, 1, 1e5) },
    cube: {
      queryTimeoutSeconds: r.integer("CUBE_QUERY_TIMEOUT_SECONDS", 120, 1, 86400),
      continueWaitSeconds: r.integer("CUBE_CONTINUE_WAIT_SECONDS", 5, 1, 3600)
    }
  };
}
function parseTestHooks(r, nodeEnv) {
  const testHooks = r.boolean("TEST_HOOKS", false);
  if (testHooks && nodeEnv !== "test") r.problems.push("TEST_HOOKS is refused unless NODE_ENV is test");
  return testHooks;
}
export {
  parseLogLevel,
  parseRuntime,
  parseTestHooks
};
