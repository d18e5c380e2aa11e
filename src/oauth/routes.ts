/**
 * Our side of the OAuth flow: the consent page and its approve step (with tenant choice), the
 * protected-resource metadata, CORS and rate limits in front of oidc-provider's own endpoints.
 * oidc-provider itself is mounted after every router (src/app.ts).
 */
import Router from '@koa/router';
import type Koa from 'koa';
import type { Interaction } from './oidc.js';
import { permissionsOf, type Role } from '../auth/principal.js';
import { readCookie, resolveSession, SESSION_COOKIE, sessionCookie, type ResolvedSession } from '../auth/sessions.js';
import type { AppContext } from '../context.js';
import { DEFAULT_DEVICE_POLL_INTERVAL_SECONDS } from '../config/runtime.js';
import { readBody } from '../http/body.js';
import { consume, headersOf, type Limit } from '../http/rateLimit.js';
import {
  APPROVE_PATH, AUTHORIZE_PATH, DEVICE_AUTHORIZATION_PATH, MCP_SCOPE, mcpResource, PRM_PATH, REFRESH_TOKEN_TTL, REGISTER_PATH, TOKEN_PATH,
} from './constants.js';
import { CONSENT_PAGE, renderConsentPage, renderMessagePage } from './consentPage.js';
import { sendPage } from '../http/html.js';
import { csrfToken, csrfValid, oauthKeys } from '../auth/crypto.js';
import { recordGrant, roleIn, tenantsOfUser } from './grants.js';
import { CLIENT_DESCRIPTION, providerFor } from './provider.js';
import { exchangeForApiKey } from './deviceKeyExchange.js';
import { isUuid } from '../shared/schemas.js';

/**
 * Per client address, counted across instances (docs/mcp.md): a whole consent takes 3 to 4
 * authorize requests, a client refreshes once an hour, registers once.
 */
export const OAUTH_LIMITS = {
  authorize: { name: 'oauth-authz', points: 60, durationSeconds: 60 },
  token: { name: 'oauth-token', points: 60, durationSeconds: 60 },
  register: { name: 'oauth-reg', points: 30, durationSeconds: 3600 },
  /** Starting a CLI login: a person does it a few times a day, never by the minute. */
  device: { name: 'oauth-device', points: 30, durationSeconds: 3600 },
} satisfies Record<string, Limit>;

const UID = /^[A-Za-z0-9_-]{10,64}$/;
const OIDC_SCOPES = new Set(['openid', 'offline_access', MCP_SCOPE]);
const LOGIN_REDIRECT = `/login?mode=mcp&returnUrl=${encodeURIComponent(AUTHORIZE_PATH)}`;

export async function limit(app: AppContext, ctx: Koa.Context, which: keyof typeof OAUTH_LIMITS): Promise<void> {
  const state = await consume(app, `ip:${ctx.ip}`, [OAUTH_LIMITS[which]]);
  ctx.set(headersOf(state));
}

function openCors(ctx: Koa.Context, methods: string): void {
  ctx.set('Access-Control-Allow-Origin', '*');
  ctx.set('Access-Control-Allow-Methods', methods);
  ctx.set('Access-Control-Allow-Headers', 'Content-Type, Authorization, Mcp-Protocol-Version');
  ctx.set('Access-Control-Max-Age', '3600');
}

/** Drops oidc-provider's own `_session` cookie: our `sessionId` alone decides who is signed in. */
function stripProviderSession(ctx: Koa.Context): void {
  const cookie = ctx.req.headers.cookie;
  if (!cookie) return;
  const kept = cookie.split(';').filter((part) => !/^\s*_session(\.legacy)?(\.sig)?=/.test(part));
  if (kept.length === 0) delete ctx.req.headers.cookie;
  else ctx.req.headers.cookie = kept.join(';');
}

/** The browser's login session (our `sessionId` cookie), rotating it when due. */
/**
 * The opening of an approval form post (consent, CLI login): rate-limited, refused from another
 * origin with a page, then its fields. Null when the refusal page was sent.
 */
export async function readApprovalForm(app: AppContext, ctx: Koa.Context): Promise<Record<string, string> | null> {
  await limit(app, ctx, 'authorize');
  const origin = ctx.get('origin');
  if (origin && origin !== new URL(app.config.appUrl).origin) {
    sendPage(ctx, 403, renderMessagePage('Forbidden', 'This form can only be sent from this site.'), CONSENT_PAGE);
    return null;
  }
  return (await readBody(ctx, 'form', 16 * 1024)) as Record<string, string>;
}

