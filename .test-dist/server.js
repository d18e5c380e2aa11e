import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import { hostname } from "node:os";
import { loadCube } from "./cube/compiler.js";
import { openDatabase } from "./db/client.js";
import { asSystem } from "./db/tenancy.js";
import { SchemaBehindError, schemaStatus } from "./db/migrations.js";
import { createApp } from "./http/app.js";
import { checkJobQueues, installJobQueues } from "./jobs/boss.js";
import { jobsFor, schedulesFor } from "./jobs/catalog.js";
import { createJobQueue, startJobWorker } from "./jobs/index.js";
import { testJobs } from "./jobs/testHooks.js";
import { LiveHub } from "./live/hub.js";
import { createLivePublisher } from "./live/publisher.js";
async function startServer(config, log, options = {}) {
  const database = openDatabase(config.database.url);
  const jobDefs = jobsFor(config);
  let app;
  try {
    await asSystem("operator", async () => {
      const status = await schemaStatus(database.pool);
      if (status.missing.length > 0) throw new SchemaBehindError(status.missing);
      if (status.ahead) log.warn({ applied: status.applied, bundled: status.bundled }, "database schema is ahead of this server");
      if (config.testHooks) await installJobQueues(database.pool, testJobs);
      await checkJobQueues(database.pool, jobDefs);
    });
    app = { config, database, log, jobs: createJobQueue(database.pool, jobDefs), live: createLivePublisher(database.pool, config) };
  } catch (error) {
    await database.close();
    throw error;
  }
  const koa = createApp(app);
  const compiling = Date.now();
  try {
    await loadCube();
    log.info({ ms: Date.now() - compiling }, "cube models compiled");
  } catch (error) {
    log.error({ err: error }, "cube models failed to compile");
  }
  const server = createServer(koa.callback());
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const { port } = server.address();
  const host = config.host === "0.0.0.0" || config.host === "::" ? "localhost" : config.host;
  const instanceId = `${hostname()}:${process.pid}:${randomBytes(3).toString("hex")}`;
  const live = new LiveHub(app, options.live);
  live.attach(server);
  await live.ready;
  const worker = config.jobs.workerEnabled ? startJobWorker(app, { instanceId, defs: jobDefs, schedules: schedulesFor(config) }) : null;
  let closing = null;
  const close = () => {
    closing ??= (async () => {
      await live.close();
      const [drained] = await Promise.all([
        worker?.drain(config.jobs.shutdownGraceMs),
        new Promise((resolve) => {
          server.close(() => resolve());
          server.closeIdleConnections();
        })
      ]);
      if (drained) log.info(drained, "jobs drained");
      await database.close();
    })();
    return closing;
  };
  return { url: `http://${host}:${port}`, app, server, instanceId, worker, live, close };
}
export {
  SchemaBehindError,
  startServer
};
