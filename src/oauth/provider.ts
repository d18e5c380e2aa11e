/**
 * The OAuth 2.1 authorization server for MCP clients: oidc-provider, configured so that its
 * defaults cannot silently break an MCP client (see ../shared/notes/mcp-oauth.md and docs/mcp.md).
 */
import { asSystem } from '../db/tenancy.js';
import { createPrivateKey } from 'node:crypto';
import { errors, interactionPolicy, Provider, type Configuration, type KoaContextWithOIDC } from './oidc.js';
import type { AppContext } from '../context.js';
import { html } from '../http/html.js';
import { postgresAdapter } from './adapter.js';
import {
  ACCESS_TOKEN_TTL, AUTHORIZE_PATH, CLI_CLIENT_ID, CLI_LOGIN_PATH, CLI_SCOPE, cliResource, DEVICE_AUTHORIZATION_PATH, DEVICE_CODE_TTL,
  DEVICE_GRANT_TYPE, INTERACTION_TTL, MCP_SCOPE, mcpResource, REFRESH_TOKEN_TTL, REGISTER_PATH, TOKEN_PATH,
} from './constants.js';
import { oauthKeys } from '../auth/crypto.js';
import { propsOfGrant } from './grants.js';

const { Check } = interactionPolicy;
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);
/** Schemes no redirect may use, whatever the client type. */
const FORBIDDEN_SCHEMES = new Set(['javascript:', 'vbscript:', 'data:', 'blob:', 'file:', 'about:', 'ftp:', 'ws:', 'wss:', 'mailto:']);
/** Our own extension of the registration metadata: shown on the consent page. */
export const CLIENT_DESCRIPTION = 'client_description';
/** Sent by the CLI with its device authorization request: the name of the key it will receive. */
export const MACHINE_NAME = 'machine_name';
/** A host name as a person would recognise it; no control characters (it is shown and stored as a key name). */
export const MACHINE_NAME_PATTERN = /^[^\p{Cc}\p{Cf}]{1,100}$/u;

/**
 * Our command-line client: public (it runs on people's machines and keeps no secret), device
 * authorization grant only, so it never has a redirect URI or a refresh token.
 */
const CLI_CLIENT = {
  client_id: CLI_CLIENT_ID,
  client_name: 'delivery-analytics CLI',
  application_type: 'native',
  grant_types: [DEVICE_GRANT_TYPE],
  response_types: [],
  redirect_uris: [],
  token_endpoint_auth_method: 'none',
} as const;

const providers = new WeakMap<AppContext, Provider>();

/** One provider per process (per AppContext): built lazily, shared by the mount and the routes. */
export function providerFor(app: AppContext): Provider {
  let provider = providers.get(app);
  if (!provider) providers.set(app, (provider = createProvider(app)));
  return provider;
}

/**
 * An Ed25519 signing key derived from OAUTH_ENCRYPTION_KEY: every instance signs ID tokens (only
 * issued when a client asks for `openid`) with the same key, with nothing extra to configure.
 */
function signingJwk(seed: Buffer) {
  const der = Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), seed]);
  const jwk = createPrivateKey({ key: der, format: 'der', type: 'pkcs8' }).export({ format: 'jwk' });
  return { ...jwk, use: 'sig', alg: 'EdDSA' };
}

/**
 * Redirect-URI policy of dynamic registration (docs/mcp.md): https anywhere; http only on a
 * loopback host; a private-use scheme (cursor://, vscode://) makes the client a native app
 * (RFC 8252), never one of the dangerous schemes.
 */
