import { and, asc, count, eq, sql } from "drizzle-orm";
import { deploymentSourceDefaults, deployments, projects } from "../db/schema/index.js";
import { AppError, notFound } from "../errors.js";
import { authorize } from "../auth/policies.js";
const columns = {
  projectId: projects.id,
  projectKey: projects.projectKey,
  source: projects.deploymentSource,
  workflow: projects.deploymentWorkflow,
  branch: projects.deploymentBranch,
  productionEnvironment: projects.productionEnvironment,
  webhookDeployments: sql`(SELECT count(*)::int FROM ${deployments} d WHERE d.project_id = "projects"."id" AND d.provider = 'manual')`,
  codehostDeployments: sql`(SELECT count(*)::int FROM ${deployments} d WHERE d.project_id = "projects"."id" AND d.provider = 'codehost')`
};
async function listDeploymentSources(db, tenantId, paging) {
  const rows = await db.select(columns).from(projects).where(eq(projects.tenantId, tenantId)).orderBy(asc(sql`lower(${projects.projectKey})`), asc(projects.id)).limit(paging.perPage).offset((paging.page - 1) * paging.perPage);
  const [total] = await db.select({ n: count() }).from(projects).where(eq(projects.tenantId, tenantId));
  return { rows, total: total?.n ?? 0 };
}
async function getDeploymentSource(db, tenantId, projectId) {
  const [row] = await db.select(columns).from(projects).where(and(eq(projects.tenantId, tenantId), eq(projects.id, projectId)));
  if (!row) throw notFound("Project");
  return row;
}
async function setDeploymentSource(db, principal, projectId, settings) {
  authorize(principal, "deploymentSource.manage");
  const { tenantId } = principal;
  if (settings.source === "workflow_runs" && !settings.workflow && !await getOrganisationPattern(db, tenantId)) {
    throw new AppError("validation_failed", "Validation failed", [{ path: "workflow", message: "Required when source is workflow_runs and the organisation has no workflow pattern" }]);
  }
  const updated = await db.update(projects).set({
    deploymentSource: settings.source,
    deploymentWorkflow: settings.workflow ?? null,
    deploymentBranch: settings.branch ?? null,
    productionEnvironment: settings.productionEnvironment ?? null
  }).where(and(eq(projects.tenantId, tenantId), eq(projects.id, projectId))).returning({ id: projects.id });
  if (updated.length === 0) throw notFound("Project");
  return getDeploymentSource(db, tenantId, projectId);
}
async function getOrganisationPattern(db, tenantId) {
  const [row] = await db.select({ workflow: deploymentSourceDefaults.workflow, branch: deploymentSourceDefaults.branch }).from(deploymentSourceDefaults).where(eq(deploymentSourceDefaults.tenantId, tenantId));
  return row ?? null;
}
async function setOrganisationPattern(db, principal, pattern) {
  authorize(principal, "deploymentSource.manage");
  const { tenantId } = principal;
  if (pattern === null) {
    await db.delete(deploymentSourceDefaults).where(eq(deploymentSourceDefaults.tenantId, tenantId));
    return null;
  }
  await db.insert(deploymentSourceDefaults).values({ tenantId, ...pattern }).onConflictDoUpdate({ target: deploymentSourceDefaults.tenantId, set: { ...pattern, updatedAt: sql`now()` } });
  return getOrganisationPattern(db, tenantId);
}
export {
  getDeploymentSource,
  getOrganisationPattern,
  listDeploymentSources,
  setDeploymentSource,
  setOrganisationPattern
};
