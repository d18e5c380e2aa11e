import { hostname } from "node:os";
import Router from "@koa/router";
import { schemaStatus } from "../db/migrations.js";
import { versionDocument } from "../version.js";
const INSTANCE_HEADER = "X-Served-By";
const instanceName = `${hostname()}/${process.pid}`;
function healthRoutes(app) {
  const router = new Router();
  router.get("/health", (ctx) => {
    ctx.set(INSTANCE_HEADER, instanceName);
    ctx.body = { status: "ok" };
  });
  router.get("/health/ready", async (ctx) => {
    let status;
    try {
      status = await schemaStatus(app.database.pool);
    } catch (error) {
      app.log.warn({ err: error }, "readiness: database unreachable");
      ctx.status = 503;
      ctx.body = { status: "unavailable", reason: "database unreachable" };
      return;
    }
    if (status.missing.length > 0) {
      ctx.status = 503;
      ctx.body = { status: "unavailable", reason: `database schema is behind: missing migration ${status.missing[0]}` };
      return;
    }
    ctx.body = {
      status: "ready",
      schema: { applied: status.applied, bundled: status.bundled, ahead: status.ahead },
      jobs: { workerEnabled: app.config.jobs.workerEnabled }
    };
  });
  router.get("/api/version", (ctx) => {
    ctx.body = versionDocument(app.config);
  });
  return router;
}
export {
  INSTANCE_HEADER,
  healthRoutes,
  instanceName
};