function checkRedirectUris(metadata: Record<string, unknown>): void {
  // Only our own CLI may ask users for a device approval: a registered client never gets that grant.
  if (metadata.client_id !== CLI_CLIENT_ID && Array.isArray(metadata.grant_types) && metadata.grant_types.includes(DEVICE_GRANT_TYPE)) {
    throw new errors.InvalidClientMetadata('the device authorization grant is reserved for the delivery-analytics CLI');
  }
  const uris = Array.isArray(metadata.redirect_uris) ? (metadata.redirect_uris as unknown[]) : [];
  let custom = false;
  for (const raw of uris) {
    const url = typeof raw === 'string' ? URL.parse(raw) : null;
    if (!url) throw new errors.InvalidRedirectUri('redirect_uris must only contain valid URIs');
    if (url.protocol === 'https:') continue;
    if (url.protocol === 'http:') {
      if (!LOOPBACK_HOSTS.has(url.hostname)) throw new errors.InvalidRedirectUri('http redirect URIs are only allowed on a loopback host (127.0.0.1, [::1], localhost)');
      continue;
    }
    if (FORBIDDEN_SCHEMES.has(url.protocol)) throw new errors.InvalidRedirectUri(`redirect URIs must not use the ${url.protocol.slice(0, -1)} scheme`);
    custom = true;
  }
  if (custom) metadata.application_type = 'native';
}

