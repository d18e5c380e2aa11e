/**
 * A real OpenID Connect identity provider on loopback for the sign-in tests: `oidc-provider` itself,
 * configured as Google, GitLab or Microsoft would be (discovery, authorization code with PKCE
 * required and checked, signed ID tokens through its JWKS). Whoever "signs in at the provider" is
 * set by the test (`fake.as(accountId)` or `fake.deny()`); an account's claims decide
 * `email_verified`, `xms_edov` and so on. It listens on 127.0.0.2 so its cookies never mix with the
 * app's on 127.0.0.1 in a real browser.
 */
import { generateKeyPairSync } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type Configuration } from 'oidc-provider';

export const FAKE_HOST = '127.0.0.2';

export interface FakeOidc {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Adds or replaces an account at the provider; `claims` become the ID token's (sub is the id). */
  account(id: string, claims: Record<string, unknown>): void;
  /** The next sign-ins at the provider are this account's (null: the person cancels, access_denied). */
  as(id: string): void;
  deny(): void;
  /** Sends this nonce instead of the client's (the answer of another flow). */
  nonceOverride: string | null;
  /** The query of every authorization request received. */
  authorizations: URLSearchParams[];
  close(): Promise<void>;
}

export async function fakeOidc(options: { redirectUris: string[]; clientId?: string; clientSecret?: string }): Promise<FakeOidc> {
  const accounts = new Map<string, Record<string, unknown>>();
  let current: string | null = null;
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, FAKE_HOST, resolve));
  const issuer = `http://${FAKE_HOST}:${(server.address() as AddressInfo).port}`;
  const clientId = options.clientId ?? 'fake-client-id';
  const clientSecret = options.clientSecret ?? 'fake-client-secret-0123456789abcdef';
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });

  const configuration: Configuration = {
    clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: options.redirectUris, response_types: ['code'], grant_types: ['authorization_code'], token_endpoint_auth_method: 'client_secret_post' }],
    jwks: { keys: [{ ...(privateKey.export({ format: 'jwk' }) as object), kid: 'fake-key', alg: 'RS256', use: 'sig' } as never] },
    cookies: { keys: ['fake-idp-cookie-key'] },
    pkce: { required: () => true },
    features: { devInteractions: { enabled: false } },
    scopes: ['openid', 'email', 'profile'],
    claims: { openid: ['sub'], email: ['email', 'email_verified', 'xms_edov'], profile: ['name', 'nickname', 'preferred_username'] },
    // As Google and Entra do: the scope's claims are in the ID token itself.
    conformIdTokenClaims: false,
    findAccount: (_ctx, sub) => (accounts.has(sub) ? { accountId: sub, claims: () => ({ sub, ...accounts.get(sub) }) } : undefined),
    ttl: { Interaction: 600, Grant: 600, Session: 600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    loadExistingGrant: async (ctx) => {
      const grantId = ctx.oidc.result?.consent?.grantId;
      return grantId ? ctx.oidc.provider.Grant.find(grantId) : undefined;
    },
  };
  const provider = new Provider(issuer, configuration);
  const fake: FakeOidc = {
    issuer,
    clientId,
    clientSecret,
    account: (id, claims) => void accounts.set(id, claims),
    as: (id) => void (current = id),
    deny: () => void (current = null),
    nonceOverride: null,
    authorizations: [],
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };

  provider.use(async (ctx, next) => {
    if (ctx.path === '/auth' && ctx.query.client_id !== undefined) {
      fake.authorizations.push(new URLSearchParams(ctx.querystring));
      if (fake.nonceOverride !== null) {
        const params = new URLSearchParams(ctx.querystring);
        params.set('nonce', fake.nonceOverride);
        ctx.querystring = params.toString();
      }
    }
    const interaction = /^\/interaction\/([^/]+)$/.exec(ctx.path);
    if (!interaction) return next();
    // The person at the provider: signs in as the current account and consents, or cancels.
    const details = await provider.interactionDetails(ctx.req, ctx.res);
    if (current === null) {
      await provider.interactionFinished(ctx.req, ctx.res, { error: 'access_denied', error_description: 'The person cancelled the sign-in' }, { mergeWithLastSubmission: false });
    } else {
      const grant = new provider.Grant({ accountId: current, clientId: String(details.params.client_id) });
      grant.addOIDCScope(String(details.params.scope));
      const grantId = await grant.save();
      await provider.interactionFinished(ctx.req, ctx.res, { login: { accountId: current }, consent: { grantId } }, { mergeWithLastSubmission: false });
    }
    ctx.respond = false;
  });
  server.on('request', provider.callback());
  return fake;
}
