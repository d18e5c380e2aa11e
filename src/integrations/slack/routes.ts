/**
 * Slack's paths. Without CHAT_CLIENT_ID and CHAT_CLIENT_SECRET every path but the status is a 404
 * (the integration is off); with them but without CHAT_SIGNING_SECRET, Slack's inbound requests
 * are refused with 503, since nothing could prove they come from Slack.
 */
import Router from '@koa/router';
import type Koa from 'koa';
import type { AppContext } from '../../context.js';
import { AppError, zodDetails } from '../../errors.js';
import { readRawBody } from '../../http/body.js';
import { route, type ApiRouter } from '../../http/route.js';
import { connectionsOf, deleteConnection, presentConnection, tokensOf, type Connection } from '../shared/connections.js';
import { receiveSlashCommand } from './command.js';
import { slackClient, slackErrorCode } from './client.js';
import { setDigestChannel } from './digest.js';
import { receiveSlackEvent } from './events.js';
import { BOT_SCOPES, completeSlackInstall, ownedSlackConnection, requireSlack, settingsUrl, slackAuthorizeUrl } from './install.js';
import { verifySlackRequest } from './verify.js';
import { CallbackQuery, ConnectionParams, DigestBody, SlashCommandForm } from './schemas.js';

const INBOUND_LIMIT = 64 * 1024;

/** Verifies Slack's signature over the raw body; the body is returned only when it is Slack's. */
async function signedBody(app: AppContext, ctx: Koa.Context): Promise<Buffer> {
  requireSlack(app);
  const secret = app.config.chatSigningSecret;
  if (!secret) throw new AppError('unavailable', 'Slack requests are refused: CHAT_SIGNING_SECRET is not set on this server');
  const body = await readRawBody(ctx, INBOUND_LIMIT);
  const verdict = verifySlackRequest(secret, { timestamp: ctx.get('x-slack-request-timestamp'), signature: ctx.get('x-slack-signature') }, body);
  if (!verdict.ok) {
    app.log.warn({ vendor: 'slack', reason: verdict.reason }, 'slack request refused');
    throw new AppError('unauthorized', 'Invalid Slack request signature');
  }
  return body;
}

/** GET /api/integrations/slack: whether Slack is configured, the URLs to give Slack, and the tenant's workspaces. */
export function presentSlackStatus(app: AppContext, enabled: boolean, connections: Connection[]) {
  const { appUrl, chatSigningSecret } = app.config;
  return {
    enabled,
    requestsAccepted: enabled && chatSigningSecret !== null,
    scopes: BOT_SCOPES,
    commandUrl: `${appUrl}/api/integrations/slack/commands`,
    eventsUrl: `${appUrl}/api/integrations/slack/events`,
    connections: connections.map(presentConnection),
  };
}

export const presentChannel = (c: { id?: string; name?: string }) => ({ id: c.id as string, name: c.name as string });

export function slackRoutes(app: AppContext) {
  const router: ApiRouter = new Router();
  const { db } = app.database;

  router.get('/api/integrations/slack', route(app, { auth: 'required' }, async ({ principal }) => {
    const enabled = app.config.integrations.chat !== null;
    const connections = enabled ? await connectionsOf(db, principal.tenantId, 'slack') : [];
    return { body: { data: presentSlackStatus(app, enabled, connections), meta: {} } };
  }));

  router.get('/api/integrations/slack/connect', route(app, { auth: { policy: 'integration.manage' } }, async ({ principal }) => ({ status: 302, headers: { location: slackAuthorizeUrl(app, principal) } })));

  router.get('/api/integrations/slack/callback', route(app, { auth: { policy: 'integration.manage' }, query: CallbackQuery }, async ({ principal, query }) => {
    requireSlack(app);
    if (query.error || !query.code || !query.state) return { status: 302, headers: { location: settingsUrl(app, query.error === 'access_denied' ? 'denied' : 'failed') } };
    await completeSlackInstall(app, principal, query.code, query.state);
    return { status: 302, headers: { location: settingsUrl(app, 'connected') } };
  }));

  router.post('/api/integrations/slack/commands', route(app, { auth: 'none', limit: 'none' }, async ({ ctx }) => {
    const body = await signedBody(app, ctx);
    const form = SlashCommandForm.safeParse(Object.fromEntries(new URLSearchParams(body.toString('utf8'))));
    if (!form.success) throw new AppError('validation_failed', 'Validation failed', zodDetails(form.error));
    return { body: await receiveSlashCommand(app, form.data) };
  }));

  router.post('/api/integrations/slack/events', route(app, { auth: 'none', limit: 'none' }, async ({ ctx }) => {
    const body = await signedBody(app, ctx);
    let payload: unknown;
    try {
      payload = JSON.parse(body.toString('utf8'));
    } catch {
      throw new AppError('validation_failed', 'Invalid request body', [{ path: 'body', message: 'Body is not valid JSON' }]);
    }
    const answer = await receiveSlackEvent(app, payload);
    if (!answer) throw new AppError('validation_failed', 'Invalid request body', [{ path: 'type', message: 'Not a Slack event' }]);
    return { body: answer };
  }));

  router.get('/api/integrations/slack/connections/:id/channels', route(app, { auth: { policy: 'integration.manage' }, params: ConnectionParams }, async ({ principal, params }) => {
    requireSlack(app);
    const connection = await ownedSlackConnection(app, principal, params.id);
    const client = slackClient(app.config, tokensOf(app.config.oauthEncryptionKey, connection).accessToken);
    try {
      const answer = await client.conversations.list({ types: 'public_channel', exclude_archived: true, limit: 500 });
      const channels = (answer.channels ?? []).map(presentChannel);
      return { body: { data: channels, meta: { page: 1, perPage: channels.length, total: channels.length } } };
    } catch (error) {
      throw new AppError('unavailable', `Slack did not list the channels (${slackErrorCode(error)})`);
    }
  }));

  // One digest channel per team; null stops that team's digest.
  router.put('/api/integrations/slack/connections/:id/digests', route(app, { auth: { policy: 'integration.manage' }, params: ConnectionParams, body: DigestBody }, async ({ principal, params, body }) => {
    requireSlack(app);
    const connection = await ownedSlackConnection(app, principal, params.id);
    return { body: { data: presentConnection(await setDigestChannel(db, principal.tenantId, connection, body.teamId, body.channel)), meta: {} } };
  }));

  router.delete('/api/integrations/slack/connections/:id', route(app, { auth: { policy: 'integration.manage' }, params: ConnectionParams, whenReadOnly: 'allowed' }, async ({ principal, params }) => {
    requireSlack(app);
    const connection = await ownedSlackConnection(app, principal, params.id);
    // Revoked at Slack too, so the bot token dies with the row; an unreachable Slack does not keep it here.
    await slackClient(app.config, tokensOf(app.config.oauthEncryptionKey, connection).accessToken).auth.revoke().catch(() => {});
    await deleteConnection(db, principal.tenantId, connection.id);
    return { status: 204 };
  }));

  return router;
}
