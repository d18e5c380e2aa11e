import { randomBytes } from 'node:crypto';
import type { TableRoute } from './http/openapi.js';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import type { Config } from './config/index.js';
import type { AppContext } from './context.js';
import { loadCube } from './cube/compiler.js';
import { warmIntake } from './aiTelemetry/service.js';
import { openDatabase } from './db/client.js';
import { asSystem } from './db/tenancy.js';
import { SchemaBehindError, schemaStatus } from './db/migrations.js';
import { createApp, requestHooks } from './app.js';
import { checkJobQueues, installJobQueues } from './jobs/boss.js';
import { jobsFor, schedulesFor } from './jobCatalog.js';
import { createJobQueue, startJobWorker, type JobWorker } from './jobs/index.js';
import { testJobs } from './jobs/testHooks.js';
import { LiveHub, type LiveHubOptions } from './live/hub.js';
import { createLivePublisher } from './live/publisher.js';
import type { Logger } from './log.js';


export { SchemaBehindError };

export interface RunningServer {
  url: string;
  app: AppContext;
  /** The route table this instance serves (what its OpenAPI document is generated from). */
  routes: TableRoute[];
  server: Server;
  /** This instance's name in schedule claims and job logs: `host:pid:random`. */
  instanceId: string;
  /** Null when JOBS_WORKER_ENABLED=false. */
  worker: JobWorker | null;
  live: LiveHub;
  /**
   * Graceful stop, in this order: websockets close with 1012 (clients reconnect elsewhere at
   * once); then, together, the HTTP server stops accepting and finishes in-flight requests while
   * the worker stops claiming, finishes held jobs within JOBS_SHUTDOWN_GRACE_MS and returns the
   * rest to the queue; then the pools close.
   */
  close(): Promise<void>;
}

export interface StartOptions {
  live?: LiveHubOptions;
}

/**
 * Starts one instance. The database schema is checked before the port is bound: a database that
 * is behind the bundled migrations refuses the start; one that is ahead starts and says so.
 */
export async function startServer(config: Readonly<Config>, log: Logger, options: StartOptions = {}): Promise<RunningServer> {
  const database = openDatabase(config.database.url, { max: config.database.poolSize, min: config.database.poolSize });
  const jobDefs = jobsFor(config);
  let app: AppContext;
  try {
    await asSystem('operator', async () => {
      const status = await schemaStatus(database.pool);
      if (status.missing.length > 0) throw new SchemaBehindError(status.missing);
      if (status.ahead) log.warn({ applied: status.applied, bundled: status.bundled }, 'database schema is ahead of this server');
      // Test queues are not part of `migrate`; only a test instance (TEST_HOOKS) creates them.
      if (config.testHooks) await installJobQueues(database.pool, testJobs);
      await checkJobQueues(database.pool, jobDefs);
    });
    app = { config, database, log, jobs: createJobQueue(database.pool, jobDefs), live: createLivePublisher(database.pool, config), requestHooks };
  } catch (error) {
    await database.close();
    throw error;
  }

  const koa = createApp(app);
  // The cube models compile before the port opens (a few seconds, the slowest step of a start, and
  // CPU-bound): a balancer sees the instance only once its first figure can be answered at once,
  // instead of sending it a /delivery or a dashboard that waits for the compile (issue 24: 10 s).
  const compiling = Date.now();
  try {
    await loadCube();
    log.info({ ms: Date.now() - compiling }, 'cube models compiled');
  } catch (error) {
    // Not fatal to the start: every other surface works, and the next figure asked retries it.
    log.error({ err: error }, 'cube models failed to compile');
  }
  if (config.aiTelemetry.warmConnections) {
    // Like the cube compile: the instance takes telemetry only once no export meets a cold backend.
    const warming = Date.now();
    try {
      await warmIntake(app, config.database.poolSize);
      log.info({ ms: Date.now() - warming, connections: config.database.poolSize }, 'database connections warmed');
    } catch (error) {
      log.error({ err: error }, 'database connections not warmed');
    }
  }
  const server = createServer(koa.callback());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;

  const instanceId = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  const live = new LiveHub(app, options.live);
  live.attach(server);
  await live.ready;
  const worker = config.jobs.workerEnabled ? startJobWorker(app, { instanceId, defs: jobDefs, schedules: schedulesFor(config) }) : null;

  let closing: Promise<void> | null = null;
  const close = () => {
    closing ??= (async () => {
      await live.close();
      const [drained] = await Promise.all([
        worker?.drain(config.jobs.shutdownGraceMs),
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          // Keep-alive sockets with no request in flight would hold close() open forever.
          server.closeIdleConnections();
        }),
      ]);
      if (drained) log.info(drained, 'jobs drained');
      await database.close();
    })();
    return closing;
  };
  return { url: `http://${host}:${port}`, app, routes: koa.routeTable, server, instanceId, worker, live, close };
}