export async function sessionOf(app: AppContext, ctx: Koa.Context): Promise<ResolvedSession | null> {
  const token = readCookie(ctx.get('cookie'), SESSION_COOKIE);
  if (token === null) return null;
  const resolved = await resolveSession(app.database.db, token, app.config.oauthEncryptionKey);
  if (resolved?.newToken) ctx.append('Set-Cookie', sessionCookie(resolved.newToken, resolved.absoluteExpiresAt, app.config.production));
  return resolved;
}

async function interactionOf(app: AppContext, ctx: Koa.Context): Promise<Interaction | null> {
  try {
    return await providerFor(app).interactionDetails(ctx.req, ctx.res);
  } catch {
    return null;
  }
}

const expired = (ctx: Koa.Context) =>
  sendPage(ctx, 400, renderMessagePage('Authorization request expired', 'This authorization request has expired, was already used, or was started in another browser. Start again from your MCP client.'), CONSENT_PAGE);

export function oauthRoutes(app: AppContext): Router {
  const router = new Router();
  const { config } = app;
  const { db } = app.database;
  const keys = oauthKeys(config.oauthEncryptionKey);
  const resource = mcpResource(config.appUrl);

  // RFC 9728. Served at the root and at the path-specific address of the /mcp resource.
  const prm = (ctx: Koa.Context) => {
    openCors(ctx, 'GET, OPTIONS');
    ctx.set('Cache-Control', 'public, max-age=3600');
    ctx.body = {
      resource,
      authorization_servers: [config.appUrl],
      scopes_supported: [MCP_SCOPE],
      bearer_methods_supported: ['header'],
      resource_name: 'Delivery analytics MCP',
    };
  };
  for (const path of [PRM_PATH, `${PRM_PATH}/mcp`]) {
    router.get(path, prm);
    router.options(path, (ctx) => {
      openCors(ctx, 'GET, OPTIONS');
      ctx.status = 204;
    });
  }

  // oidc-provider answers no CORS on registration; browser-based clients need it.
  router.options(REGISTER_PATH, (ctx) => {
    openCors(ctx, 'POST, OPTIONS');
    ctx.status = 204;
  });
  router.post(REGISTER_PATH, async (ctx, next) => {
    await limit(app, ctx, 'register');
    openCors(ctx, 'POST, OPTIONS');
    await next();
  });
  router.post(TOKEN_PATH, async (ctx, next) => {
    await limit(app, ctx, 'token');
    await next();
    // A CLI login's device code has just been exchanged: the CLI receives an API key instead.
    await exchangeForApiKey(app, ctx);
  });
  router.post(DEVICE_AUTHORIZATION_PATH, async (ctx, next) => {
    await limit(app, ctx, 'device');
    await next();
    // Without `interval` the CLI polls every 5 s (RFC 8628 §3.2); another configured interval is named.
    const interval = app.config.cliLogin.pollIntervalSeconds;
    if (interval !== DEFAULT_DEVICE_POLL_INTERVAL_SECONDS && ctx.status === 200 && ctx.body !== null && typeof ctx.body === 'object') {
      ctx.body = { ...(ctx.body as Record<string, unknown>), interval };
    }
  });

  // oidc-provider's resume step: a fresh provider session, whoever used this browser before.
  router.get(`${AUTHORIZE_PATH}/:uid`, async (ctx, next) => {
    stripProviderSession(ctx);
    await next();
  });

  router.get(AUTHORIZE_PATH, async (ctx, next) => {
    await limit(app, ctx, 'authorize');
    const uid = typeof ctx.query.interaction === 'string' ? ctx.query.interaction : null;
    // A fresh authorization request goes to oidc-provider, which parses and validates it, stores
    // it as an Interaction (10 minutes, signed cookie) and redirects back here with its uid.
    if (uid === null && ctx.query.client_id !== undefined) {
      stripProviderSession(ctx);
      // The only resource scope is implied by asking for /mcp at all; clients that send no scope
      // (or only openid) would otherwise get a token without it.
      const params = new URLSearchParams(ctx.querystring);
      const scopes = new Set((params.get('scope') ?? '').split(' ').filter(Boolean));
      if (!scopes.has(MCP_SCOPE)) {
        params.set('scope', [...scopes, MCP_SCOPE].join(' '));
        ctx.querystring = params.toString();
      }
      return next();
    }
    const interaction = await interactionOf(app, ctx);
    if (!interaction || (uid !== null && (!UID.test(uid) || uid !== interaction.uid))) return expired(ctx);

    const session = await sessionOf(app, ctx);
    // The login page sends the user back to /mcp/authorize, where the cookie finds this request again.
    if (!session) return ctx.redirect(LOGIN_REDIRECT);

    const tenants = await tenantsOfUser(db, session.principal.userId);
    if (tenants.length === 0) return sendPage(ctx, 403, renderMessagePage('No tenant', 'Your account is not a member of any tenant.'), CONSENT_PAGE);
    const client = await providerFor(app).Client.find(String(interaction.params.client_id));
    if (!client) return expired(ctx);
    const metadata = client.metadata() as Record<string, unknown>;
    const redirect = URL.parse(String(interaction.params.redirect_uri));
    sendPage(
      ctx,
      200,
      renderConsentPage({
        clientName: client.clientName ?? client.clientId,
        clientDescription: typeof metadata[CLIENT_DESCRIPTION] === 'string' ? (metadata[CLIENT_DESCRIPTION] as string) : null,
        clientUri: typeof metadata.client_uri === 'string' ? metadata.client_uri : null,
        redirectTarget: redirect ? (redirect.host ? `${redirect.protocol}//${redirect.host}` : redirect.protocol) : 'the client',
        tenants,
        interactionUid: interaction.uid,
        csrfToken: csrfToken(keys.csrf, session.principal.sessionId as string, interaction.uid),
      }),
      CONSENT_PAGE,
    );
  });

  /** Step 1 of an approval: the refusal page to send, or the signed-in session and its interaction. */
  async function checkApproval(ctx: Koa.Context, form: Record<string, string>) {
    const session = await sessionOf(app, ctx);
    if (!session) return { refusal: [401, renderMessagePage('Signed out', 'Sign in again, then start again from your MCP client.')] as const };
    const interaction = await interactionOf(app, ctx);
    if (!interaction) return { expired: true as const };
    if (form.interaction !== interaction.uid) {
      return { refusal: [409, renderMessagePage('Another authorization is in progress', 'This page belongs to an older authorization request. Start again from your MCP client.')] as const };
    }
    if (!csrfValid(keys.csrf, session.principal.sessionId as string, interaction.uid, form.csrf)) {
      return { refusal: [403, renderMessagePage('Forbidden', 'The form token is missing or invalid. Reload the page and try again.')] as const };
    }
    return { session, interaction };
  }

  /** Step 2: the grant the user approved, for the tenant chosen (a member's), stored with its permissions. */
  async function grantFor(interaction: Interaction, userId: string, tenantId: string, role: Role): Promise<string> {
    const provider = providerFor(app);
    const clientId = String(interaction.params.client_id);
    const requested = String(interaction.params.scope ?? '').split(' ').filter((s) => OIDC_SCOPES.has(s));
    const grant = new provider.Grant({ accountId: userId, clientId });
    grant.addOIDCScope([...new Set([...requested, MCP_SCOPE])].join(' '));
    grant.addResourceScope(resource, MCP_SCOPE);
    const grantId = await grant.save();
    await recordGrant(db, { grantId, tenantId, userId, clientId, permissions: permissionsOf(role), expiresAt: new Date(Date.now() + REFRESH_TOKEN_TTL * 1000) });
    return grantId;
  }

  router.post(APPROVE_PATH, async (ctx) => {
    const form = await readApprovalForm(app, ctx);
    if (!form) return;
    const checked = await checkApproval(ctx, form);
    if ('expired' in checked) return expired(ctx);
    if (checked.refusal) return sendPage(ctx, checked.refusal[0], checked.refusal[1], CONSENT_PAGE);
    const { session, interaction } = checked;

    const provider = providerFor(app);
    let result: Parameters<typeof provider.interactionFinished>[2];
    if (form.action === 'deny') {
      result = { error: 'access_denied', error_description: 'the user cancelled the authorization' };
    } else {
      const userId = session.principal.userId;
      const tenantId = form.tenantId ?? '';
      const role = isUuid(tenantId) ? await roleIn(db, tenantId, userId) : null;
      if (!role) return sendPage(ctx, 403, renderMessagePage('Forbidden', 'You are not a member of that tenant.'), CONSENT_PAGE);
      result = { login: { accountId: userId }, consent: { grantId: await grantFor(interaction, userId, tenantId, role) } };
    }
    await provider.interactionFinished(ctx.req, ctx.res, result, { mergeWithLastSubmission: false });
    ctx.respond = false;
  });

  return router;
}

/** Where the consent flow sends a user without a session. */
export const loginRedirect = LOGIN_REDIRECT;
