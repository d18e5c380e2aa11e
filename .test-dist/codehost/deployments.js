import { and, desc, eq, lt, sql } from "drizzle-orm";
import { z } from "zod";
import { deploymentSourceDefaults, deployments, projects } from "../db/schema/index.js";
import { upsertCodehostDeployment } from "../webhooks/service.js";
import { ensureProject, Repository, User } from "./events.js";
const CODEHOST_DEPLOYMENT_PROVIDER = "codehost";
const Deployment = z.object({
  id: z.number().int(),
  sha: z.string(),
  ref: z.string(),
  task: z.string().nullish(),
  environment: z.string().min(1),
  description: z.string().nullish(),
  creator: User,
  created_at: z.string(),
  production_environment: z.boolean().nullish(),
  url: z.string().nullish()
});
const DeploymentEvent = z.object({ action: z.string().optional(), repository: Repository, deployment: Deployment });
const DeploymentStatusEvent = DeploymentEvent.extend({
  deployment_status: z.object({
    id: z.number().int(),
    state: z.string(),
    url: z.string().nullish(),
    target_url: z.string().nullish(),
    log_url: z.string().nullish(),
    environment_url: z.string().nullish(),
    created_at: z.string()
  })
});
const WorkflowRunEvent = z.object({
  action: z.string(),
  repository: Repository.extend({ default_branch: z.string().nullish() }),
  workflow: z.object({ path: z.string().nullish() }).nullish(),
  workflow_run: z.object({
    id: z.number().int(),
    name: z.string().nullish(),
    path: z.string().nullish(),
    head_branch: z.string().nullish(),
    head_sha: z.string(),
    status: z.string().nullish(),
    conclusion: z.string().nullish(),
    run_attempt: z.number().int().nullish(),
    run_started_at: z.string().nullish(),
    created_at: z.string(),
    html_url: z.string().nullish(),
    actor: User
  })
});
const ReleaseEvent = z.object({
  action: z.string(),
  repository: Repository,
  release: z.object({
    id: z.number().int(),
    tag_name: z.string().min(1),
    target_commitish: z.string().nullish(),
    name: z.string().nullish(),
    draft: z.boolean(),
    prerelease: z.boolean(),
    created_at: z.string().nullish(),
    published_at: z.string().nullish(),
    html_url: z.string().nullish(),
    author: User
  })
});
const SOURCE_NAMES = {
  webhook: "the webhook API",
  deployments: "code-host deployments",
  workflow_runs: "workflow runs",
  releases: "releases"
};
async function projectSettings(tx, tenantId, repository) {
  const { id } = await ensureProject(tx, tenantId, repository);
  const [row] = await tx.select({
    id: projects.id,
    projectKey: projects.projectKey,
    deploymentSource: projects.deploymentSource,
    deploymentWorkflow: projects.deploymentWorkflow,
    deploymentBranch: projects.deploymentBranch,
    productionEnvironment: projects.productionEnvironment
  }).from(projects).where(eq(projects.id, id)).for("update");
  return row;
}
const notStored = (reason) => ({ stored: false, reason });
async function usesSource(tx, project, source, claims = source === "deployments") {
  let current = project.deploymentSource;
  if (current === null && claims && source !== "deployments") {
    current = source;
    await tx.update(projects).set({ deploymentSource: current }).where(eq(projects.id, project.id));
  }
  if (current === null && source === "deployments") {
    const [manual] = await tx.select({ id: deployments.id }).from(deployments).where(and(eq(deployments.projectId, project.id), eq(deployments.provider, "manual"))).limit(1);
    current = manual ? "webhook" : "deployments";
    await tx.update(projects).set({ deploymentSource: current }).where(eq(projects.id, project.id));
  }
  if (current === source) return void 0;
  if (current === null) {
    return notStored(source === "workflow_runs" ? `no workflow is named as the deployment of ${project.projectKey}` : `${project.projectKey} does not use releases as its deployment source`);
  }
  return notStored(`the deployment source of ${project.projectKey} is ${SOURCE_NAMES[current]}, not ${SOURCE_NAMES[source]}`);
}
const lower = (value) => value.toLowerCase();
const isSha = (value) => value != null && /^[0-9a-fA-F]{40}$/.test(value);
async function rollbackOf(tx, projectId, record) {
  const none = { isRollback: false, rollbackFromSha: null };
  if (!isSha(record.sha)) return none;
  const before = and(
    eq(deployments.projectId, projectId),
    eq(deployments.status, "success"),
    sql`COALESCE(${deployments.isProduction}, ${deployments.environment} = 'production')`,
    lt(deployments.createdAt, new Date(record.createdAt)),
    sql`NOT (${deployments.provider} = ${CODEHOST_DEPLOYMENT_PROVIDER} AND ${deployments.externalId} = ${record.externalId})`
  );
  const [previous] = await tx.select({ sha: deployments.sha }).from(deployments).where(before).orderBy(desc(deployments.createdAt), desc(deployments.id)).limit(1);
  if (!previous || lower(previous.sha) === lower(record.sha)) return none;
  const [earlier] = await tx.select({ id: deployments.id }).from(deployments).where(and(before, sql`lower(${deployments.sha}) = ${lower(record.sha)}`)).limit(1);
  return earlier ? { isRollback: true, rollbackFromSha: lower(previous.sha) } : none;
}
async function storedDeployment(tx, tenantId, externalId) {
  const [row] = await tx.select({ status: deployments.status, metadata: deployments.metadata }).from(deployments).where(and(eq(deployments.tenantId, tenantId), eq(deployments.provider, CODEHOST_DEPLOYMENT_PROVIDER), eq(deployments.externalId, externalId)));
  return row;
}
async function write(tx, tenantId, project, record) {
  const rollback = record.isProduction ? await rollbackOf(tx, project.id, record) : { isRollback: false, rollbackFromSha: null };
  await upsertCodehostDeployment(tx, tenantId, { ...record, projectKey: project.projectKey, ...rollback });
}
const FINISHED_OR_PROGRESS = /* @__PURE__ */ new Set(["success", "failure", "error", "pending", "queued", "in_progress"]);
function deploymentRecord(project, d, status, url, metadata) {
  const productionName = project.productionEnvironment ?? "production";
  return {
    externalId: `gh-deployment-${d.id}`,
    ref: d.ref,
    sha: d.sha,
    environment: d.environment,
    status,
    task: d.task ?? "deploy",
    description: d.description ?? void 0,
    url: url ?? void 0,
    creatorUsername: d.creator?.login,
    isProduction: d.production_environment === true || lower(d.environment) === lower(productionName),
    createdAt: d.created_at,
    metadata: { source: "deployments", deploymentId: d.id, ...metadata }
  };
}
async function applyDeployment(tx, tenantId, event) {
  const project = await projectSettings(tx, tenantId, event.repository.full_name);
  const refused = await usesSource(tx, project, "deployments");
  if (refused) return refused;
  const externalId = `gh-deployment-${event.deployment.id}`;
  if (await storedDeployment(tx, tenantId, externalId)) return;
  await write(tx, tenantId, project, deploymentRecord(project, event.deployment, "pending", null, {}));
}
async function applyDeploymentStatus(tx, tenantId, event) {
  const project = await projectSettings(tx, tenantId, event.repository.full_name);
  const refused = await usesSource(tx, project, "deployments");
  if (refused) return refused;
  const status = event.deployment_status;
  const externalId = `gh-deployment-${event.deployment.id}`;
  const stored = await storedDeployment(tx, tenantId, externalId);
  const storedStatusId = Number(stored?.metadata?.statusId ?? 0);
  if (stored && storedStatusId > status.id) return;
  if (stored && !FINISHED_OR_PROGRESS.has(status.state)) return;
  const state = FINISHED_OR_PROGRESS.has(status.state) ? status.state : "inactive";
  const url = status.target_url || status.log_url || status.environment_url || status.url || null;
  await write(tx, tenantId, project, deploymentRecord(project, event.deployment, state, url, { statusId: status.id, statusState: status.state }));
}
const RUN_STATUS = {
  success: "success",
  failure: "failure",
  timed_out: "failure",
  startup_failure: "failure"
};
const fileName = (path) => path.split("/").pop() ?? path;
function workflowMatches(pattern, path) {
  const escaped = fileName(pattern).split("*").map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join(".*");
  return new RegExp(`^${escaped}$`, "i").test(fileName(path));
}
async function applyWorkflowRun(tx, tenantId, event) {
  const project = await projectSettings(tx, tenantId, event.repository.full_name);
  const run = event.workflow_run;
  const path = run.path ?? event.workflow?.path ?? "";
  const [pattern] = project.deploymentWorkflow ? [] : await tx.select().from(deploymentSourceDefaults).where(eq(deploymentSourceDefaults.tenantId, tenantId));
  const workflow = project.deploymentWorkflow ?? pattern?.workflow ?? null;
  const matches = workflow !== null && workflowMatches(workflow, path);
  const branch = (project.deploymentWorkflow ? project.deploymentBranch : pattern?.branch) ?? event.repository.default_branch ?? null;
  const onBranch = branch === null || run.head_branch === branch;
  if (workflow !== null && (project.deploymentSource === null || project.deploymentSource === "workflow_runs")) {
    if (!matches) return notStored(`workflow ${fileName(path) || run.name || run.id} is not the deployment workflow of ${project.projectKey}`);
    if (!onBranch) return notStored(`a run on branch ${run.head_branch ?? "(none)"} is not a deployment of ${project.projectKey} (branch ${branch})`);
  }
  const refused = await usesSource(tx, project, "workflow_runs", matches && onBranch && !project.deploymentWorkflow);
  if (refused) return refused;
  const externalId = `gh-run-${run.id}`;
  const attempt = run.run_attempt ?? 1;
  const stored = await storedDeployment(tx, tenantId, externalId);
  if (stored && Number(stored.metadata?.runAttempt ?? 0) > attempt) return;
  await write(tx, tenantId, project, {
    externalId,
    ref: run.head_branch ?? branch ?? "",
    sha: run.head_sha,
    environment: "production",
    status: RUN_STATUS[run.conclusion ?? ""] ?? "inactive",
    task: "deploy",
    url: run.html_url ?? void 0,
    creatorUsername: run.actor?.login,
    isProduction: true,
    createdAt: run.run_started_at ?? run.created_at,
    metadata: { source: "workflow_runs", runId: run.id, runAttempt: attempt, conclusion: run.conclusion ?? null, workflow: path }
  });
}
async function applyRelease(tx, tenantId, event) {
  const release = event.release;
  const withdrawn = event.action === "deleted" || event.action === "unpublished";
  if (!withdrawn && (release.draft || release.prerelease)) return notStored(`release ${release.tag_name} is a ${release.draft ? "draft" : "prerelease"}`);
  const project = await projectSettings(tx, tenantId, event.repository.full_name);
  const refused = await usesSource(tx, project, "releases");
  if (refused) return refused;
  const externalId = `gh-release-${release.id}`;
  if (withdrawn && !await storedDeployment(tx, tenantId, externalId)) return notStored(`release ${release.tag_name} was never stored`);
  await write(tx, tenantId, project, {
    externalId,
    ref: release.tag_name,
    sha: isSha(release.target_commitish) ? release.target_commitish : "",
    environment: "production",
    status: withdrawn ? "inactive" : "success",
    task: "release",
    description: release.name ?? void 0,
    url: release.html_url ?? void 0,
    creatorUsername: release.author?.login,
    isProduction: true,
    createdAt: release.published_at ?? release.created_at ?? (/* @__PURE__ */ new Date()).toISOString(),
    metadata: { source: "releases", releaseId: release.id, tag: release.tag_name, ...withdrawn ? { withdrawn: event.action } : {} }
  });
}
export {
  CODEHOST_DEPLOYMENT_PROVIDER,
  DeploymentEvent,
  DeploymentStatusEvent,
  ReleaseEvent,
  WorkflowRunEvent,
  applyDeployment,
  applyDeploymentStatus,
  applyRelease,
  applyWorkflowRun,
  workflowMatches
};
