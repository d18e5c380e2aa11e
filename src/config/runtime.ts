/** How the process runs: logging, the job worker, live sockets, the semantic layer's limits, the CLI login's poll interval, test hooks. */
import { isAbsolute } from 'node:path';
import type { Reader } from './reader.js';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export interface RuntimeConfig {
  jobs: {
    workerEnabled: boolean;
    pollIntervalMs: number;
    queueConcurrency: number;
    workflowConcurrency: number;
    retentionDays: number;
    shutdownGraceMs: number;
  };
  live: {
    /** Open `/api/live` sockets one tenant may hold on one instance. */
    maxConnectionsPerTenant: number;
  };
  cube: {
    /** CUBE_QUERY_TIMEOUT_SECONDS: statement timeout of every semantic-layer statement. */
    queryTimeoutSeconds: number;
    /** CUBE_CONTINUE_WAIT_SECONDS: a `/cubejs-api/v1/load` still running after this answers Cube's "Continue wait". */
    continueWaitSeconds: number;
    /**
     * CUBE_COMPILE_CACHE_DIR: where the models' transpiled YAML is kept between starts (src/cube/compiler.ts);
     * null: nowhere, every start transpiles.
     */
    compileCacheDir: string | null;
  };
  cliLogin: {
    /**
     * CLI_LOGIN_POLL_INTERVAL_SECONDS: how often a CLI login polls for its approval. RFC 8628's
     * default, 5, is not sent; another value is, as the device authorization's `interval`.
     */
    pollIntervalSeconds: number;
  };
}

/** RFC 8628 §3.2: a client polls every 5 s when the device authorization names no interval. */
export const DEFAULT_DEVICE_POLL_INTERVAL_SECONDS = 5;

export function parseCompileCacheDir(r: Reader): string | null {
  const dir = r.get('CUBE_COMPILE_CACHE_DIR');
  if (dir !== null && !isAbsolute(dir)) r.problems.push('CUBE_COMPILE_CACHE_DIR must be an absolute path');
  return dir;
}

export function parseLogLevel(r: Reader): string {
  const logLevel = r.get('LOG_LEVEL') ?? 'info';
  if (!LOG_LEVELS.includes(logLevel)) r.problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  return logLevel;
}

export function parseRuntime(r: Reader): RuntimeConfig {
  return {
    jobs: {
      workerEnabled: r.boolean('JOBS_WORKER_ENABLED', true),
      pollIntervalMs: r.integer('JOBS_POLL_INTERVAL_MS', 1000, 100, 3_600_000),
      queueConcurrency: r.integer('JOBS_QUEUE_CONCURRENCY', 2, 1, 1000),
      workflowConcurrency: r.integer('JOBS_WORKFLOW_CONCURRENCY', 2, 1, 1000),
      retentionDays: r.integer('JOBS_RETENTION_DAYS', 7, 1, 3650),
      shutdownGraceMs: r.integer('JOBS_SHUTDOWN_GRACE_MS', 20000, 0, 3_600_000),
    },
    live: { maxConnectionsPerTenant: r.integer('LIVE_MAX_CONNECTIONS_PER_TENANT', 200, 1, 100_000) },
    cube: {
      queryTimeoutSeconds: r.integer('CUBE_QUERY_TIMEOUT_SECONDS', 120, 1, 86_400),
      continueWaitSeconds: r.integer('CUBE_CONTINUE_WAIT_SECONDS', 5, 1, 3600),
      compileCacheDir: parseCompileCacheDir(r),
    },
    cliLogin: { pollIntervalSeconds: r.integer('CLI_LOGIN_POLL_INTERVAL_SECONDS', DEFAULT_DEVICE_POLL_INTERVAL_SECONDS, 1, 60) },
  };
}

/**
 * TEST_HOOKS: test-only job kinds, a per-second schedule and the `/api/test/*` routes
 * (src/jobs/testHooks.ts). Refused unless NODE_ENV is test, so production can never enable them.
 */
export function parseTestHooks(r: Reader, nodeEnv: string): boolean {
  const testHooks = r.boolean('TEST_HOOKS', false);
  if (testHooks && nodeEnv !== 'test') r.problems.push('TEST_HOOKS is refused unless NODE_ENV is test');
  return testHooks;
}
