import { createHmac, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { codehostDeliveries } from "../db/schema/index.js";
import { checkJsonValue, INPUT_LIMITS } from "../shared/limits.js";
import { AppError } from "../errors.js";
import { zodDetails } from "../http/route.js";
import { applyIssue, applyPullRequest, applyPush, applyRepository, ensureProject, IssuesEvent, PullRequestEvent, PushEvent, RepositoryEvent } from "./events.js";
import { applyPullRequestReview, applyReviewRequest, PullRequestReviewEvent } from "./reviews.js";
import { applyDeployment, applyDeploymentStatus, applyRelease, applyWorkflowRun, DeploymentEvent, DeploymentStatusEvent, ReleaseEvent, WorkflowRunEvent } from "./deployments.js";
import { applyInstallationEvent, claimUnlinkedNotice, tenantOfInstallation } from "./installations.js";
function verifySignature(secret, body, header) {
  const match = /^sha256=([0-9a-f]{64})$/i.exec(header.trim());
  if (!match) return false;
  const expected = createHmac("sha256", secret).update(body).digest();
  return timingSafeEqual(expected, Buffer.from(match[1], "hex"));
}
async function applyPullRequestAndReviewers(tx, tenantId, event) {
  await applyPullRequest(tx, tenantId, event);
  await applyReviewRequest(tx, tenantId, event);
}
const TENANT_EVENTS = {
  pull_request: { schema: PullRequestEvent, apply: applyPullRequestAndReviewers, ignored: [] },
  // An edited review changes its text, not its verdict.
  pull_request_review: { schema: PullRequestReviewEvent, apply: applyPullRequestReview, ignored: ["edited"] },
  push: { schema: PushEvent, apply: applyPush, ignored: [] },
  issues: { schema: IssuesEvent, apply: applyIssue, ignored: ["pinned", "unpinned"] },
  repository: { schema: RepositoryEvent, apply: applyRepository, ignored: [] },
  // Deployments from the code host's own records (deployments.ts, docs/codehost-deployments.md).
  deployment: { schema: DeploymentEvent, apply: applyDeployment, ignored: [] },
  deployment_status: { schema: DeploymentStatusEvent, apply: applyDeploymentStatus, ignored: [] },
  // Only a completed run has a conclusion.
  workflow_run: { schema: WorkflowRunEvent, apply: applyWorkflowRun, ignored: ["requested", "in_progress"] },
  // A release is a deployment once published; a draft's creation or edit is not one.
  release: { schema: ReleaseEvent, apply: applyRelease, ignored: ["created", "edited", "prereleased"] }
};
const ignoredAction = (event, action) => action !== void 0 && Object.hasOwn(TENANT_EVENTS, event) && TENANT_EVENTS[event].ignored.includes(action);
const HANDLED_EVENTS = ["ping", "installation", "installation_repositories", ...Object.keys(TENANT_EVENTS)];
const Envelope = z.object({
  action: z.string().optional(),
  installation: z.object({ id: z.number().int().positive(), account: z.object({ login: z.string(), type: z.string().optional() }).optional() }).optional(),
  repositories: z.array(z.object({ full_name: z.string() })).optional(),
  repositories_added: z.array(z.object({ full_name: z.string() })).optional()
});
function parse(schema, payload) {
  const result = schema.safeParse(payload);
  if (!result.success) throw new AppError("validation_failed", "Webhook payload does not have the expected shape", zodDetails(result.error));
  return result.data;
}
async function claimDelivery(tx, delivery, tenantId, installationId, action) {
  const rows = await tx.insert(codehostDeliveries).values({ deliveryId: delivery.deliveryId, tenantId, installationId, event: delivery.event, action }).onConflictDoNothing().returning({ id: codehostDeliveries.deliveryId });
  return rows.length > 0;
}
async function receiveCodehostWebhook(app, delivery) {
  const secret = app.config.codehostApp?.webhookSecret;
  if (!app.config.codehostApp) throw new AppError("unavailable", "Code-host webhooks are not accepted: the code-host application is not configured (CODEHOST_APP_ID)");
  if (!secret) throw new AppError("unavailable", "Code-host webhooks are not accepted: CODEHOST_APP_WEBHOOK_SECRET is not set");
  if (!verifySignature(secret, delivery.body, delivery.signature)) throw new AppError("unauthorized", "Invalid webhook signature");
  if (!delivery.event || !/^[\w.-]{1,200}$/.test(delivery.deliveryId)) {
    throw new AppError("validation_failed", "Missing code-host headers", [
      ...delivery.event ? [] : [{ path: "X-GitHub-Event", message: "Required" }],
      .../^[\w.-]{1,200}$/.test(delivery.deliveryId) ? [] : [{ path: "X-GitHub-Delivery", message: "Required" }]
    ]);
  }
  let payload;
  try {
    payload = JSON.parse(delivery.body.toString("utf8"));
  } catch {
    throw new AppError("validation_failed", "Webhook body is not valid JSON", [{ path: "body", message: "Body is not valid JSON" }]);
  }
  const unstorable = checkJsonValue(payload, INPUT_LIMITS.jsonDepth);
  if (unstorable.length > 0) throw new AppError("validation_failed", "Webhook payload cannot be stored", unstorable);
  const envelope = parse(Envelope, payload);
  const installation = envelope.installation;
  const { db } = app.database;
  if (delivery.event === "ping") return { status: 200, stored: false, reason: "ping" };
  if (delivery.event === "installation" || delivery.event === "installation_repositories") {
    if (!installation) throw new AppError("validation_failed", "Webhook payload does not have the expected shape", [{ path: "installation", message: "Required" }]);
    return db.transaction(async (tx) => {
      if (delivery.event === "installation") await applyInstallationEvent(tx, envelope.action ?? "", installation);
      const tenantId2 = await tenantOfInstallation(tx, installation.id);
      if (!await claimDelivery(tx, delivery, tenantId2, installation.id, envelope.action ?? null)) return { status: 200, stored: false, duplicate: true };
      if (tenantId2) {
        for (const repo of [...envelope.repositories ?? [], ...envelope.repositories_added ?? []]) await ensureProject(tx, tenantId2, repo.full_name);
      }
      return { status: 200, stored: true };
    });
  }
  const handler = Object.hasOwn(TENANT_EVENTS, delivery.event) ? TENANT_EVENTS[delivery.event] : void 0;
  if (!handler) return { status: 200, stored: false, reason: `event ${delivery.event} is not used` };
  if (ignoredAction(delivery.event, envelope.action)) return { status: 200, stored: false, reason: `action ${envelope.action} of ${delivery.event} is not used` };
  if (!installation) return { status: 202, stored: false, reason: "the delivery names no installation" };
  const tenantId = await tenantOfInstallation(db, installation.id);
  if (!tenantId) {
    if (await claimUnlinkedNotice(db, installation.id, installation.account ?? null)) {
      app.log.warn({ installationId: installation.id, event: delivery.event }, "code-host installation is not linked to a tenant; its events are not stored (logged once)");
    }
    return { status: 202, stored: false, reason: "installation is not linked to a tenant" };
  }
  const event = parse(handler.schema, payload);
  return db.transaction(async (tx) => {
    if (!await claimDelivery(tx, delivery, tenantId, installation.id, envelope.action ?? null)) return { status: 200, stored: false, duplicate: true };
    const skipped = await handler.apply(tx, tenantId, event);
    if (skipped) return { status: 200, stored: false, reason: skipped.reason };
    return { status: 200, stored: true };
  });
}
export {
  HANDLED_EVENTS,
  ignoredAction,
  receiveCodehostWebhook,
  verifySignature
};