function createProvider(app: AppContext): Provider {
  const { config } = app;
  const { db } = app.database;
  const keys = oauthKeys(config.oauthEncryptionKey);
  const resource = mcpResource(config.appUrl);
  const cliTokenResource = cliResource(config.appUrl);

  const policy = interactionPolicy.base();
  // Our consent (with its tenant choice) is always shown: only an approve of ours carries a grantId.
  policy.get('consent')!.checks.push(
    new Check('mcp_tenant_choice', 'the user must choose a tenant', 'consent_required', (ctx) =>
      ctx.oidc.result?.consent?.grantId ? Check.NO_NEED_TO_PROMPT : Check.REQUEST_PROMPT,
    ),
  );

  const configuration: Configuration = {
    adapter: postgresAdapter(db, keys.storage),
    jwks: { keys: [signingJwk(keys.storage) as never] },
    clients: [CLI_CLIENT as never],
    cookies: {
      keys: keys.cookies,
      long: { httpOnly: true, sameSite: 'lax', secure: config.production },
      short: { httpOnly: true, sameSite: 'lax', secure: config.production },
    },
    routes: {
      authorization: AUTHORIZE_PATH,
      token: TOKEN_PATH,
      registration: REGISTER_PATH,
      revocation: '/oauth/revoke',
      jwks: '/oauth/jwks',
      end_session: '/oauth/session/end',
      device_authorization: DEVICE_AUTHORIZATION_PATH,
      code_verification: CLI_LOGIN_PATH,
    },
    scopes: ['openid', 'offline_access', MCP_SCOPE, CLI_SCOPE],
    extraParams: {
      [MACHINE_NAME](_ctx, value) {
        if (value !== undefined && (typeof value !== 'string' || !MACHINE_NAME_PATTERN.test(value))) {
          throw new errors.InvalidRequest(`${MACHINE_NAME} must be 1 to 100 characters without control characters`);
        }
      },
    },
    claims: { openid: ['sub'] },
    responseTypes: ['code'],
    clientAuthMethods: ['none', 'client_secret_basic', 'client_secret_post'],
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      id_token_signed_response_alg: 'EdDSA',
    },
    enabledJWA: { idTokenSigningAlgValues: ['EdDSA'] },
    pkce: { required: () => true },
    extraClientMetadata: {
      properties: [CLIENT_DESCRIPTION],
      validator(_ctx, key, value, metadata) {
        if (key !== CLIENT_DESCRIPTION) return;
        if (value !== undefined && (typeof value !== 'string' || value.length > 500)) {
          throw new errors.InvalidClientMetadata(`${CLIENT_DESCRIPTION} must be a string of at most 500 characters`);
        }
        checkRedirectUris(metadata as Record<string, unknown>);
      },
    },
    features: {
      devInteractions: { enabled: false },
      dPoP: { enabled: false },
      userinfo: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      introspection: { enabled: false },
      pushedAuthorizationRequests: { enabled: false },
      registration: { enabled: true, initialAccessToken: false, issueRegistrationAccessToken: false },
      // The CLI login. The provider owns device and user codes, polling answers and expiry; the
      // approval page is ours (src/cliLogin/), so the provider's own verification pages are never
      // reached (src/cliLogin/routes.ts answers every path under CLI_LOGIN_PATH).
      deviceFlow: { enabled: true, charset: 'base-20', mask: '****-****' },
      revocation: { enabled: true, allowedPolicy: async (ctx, client, token) => token.clientId === client.clientId },
      resourceIndicators: {
        enabled: true,
        // Several MCP clients omit `resource`: without a default, the scope is dropped and the token unbound.
        defaultResource: (_ctx, client) => (client?.clientId === CLI_CLIENT_ID ? cliTokenResource : resource),
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, indicator, client) => {
          if (client.clientId === CLI_CLIENT_ID) {
            if (indicator !== cliTokenResource) throw new errors.InvalidTarget('the CLI login only issues API keys');
            // Destroyed the moment it is issued (src/oauth/deviceKeyExchange.ts): it never leaves the server.
            return { scope: CLI_SCOPE, audience: cliTokenResource, accessTokenTTL: 60, accessTokenFormat: 'opaque' };
          }
          if (indicator !== resource) throw new errors.InvalidTarget('unknown resource: the only resource of this server is its /mcp endpoint');
          return { scope: MCP_SCOPE, audience: resource, accessTokenTTL: ACCESS_TOKEN_TTL, accessTokenFormat: 'opaque' };
        },
      },
    },
    ttl: {
      AccessToken: ACCESS_TOKEN_TTL,
      AuthorizationCode: 60,
      DeviceCode: DEVICE_CODE_TTL,
      Interaction: INTERACTION_TTL,
      // Only carries the login from approve to the resume redirect; our `sessionId` is the authority.
      Session: INTERACTION_TTL,
      Grant: REFRESH_TOKEN_TTL,
      // A rotated refresh token keeps the remaining lifetime: a consent lasts 30 days, like its grant.
      RefreshToken: (ctx: KoaContextWithOIDC) => ctx?.oidc?.entities.RotatedRefreshToken?.remainingTTL ?? REFRESH_TOKEN_TTL,
      IdToken: ACCESS_TOKEN_TTL,
    },
    expiresWithSession: () => false,
    issueRefreshToken: (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: true,
    loadExistingGrant: async (ctx) => {
      const grantId = ctx.oidc.result?.consent?.grantId;
      return grantId ? ctx.oidc.provider.Grant.find(grantId) : undefined;
    },
    interactions: {
      policy,
      url: (_ctx, interaction) => `${AUTHORIZE_PATH}?interaction=${interaction.uid}`,
    },
    findAccount: (_ctx, sub) => ({ accountId: sub, claims: () => ({ sub }) }),
    extraTokenClaims: async (_ctx, token) => {
      const grantId = (token as { grantId?: string }).grantId;
      // Issuing a token finds the tenant of its grant: no tenant is known yet.
      const props = grantId ? await asSystem('authentication', () => propsOfGrant(db, grantId)) : null;
      if (!props) throw new errors.InvalidGrant('the user is no longer a member of the tenant chosen at consent');
      return { ...props };
    },
    // Public clients in a browser may call the token endpoint from their redirect URI's origin.
    clientBasedCORS: (_ctx, origin, client) => (client.redirectUris ?? []).some((uri) => URL.parse(uri)?.origin === origin),
    renderError: async (ctx, out) => {
      ctx.type = 'html';
      const rows = Object.entries(out).map(([k, v]) => html`<p><strong>${k}</strong>: ${String(v)}</p>`);
      ctx.body = html`<!doctype html><html><head><meta charset="utf-8"><title>Authorization failed</title></head><body><h1>Authorization failed</h1>${rows}</body></html>`.value;
    },
  };

  const provider = new Provider(config.appUrl, configuration);
  // Behind the load balancer the public scheme comes from X-Forwarded-Proto.
  provider.proxy = true;
  return provider;
}
