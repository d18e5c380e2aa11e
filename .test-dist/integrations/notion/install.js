import { authorize } from "../../auth/policies.js";
import { AppError } from "../../errors.js";
import { connectionById, saveConnection } from "../shared/connections.js";
import { createState, stateValid } from "../shared/oauthState.js";
import { notionClient, notionErrorCode } from "./client.js";
const notionCallbackUrl = (app) => `${app.config.appUrl}/api/integrations/notion/callback`;
const notionSettingsUrl = (app, outcome) => `${app.config.appUrl}/app/settings/integrations?notion=${encodeURIComponent(outcome)}`;
function requireNotion(app) {
  const group = app.config.integrations.docs;
  if (!group) throw new AppError("not_found", "Not found");
  return { clientId: group.DOCS_CLIENT_ID, clientSecret: group.DOCS_CLIENT_SECRET };
}
function notionAuthorizeUrl(app, owner) {
  authorize(owner, "integration.manage");
  const { clientId } = requireNotion(app);
  const url = new URL(`${app.config.vendorUrls.notionApi}/v1/oauth/authorize`);
  url.search = new URLSearchParams({
    client_id: clientId,
    response_type: "code",
    owner: "user",
    redirect_uri: notionCallbackUrl(app),
    state: createState(app.config.oauthEncryptionKey, { tenantId: owner.tenantId, userId: owner.userId, kind: "notion" })
  }).toString();
  return url.toString();
}
async function completeNotionConnect(app, owner, code, state) {
  authorize(owner, "integration.manage");
  const { clientId, clientSecret } = requireNotion(app);
  if (!stateValid(app.config.oauthEncryptionKey, state, { tenantId: owner.tenantId, userId: owner.userId, kind: "notion" })) {
    throw new AppError("forbidden", "The Notion authorization was not started by you in this organisation, or it expired; start again from Settings \u203A Integrations");
  }
  let granted;
  try {
    granted = await notionClient(app.config).oauth.token({ client_id: clientId, client_secret: clientSecret, grant_type: "authorization_code", code, redirect_uri: notionCallbackUrl(app) });
  } catch (error) {
    app.log.warn({ vendor: "notion", error: notionErrorCode(error) }, "notion connect refused");
    throw new AppError("validation_failed", "Notion refused the authorization code", [{ path: "code", message: notionErrorCode(error) }]);
  }
  return saveConnection(app.database.db, app.config.oauthEncryptionKey, {
    tenantId: owner.tenantId,
    kind: "notion",
    externalId: granted.workspace_id,
    displayName: granted.workspace_name ?? null,
    scopes: null,
    connectedBy: owner.userId,
    accessToken: granted.access_token,
    refreshToken: granted.refresh_token ?? null,
    expiresAt: null,
    settings: { botId: granted.bot_id, parentPageId: null, publishedMonth: null }
  });
}
async function ownedNotionConnection(app, owner, id) {
  authorize(owner, "integration.manage");
  requireNotion(app);
  const connection = await connectionById(app.database.db, owner.tenantId, id);
  if (!connection || connection.kind !== "notion") throw new AppError("not_found", "Notion connection not found");
  return connection;
}
export {
  completeNotionConnect,
  notionAuthorizeUrl,
  notionCallbackUrl,
  notionSettingsUrl,
  ownedNotionConnection,
  requireNotion
};
