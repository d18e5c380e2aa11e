/**
 * The authorization-code flow with a provider, PKCE S256, `state` and (OpenID Connect) `nonce`:
 * started by `GET /auth/<provider>`, finished by its callback. The values live in a row of
 * `sign_in_flows` found by the hash of a random id the browser holds in a short-lived cookie, so a
 * callback is accepted once, only in the browser that started it, within 10 minutes, on any instance.
 */
import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import * as oidc from 'openid-client';
import type { Db } from '../../db/client.js';
import { signInFlows } from '../../db/schema/index.js';
import { randomToken, safeEqual, sha256 } from '../../auth/secrets.js';
import { ProviderHttpError } from './github.js';
import type { ProviderProfile, SignInProvider } from './provider.js';

export const FLOW_COOKIE = 'signInFlow';
export const FLOW_TTL_MS = 10 * 60_000;

export type SignInMode = 'mcp' | null;

/** Why a sign-in with a provider did not happen; each is explained on /login (src/auth/loginPage.ts). */
export type SignInProblem = 'provider_denied' | 'state_invalid' | 'verification_failed' | 'unverified_email' | 'no_account' | 'provider_unavailable';

export interface FlowContext {
  returnUrl: string;
  mode: SignInMode;
}

export class SignInRefused extends Error {
  constructor(readonly problem: SignInProblem, readonly reason: string) {
    super(`${problem}: ${reason}`);
  }
}

/** Creates the flow and answers where to send the browser and the cookie's value. */
export async function startSignIn(db: Db, provider: SignInProvider, context: FlowContext): Promise<{ location: string; cookieValue: string }> {
  const configuration = await provider.configuration().catch((error: unknown) => {
    throw new SignInRefused('provider_unavailable', `discovery failed: ${describe(error)}`);
  });
  const codeVerifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = provider.openIdConnect ? oidc.randomNonce() : null;
  const cookieValue = randomToken(32);
  // Abandoned flows are removed by later ones; the expiry index keeps this a short range delete.
  await db.delete(signInFlows).where(lt(signInFlows.expiresAt, sql`now() - interval '1 hour'`));
  await db.insert(signInFlows).values({
    cookieHash: sha256(cookieValue),
    provider: provider.id,
    state,
    nonce,
    codeVerifier,
    returnUrl: context.returnUrl,
    mode: context.mode,
    expiresAt: sql`now() + make_interval(secs => ${FLOW_TTL_MS / 1000})`,
  });
  const url = oidc.buildAuthorizationUrl(configuration, {
    redirect_uri: provider.redirectUri,
    scope: provider.scope,
    code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
    state,
    ...(nonce === null ? {} : { nonce }),
  });
  return { location: url.href, cookieValue };
}

/**
 * Consumes the flow of the cookie and finishes it with the provider: the library checks `state`,
 * exchanges the code with the PKCE verifier and validates the ID token (signature through the
 * provider's JWKS, issuer, audience, expiry, nonce). Throws SignInRefused; `context` is the flow's
 * once it was found (where the person was going), else null.
 */
export async function finishSignIn(
  db: Db,
  provider: SignInProvider,
  cookieValue: string | null,
  search: string,
): Promise<{ profile: ProviderProfile; context: FlowContext }> {
  if (cookieValue === null || cookieValue.length < 20 || cookieValue.length > 200) throw new FlowRefused(null, 'state_invalid', 'no flow cookie');
  const [flow] = await db
    .update(signInFlows)
    .set({ usedAt: sql`now()` })
    .where(and(eq(signInFlows.cookieHash, sha256(cookieValue)), eq(signInFlows.provider, provider.id), isNull(signInFlows.usedAt), gt(signInFlows.expiresAt, sql`now()`)))
    .returning();
  if (!flow) throw new FlowRefused(null, 'state_invalid', 'flow unknown, used or expired');
  const context: FlowContext = { returnUrl: flow.returnUrl, mode: flow.mode === 'mcp' ? 'mcp' : null };
  const params = new URLSearchParams(search);
  if (!safeEqual(params.get('state') ?? '', flow.state)) throw new FlowRefused(context, 'state_invalid', 'state does not match the flow');
  try {
    const configuration = await provider.configuration();
    const currentUrl = new URL(provider.redirectUri);
    currentUrl.search = search;
    const tokens = await oidc.authorizationCodeGrant(configuration, currentUrl, {
      pkceCodeVerifier: flow.codeVerifier,
      expectedState: flow.state,
      ...(flow.nonce === null ? {} : { expectedNonce: flow.nonce }),
      idTokenExpected: provider.openIdConnect,
    });
    return { profile: await provider.profile(configuration, tokens), context };
  } catch (error) {
    throw new FlowRefused(context, classify(error), describe(error));
  }
}

/** A refusal that knows where the person was going (null before the flow was found). */
export class FlowRefused extends SignInRefused {
  constructor(readonly context: FlowContext | null, problem: SignInProblem, reason: string) {
    super(problem, reason);
  }
}

function classify(error: unknown): SignInProblem {
  if (error instanceof oidc.AuthorizationResponseError) return 'provider_denied';
  if (unreachable(error)) return 'provider_unavailable';
  const status = error instanceof oidc.ResponseBodyError || error instanceof ProviderHttpError ? error.status : (error as { cause?: unknown })?.cause instanceof Response ? ((error as { cause: Response }).cause.status) : 0;
  if (status >= 500) return 'provider_unavailable';
  return 'verification_failed';
}

function unreachable(error: unknown): boolean {
  for (let e = error as { name?: string; message?: string; code?: string; cause?: unknown } | undefined, depth = 0; e && depth < 4; e = e.cause as typeof e, depth++) {
    if (e.name === 'AbortError' || e.name === 'TimeoutError') return true;
    if (e.name === 'TypeError' && e.message === 'fetch failed') return true;
    if (typeof e.code === 'string' && /^(ECONNREFUSED|ECONNRESET|ENOTFOUND|ETIMEDOUT|EAI_AGAIN|UND_ERR_)/.test(e.code)) return true;
  }
  return false;
}

/** What a log line may say about a failure: the library's error name, code and message (they carry no token, code or claim value). */
export function describe(error: unknown): string {
  if (!(error instanceof Error)) return 'unknown error';
  const code = (error as { code?: unknown }).code;
  const oauthError = error instanceof oidc.AuthorizationResponseError || error instanceof oidc.ResponseBodyError ? ` (${error.error})` : '';
  // The claim that failed a comparison is named (nonce, iss, aud …); its value never is.
  let claim: unknown;
  for (let c = error.cause as { claim?: unknown; cause?: unknown } | undefined, depth = 0; c && typeof c === 'object' && depth < 3 && claim === undefined; c = c.cause as typeof c, depth++) claim = c.claim;
  const which = typeof claim === 'string' ? ` (claim ${claim})` : '';
  return `${error.name}${typeof code === 'string' ? ` ${code}` : ''}: ${error.message}${oauthError}${which}`.slice(0, 300);
}
