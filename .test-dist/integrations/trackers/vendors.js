import { createHmac, hkdfSync } from "node:crypto";
import { AppError } from "../../errors.js";
import { jiraVendor } from "../jira/vendor.js";
import { linearVendor } from "../linear/vendor.js";
const VENDORS = { jira: jiraVendor, linear: linearVendor };
const TRACKER_NAMES = { jira: "Jira", linear: "Linear" };
const trackerAppOf = (config, kind) => config.trackers[kind];
function requireTrackerApp(config, kind) {
  const app = trackerAppOf(config, kind);
  if (!app) throw new AppError("not_found", "Not found");
  return app;
}
const webhookUrlOf = (config, kind, site) => kind === "jira" ? `${jiraAdminWebhookUrlOf(config, site)}&key=${jiraSiteKeyOf(config.oauthEncryptionKey, site)}` : `${config.appUrl}/api/integrations/linear/webhook`;
const jiraAdminWebhookUrlOf = (config, site) => `${config.appUrl}/api/integrations/jira/webhook?site=${encodeURIComponent(site)}`;
const siteKeys = /* @__PURE__ */ new WeakMap();
function jiraSiteKeyOf(master, site) {
  let key = siteKeys.get(master);
  if (!key) siteKeys.set(master, key = Buffer.from(hkdfSync("sha256", master, Buffer.alloc(0), "delivery-analytics/jira-webhook-site", 32)));
  return createHmac("sha256", key).update(site).digest("base64url");
}
const secretKeys = /* @__PURE__ */ new WeakMap();
function webhookSecretOf(master, connectionId) {
  let key = secretKeys.get(master);
  if (!key) secretKeys.set(master, key = Buffer.from(hkdfSync("sha256", master, Buffer.alloc(0), "delivery-analytics/tracker-webhook-secret", 32)));
  return createHmac("sha256", key).update(connectionId).digest("base64url");
}
export {
  TRACKER_NAMES,
  VENDORS,
  jiraAdminWebhookUrlOf,
  jiraSiteKeyOf,
  requireTrackerApp,
  trackerAppOf,
  webhookSecretOf,
  webhookUrlOf
};
