import { authorize } from "../../auth/policies.js";
import { asSystem, withTenant } from "../../db/tenancy.js";
import { AppError } from "../../errors.js";
import { connectionByExternalId, connectionById, deleteConnection, saveConnection } from "../shared/connections.js";
import { createState, stateValid } from "../shared/oauthState.js";
import { slackClient, slackErrorCode } from "./client.js";
const BOT_SCOPES = ["commands", "chat:write", "chat:write.public", "users:read", "users:read.email", "channels:read"];
const callbackUrl = (app) => `${app.config.appUrl}/api/integrations/slack/callback`;
const settingsUrl = (app, outcome) => `${app.config.appUrl}/app/settings/integrations?slack=${encodeURIComponent(outcome)}`;
function requireSlack(app) {
  const group = app.config.integrations.chat;
  if (!group) throw new AppError("not_found", "Not found");
  return { clientId: group.CHAT_CLIENT_ID, clientSecret: group.CHAT_CLIENT_SECRET };
}
function slackAuthorizeUrl(app, owner) {
  authorize(owner, "integration.manage");
  const { clientId } = requireSlack(app);
  const url = new URL(app.config.vendorUrls.slackAuthorize);
  url.search = new URLSearchParams({
    client_id: clientId,
    scope: BOT_SCOPES.join(","),
    redirect_uri: callbackUrl(app),
    state: createState(app.config.oauthEncryptionKey, { tenantId: owner.tenantId, userId: owner.userId, kind: "slack" })
  }).toString();
  return url.toString();
}
async function completeSlackInstall(app, owner, code, state) {
  authorize(owner, "integration.manage");
  const { clientId, clientSecret } = requireSlack(app);
  if (!stateValid(app.config.oauthEncryptionKey, state, { tenantId: owner.tenantId, userId: owner.userId, kind: "slack" })) {
    throw new AppError("forbidden", "The Slack authorization was not started by you in this organisation, or it expired; start again from Settings \u203A Integrations");
  }
  let granted;
  try {
    granted = await slackClient(app.config).oauth.v2.access({ client_id: clientId, client_secret: clientSecret, code, redirect_uri: callbackUrl(app) });
  } catch (error) {
    app.log.warn({ vendor: "slack", error: slackErrorCode(error) }, "slack install refused");
    throw new AppError("validation_failed", "Slack refused the authorization code", [{ path: "code", message: slackErrorCode(error) }]);
  }
  const team = granted.team;
  if (!granted.access_token || !team?.id) throw new AppError("validation_failed", "Slack answered without a bot token", [{ path: "code", message: "no bot token" }]);
  const holder = await asSystem("inbound-routing", () => connectionByExternalId(app.database.db, "slack", team.id));
  if (holder && holder.tenantId !== owner.tenantId) {
    throw new AppError("conflict", "This Slack workspace is already connected to another organisation; it must be removed there first");
  }
  return saveConnection(app.database.db, app.config.oauthEncryptionKey, {
    tenantId: owner.tenantId,
    kind: "slack",
    externalId: team.id,
    displayName: team.name ?? null,
    scopes: granted.scope ?? null,
    connectedBy: owner.userId,
    accessToken: granted.access_token,
    refreshToken: granted.refresh_token ?? null,
    expiresAt: granted.expires_in ? new Date(Date.now() + granted.expires_in * 1e3) : null,
    settings: { botUserId: granted.bot_user_id ?? null, appId: granted.app_id ?? null, digestChannels: {} }
  });
}
async function ownedSlackConnection(app, owner, id) {
  authorize(owner, "integration.manage");
  const connection = await connectionById(app.database.db, owner.tenantId, id);
  if (!connection || connection.kind !== "slack") throw new AppError("not_found", "Slack connection not found");
  return connection;
}
async function removeSlackInstall(app, workspaceId) {
  const connection = await asSystem("inbound-routing", () => connectionByExternalId(app.database.db, "slack", workspaceId));
  if (!connection) return false;
  await withTenant(connection.tenantId, () => deleteConnection(app.database.db, connection.tenantId, connection.id));
  app.log.info({ vendor: "slack", tenantId: connection.tenantId, connectionId: connection.id }, "slack app removed by the workspace");
  return true;
}
export {
  BOT_SCOPES,
  callbackUrl,
  completeSlackInstall,
  ownedSlackConnection,
  removeSlackInstall,
  requireSlack,
  settingsUrl,
  slackAuthorizeUrl
};
