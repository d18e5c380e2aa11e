import Router from "@koa/router";
import { z } from "zod";
import { DEPLOYMENT_SOURCES } from "../db/schema/index.js";
import { listEnvelope, Paging, route } from "../http/route.js";
import { presentDeploymentSource } from "./presenters.js";
import { getDeploymentSource, getOrganisationPattern, listDeploymentSources, setDeploymentSource, setOrganisationPattern } from "./service.js";
const NO_ID = "00000000-0000-0000-0000-000000000000";
const ProjectParams = z.object({ projectId: z.uuid() }).catch({ projectId: NO_ID });
const name = (max) => z.string().trim().min(1, "Must not be empty").max(max, `Must be at most ${max} characters`).regex(/^[^\s]+$/, "Must not contain spaces");
const DeploymentSourceBody = z.strictObject({
  source: z.enum(DEPLOYMENT_SOURCES).nullable(),
  /** The workflow's file name, e.g. `deploy.yml` (a path's last segment is used). */
  workflow: name(255).nullable().optional(),
  branch: name(255).nullable().optional(),
  productionEnvironment: name(255).nullable().optional()
});
const OrganisationPatternBody = z.strictObject({
  pattern: z.strictObject({ workflow: name(255), branch: name(255).nullable().optional() }).nullable()
});
function deploymentSourceRoutes(app) {
  const router = new Router();
  const { db } = app.database;
  const meta = { sources: [...DEPLOYMENT_SOURCES] };
  router.get("/api/deployment-sources", route(app, { auth: "required", query: Paging }, async ({ principal, query }) => {
    const { rows, total } = await listDeploymentSources(db, principal.tenantId, query);
    const list = listEnvelope(rows.map(presentDeploymentSource), query, total);
    return { body: { ...list, meta: { ...list.meta, ...meta } } };
  }));
  router.get("/api/deployment-sources/organisation", route(app, { auth: "required" }, async ({ principal }) => {
    return { body: { data: { pattern: await getOrganisationPattern(db, principal.tenantId) }, meta } };
  }));
  router.put("/api/deployment-sources/organisation", route(app, { auth: { policy: "deploymentSource.manage" }, body: OrganisationPatternBody }, async ({ principal, body }) => {
    const pattern = body.pattern && { workflow: body.pattern.workflow, branch: body.pattern.branch ?? null };
    return { body: { data: { pattern: await setOrganisationPattern(db, principal, pattern) }, meta } };
  }));
  router.get("/api/deployment-sources/:projectId", route(app, { auth: "required", params: ProjectParams }, async ({ principal, params }) => {
    return { body: { data: presentDeploymentSource(await getDeploymentSource(db, principal.tenantId, params.projectId)), meta } };
  }));
  router.put("/api/deployment-sources/:projectId", route(app, { auth: { policy: "deploymentSource.manage" }, params: ProjectParams, body: DeploymentSourceBody }, async ({ principal, params, body }) => {
    return { body: { data: presentDeploymentSource(await setDeploymentSource(db, principal, params.projectId, body)), meta } };
  }));
  return router;
}
export {
  DeploymentSourceBody,
  OrganisationPatternBody,
  deploymentSourceRoutes
};
