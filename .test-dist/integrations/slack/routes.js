import Router from "@koa/router";
import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { teams } from "../../db/schema/index.js";
import { AppError } from "../../errors.js";
import { readRawBody } from "../../http/body.js";
import { route, zodDetails } from "../../http/route.js";
import { connectionsOf, deleteConnection, presentConnection, tokensOf, updateSettings } from "../shared/connections.js";
import { receiveSlashCommand, SlashCommandForm } from "./command.js";
import { slackClient, slackErrorCode } from "./client.js";
import { receiveSlackEvent } from "./events.js";
import { BOT_SCOPES, completeSlackInstall, ownedSlackConnection, requireSlack, settingsUrl, slackAuthorizeUrl } from "./install.js";
import { verifySlackRequest } from "./verify.js";
import { Uuid } from "../../shared/schemas.js";
const INBOUND_LIMIT = 64 * 1024;
const ConnectionParams = z.object({ id: Uuid });
const CallbackQuery = z.object({ code: z.string().max(500).optional(), state: z.string().max(600).optional(), error: z.string().max(100).optional() });
const DigestBody = z.strictObject({ teamId: Uuid, channel: z.string().regex(/^[CG][A-Z0-9]{2,30}$/, "A Slack channel id (C\u2026 or G\u2026)").nullable() });
async function signedBody(app, ctx) {
  requireSlack(app);
  const secret = app.config.chatSigningSecret;
  if (!secret) throw new AppError("unavailable", "Slack requests are refused: CHAT_SIGNING_SECRET is not set on this server");
  const body = await readRawBody(ctx, INBOUND_LIMIT);
  const verdict = verifySlackRequest(secret, { timestamp: ctx.get("x-slack-request-timestamp"), signature: ctx.get("x-slack-signature") }, body);
  if (!verdict.ok) {
    app.log.warn({ vendor: "slack", reason: verdict.reason }, "slack request refused");
    throw new AppError("unauthorized", "Invalid Slack request signature");
  }
  return body;
}
function presentSlackStatus(app, enabled, connections) {
  const { appUrl, chatSigningSecret } = app.config;
  return {
    enabled,
    requestsAccepted: enabled && chatSigningSecret !== null,
    scopes: BOT_SCOPES,
    commandUrl: `${appUrl}/api/integrations/slack/commands`,
    eventsUrl: `${appUrl}/api/integrations/slack/events`,
    connections: connections.map(presentConnection)
  };
}
const presentChannel = (c) => ({ id: c.id, name: c.name });
function slackRoutes(app) {
  const router = new Router();
  const { db } = app.database;
  router.get("/api/integrations/slack", route(app, { auth: "required" }, async ({ principal }) => {
    const enabled = app.config.integrations.chat !== null;
    const connections = enabled ? await connectionsOf(db, principal.tenantId, "slack") : [];
    return { body: { data: presentSlackStatus(app, enabled, connections), meta: {} } };
  }));
  router.get("/api/integrations/slack/connect", route(app, { auth: { policy: "integration.manage" } }, async ({ principal }) => ({ status: 302, headers: { location: slackAuthorizeUrl(app, principal) } })));
  router.get("/api/integrations/slack/callback", route(app, { auth: { policy: "integration.manage" }, query: CallbackQuery }, async ({ principal, query }) => {
    requireSlack(app);
    if (query.error || !query.code || !query.state) return { status: 302, headers: { location: settingsUrl(app, query.error === "access_denied" ? "denied" : "failed") } };
    await completeSlackInstall(app, principal, query.code, query.state);
    return { status: 302, headers: { location: settingsUrl(app, "connected") } };
  }));
  router.post("/api/integrations/slack/commands", route(app, { auth: "none", limit: "none" }, async ({ ctx }) => {
    const body = await signedBody(app, ctx);
    const form = SlashCommandForm.safeParse(Object.fromEntries(new URLSearchParams(body.toString("utf8"))));
    if (!form.success) throw new AppError("validation_failed", "Validation failed", zodDetails(form.error));
    return { body: await receiveSlashCommand(app, form.data) };
  }));
  router.post("/api/integrations/slack/events", route(app, { auth: "none", limit: "none" }, async ({ ctx }) => {
    const body = await signedBody(app, ctx);
    let payload;
    try {
      payload = JSON.parse(body.toString("utf8"));
    } catch {
      throw new AppError("validation_failed", "Invalid request body", [{ path: "body", message: "Body is not valid JSON" }]);
    }
    const answer = await receiveSlackEvent(app, payload);
    if (!answer) throw new AppError("validation_failed", "Invalid request body", [{ path: "type", message: "Not a Slack event" }]);
    return { body: answer };
  }));
  router.get("/api/integrations/slack/connections/:id/channels", route(app, { auth: { policy: "integration.manage" }, params: ConnectionParams }, async ({ principal, params }) => {
    requireSlack(app);
    const connection = await ownedSlackConnection(app, principal, params.id);
    const client = slackClient(app.config, tokensOf(app.config.oauthEncryptionKey, connection).accessToken);
    try {
      const answer = await client.conversations.list({ types: "public_channel", exclude_archived: true, limit: 500 });
      const channels = (answer.channels ?? []).map(presentChannel);
      return { body: { data: channels, meta: { page: 1, perPage: channels.length, total: channels.length } } };
    } catch (error) {
      throw new AppError("unavailable", `Slack did not list the channels (${slackErrorCode(error)})`);
    }
  }));
  router.put("/api/integrations/slack/connections/:id/digests", route(app, { auth: { policy: "integration.manage" }, params: ConnectionParams, body: DigestBody }, async ({ principal, params, body }) => {
    requireSlack(app);
    const connection = await ownedSlackConnection(app, principal, params.id);
    const [team] = await db.select({ id: teams.id }).from(teams).where(and(eq(teams.tenantId, principal.tenantId), eq(teams.id, body.teamId)));
    if (!team) throw new AppError("validation_failed", "Validation failed", [{ path: "teamId", message: "Unknown team" }]);
    const channels = { ...connection.settings.digestChannels ?? {} };
    if (body.channel === null) delete channels[body.teamId];
    else channels[body.teamId] = body.channel;
    await updateSettings(db, connection.id, { ...connection.settings, digestChannels: channels });
    return { body: { data: presentConnection({ ...connection, settings: { ...connection.settings, digestChannels: channels } }), meta: {} } };
  }));
  router.delete("/api/integrations/slack/connections/:id", route(app, { auth: { policy: "integration.manage" }, params: ConnectionParams, whenReadOnly: "allowed" }, async ({ principal, params }) => {
    requireSlack(app);
    const connection = await ownedSlackConnection(app, principal, params.id);
    await slackClient(app.config, tokensOf(app.config.oauthEncryptionKey, connection).accessToken).auth.revoke().catch(() => {
    });
    await deleteConnection(db, principal.tenantId, connection.id);
    return { status: 204 };
  }));
  return router;
}
export {
  DigestBody,
  presentChannel,
  presentSlackStatus,
  slackRoutes
};
