import { LinearWebhookClient } from "@linear/sdk/webhooks";
import { jwtVerify } from "jose";
import { safeEqual } from "../../auth/secrets.js";
import { z } from "zod";
import { asSystem, withTenant } from "../../db/tenancy.js";
import { AppError } from "../../errors.js";
import { parseJsonBody } from "../../http/body.js";
import { verifySignature } from "../../codehost/webhook.js";
import { jiraIssue } from "../jira/vendor.js";
import { linearIssue } from "../linear/vendor.js";
import { onceForDelivery } from "../shared/deliveries.js";
import { settingsOf } from "./mapping.js";
import { applyPage, connectionsForSite, markDeleted } from "./store.js";
import { jiraSiteKeyOf, requireTrackerApp, webhookSecretOf } from "./vendors.js";
const JiraEvent = z.object({
  webhookEvent: z.string(),
  issue: z.object({ id: z.union([z.string(), z.number()]), key: z.string().optional(), fields: z.record(z.string(), z.unknown()).optional() }).optional()
});
const parseJson = (body) => parseJsonBody(body, "Validation failed");
const JIRA_TOKEN_MAX_AGE_SECONDS = 10 * 60;
const JIRA_CLOCK_TOLERANCE_SECONDS = 60;
async function verifyJiraDelivery(clientSecret, authorization) {
  const token = /^(?:Bearer|JWT)\s+(\S+)$/i.exec(authorization)?.[1];
  if (!token) throw new AppError("unauthorized", "Invalid webhook signature");
  try {
    const { payload } = await jwtVerify(token, new TextEncoder().encode(clientSecret), { algorithms: ["HS256"], clockTolerance: JIRA_CLOCK_TOLERANCE_SECONDS });
    if (payload.exp === void 0) {
      const now = Math.floor(Date.now() / 1e3);
      const iat = payload.iat;
      if (typeof iat !== "number" || now - iat > JIRA_TOKEN_MAX_AGE_SECONDS || iat - now > JIRA_CLOCK_TOLERANCE_SECONDS) throw new Error("no replay window");
    }
  } catch {
    throw new AppError("unauthorized", "Invalid webhook signature");
  }
}
const IDENTIFIER = /^[\w.:-]{1,200}$/;
async function jiraTargets(app, clientSecret, input) {
  const { db } = app.database;
  const master = app.config.oauthEncryptionKey;
  if (input.hubSignature) {
    const candidates = await asSystem("inbound-routing", () => connectionsForSite(db, "jira", input.site));
    const signer = candidates.find((c) => verifySignature(webhookSecretOf(master, c.id), input.body, input.hubSignature));
    if (!signer) throw new AppError("unauthorized", "Invalid webhook signature");
    return signer.state === "active" ? [signer] : [];
  }
  await verifyJiraDelivery(clientSecret, input.authorization);
  if (!safeEqual(input.key ?? "", jiraSiteKeyOf(master, input.site))) throw new AppError("unauthorized", "Invalid webhook signature");
  const connections = await asSystem("inbound-routing", () => connectionsForSite(db, "jira", input.site));
  return connections.filter((c) => c.state === "active");
}
async function receiveJiraWebhook(app, input) {
  const tracker = requireTrackerApp(app.config, "jira");
  const site = input.site;
  if (!site) {
    if (!input.hubSignature) await verifyJiraDelivery(tracker.clientSecret, input.authorization);
    throw new AppError("validation_failed", "Validation failed", [{ path: "query.site", message: "Required" }]);
  }
  const targets = await jiraTargets(app, tracker.clientSecret, { ...input, site });
  if (!IDENTIFIER.test(input.identifier)) throw new AppError("validation_failed", "Validation failed", [{ path: "X-Atlassian-Webhook-Identifier", message: "Required" }]);
  const parsed = JiraEvent.safeParse(parseJson(input.body));
  const event = parsed.success ? parsed.data.webhookEvent : "unknown";
  if (!parsed.success || !parsed.data.issue) return { applied: 0, event };
  const { issue } = parsed.data;
  const { db } = app.database;
  return onceForDelivery(db, "jira", `${site}:${input.identifier}`, { applied: 0, event, duplicate: true }, async () => {
    for (const c of targets) {
      await withTenant(c.tenantId, async () => {
        if (event === "jira:issue_deleted") return markDeleted(db, c, [String(issue.id)]);
        await applyPage(app.database, c, [jiraIssue({ ...issue, id: String(issue.id) }, settingsOf(c.settings).siteUrl)]);
      });
    }
    return { applied: targets.length, event };
  });
}
const LinearEvent = z.object({
  type: z.string(),
  action: z.string(),
  organizationId: z.string().min(1),
  data: z.record(z.string(), z.unknown())
});
async function receiveLinearWebhook(app, input) {
  requireTrackerApp(app.config, "linear");
  if (!input.signature) throw new AppError("unauthorized", "Invalid webhook signature");
  const peek = LinearEvent.safeParse(parseJson(input.body));
  if (!peek.success) throw new AppError("unauthorized", "Invalid webhook signature");
  const { db } = app.database;
  const master = app.config.oauthEncryptionKey;
  const candidates = await asSystem("inbound-routing", () => connectionsForSite(db, "linear", peek.data.organizationId));
  const signer = candidates.find((c) => {
    try {
      return new LinearWebhookClient(webhookSecretOf(master, c.id)).verify(input.body, input.signature);
    } catch {
      return false;
    }
  });
  if (!signer) throw new AppError("unauthorized", "Invalid webhook signature");
  const { type, action, data } = peek.data;
  const event = `${type}.${action}`;
  if (type !== "Issue" || signer.state !== "active") return { applied: 0, event };
  await withTenant(signer.tenantId, async () => {
    if (action === "remove" || data.trashed === true) await markDeleted(db, signer, [String(data.id)]);
    else await applyPage(app.database, signer, [linearIssue(data)]);
  });
  return { applied: 1, event };
}
export {
  receiveJiraWebhook,
  receiveLinearWebhook,
  verifyJiraDelivery
};
