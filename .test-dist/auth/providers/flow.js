import { and, eq, gt, isNull, lt, sql } from "drizzle-orm";
import * as oidc from "openid-client";
import { signInFlows } from "../../db/schema/index.js";
import { randomToken, safeEqual, sha256 } from "../secrets.js";
import { ProviderHttpError } from "./github.js";
const FLOW_COOKIE = "signInFlow";
const FLOW_TTL_MS = 10 * 6e4;
class SignInRefused extends Error {
  constructor(problem, reason) {
    super(`${problem}: ${reason}`);
    this.problem = problem;
    this.reason = reason;
  }
  problem;
  reason;
}
async function startSignIn(db, provider, context) {
  const configuration = await provider.configuration().catch((error) => {
    throw new SignInRefused("provider_unavailable", `discovery failed: ${describe(error)}`);
  });
  const codeVerifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = provider.openIdConnect ? oidc.randomNonce() : null;
  const cookieValue = randomToken(32);
  await db.delete(signInFlows).where(lt(signInFlows.expiresAt, sql`now() - interval '1 hour'`));
  await db.insert(signInFlows).values({
    cookieHash: sha256(cookieValue),
    provider: provider.id,
    state,
    nonce,
    codeVerifier,
    returnUrl: context.returnUrl,
    mode: context.mode,
    expiresAt: sql`now() + make_interval(secs => ${FLOW_TTL_MS / 1e3})`
  });
  const url = oidc.buildAuthorizationUrl(configuration, {
    redirect_uri: provider.redirectUri,
    scope: provider.scope,
    code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: "S256",
    state,
    ...nonce === null ? {} : { nonce }
  });
  return { location: url.href, cookieValue };
}
async function finishSignIn(db, provider, cookieValue, search) {
  if (cookieValue === null || cookieValue.length < 20 || cookieValue.length > 200) throw new FlowRefused(null, "state_invalid", "no flow cookie");
  const [flow] = await db.update(signInFlows).set({ usedAt: sql`now()` }).where(and(eq(signInFlows.cookieHash, sha256(cookieValue)), eq(signInFlows.provider, provider.id), isNull(signInFlows.usedAt), gt(signInFlows.expiresAt, sql`now()`))).returning();
  if (!flow) throw new FlowRefused(null, "state_invalid", "flow unknown, used or expired");
  const context = { returnUrl: flow.returnUrl, mode: flow.mode === "mcp" ? "mcp" : null };
  const params = new URLSearchParams(search);
  if (!safeEqual(params.get("state") ?? "", flow.state)) throw new FlowRefused(context, "state_invalid", "state does not match the flow");
  try {
    const configuration = await provider.configuration();
    const currentUrl = new URL(provider.redirectUri);
    currentUrl.search = search;
    const tokens = await oidc.authorizationCodeGrant(configuration, currentUrl, {
      pkceCodeVerifier: flow.codeVerifier,
      expectedState: flow.state,
      ...flow.nonce === null ? {} : { expectedNonce: flow.nonce },
      idTokenExpected: provider.openIdConnect
    });
    return { profile: await provider.profile(configuration, tokens), context };
  } catch (error) {
    throw new FlowRefused(context, classify(error), describe(error));
  }
}
class FlowRefused extends SignInRefused {
  constructor(context, problem, reason) {
    super(problem, reason);
    this.context = context;
  }
  context;
}
function classify(error) {
  if (error instanceof oidc.AuthorizationResponseError) return "provider_denied";
  if (unreachable(error)) return "provider_unavailable";
  const status = error instanceof oidc.ResponseBodyError || error instanceof ProviderHttpError ? error.status : error?.cause instanceof Response ? error.cause.status : 0;
  if (status >= 500) return "provider_unavailable";
  return "verification_failed";
}
function unreachable(error) {
  for (let e = error, depth = 0; e && depth < 4; e = e.cause, depth++) {
    if (e.name === "AbortError" || e.name === "TimeoutError") return true;
    if (e.name === "TypeError" && e.message === "fetch failed") return true;
    if (typeof e.code === "string" && /^(ECONNREFUSED|ECONNRESET|ENOTFOUND|ETIMEDOUT|EAI_AGAIN|UND_ERR_)/.test(e.code)) return true;
  }
  return false;
}
function describe(error) {
  if (!(error instanceof Error)) return "unknown error";
  const code = error.code;
  const oauthError = error instanceof oidc.AuthorizationResponseError || error instanceof oidc.ResponseBodyError ? ` (${error.error})` : "";
  let claim;
  for (let c = error.cause, depth = 0; c && typeof c === "object" && depth < 3 && claim === void 0; c = c.cause, depth++) claim = c.claim;
  const which = typeof claim === "string" ? ` (claim ${claim})` : "";
  return `${error.name}${typeof code === "string" ? ` ${code}` : ""}: ${error.message}${oauthError}${which}`.slice(0, 300);
}
export {
  FLOW_COOKIE,
  FLOW_TTL_MS,
  FlowRefused,
  SignInRefused,
  describe,
  finishSignIn,
  startSignIn
};
