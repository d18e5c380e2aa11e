import Router from "@koa/router";
import { z } from "zod";
import { loginUrl } from "../routes.js";
import { route } from "../../http/route.js";
import { AppError } from "../../errors.js";
import { safeReturnUrl } from "../returnUrl.js";
import { endSession, readCookie, SESSION_COOKIE, sessionCookie, createSession } from "../sessions.js";
import { emailSignInAvailable } from "../../mail/mailer.js";
import { listMyIdentities, presentIdentity, removeMyIdentity } from "./identities.js";
import { accountForProfile, recordCodehostUsername } from "./accounts.js";
import { finishSignIn, FLOW_COOKIE, FLOW_TTL_MS, FlowRefused, SignInRefused, startSignIn } from "./flow.js";
import { signInProviders } from "./registry.js";
import { Uuid } from "../../shared/schemas.js";
const optionalString = z.string().optional().catch(void 0);
const StartQuery = z.object({ returnUrl: optionalString, mode: optionalString });
const IdentityParams = z.object({ id: Uuid }).catch({ id: "00000000-0000-0000-0000-000000000000" });
const ProviderParams = z.object({ provider: z.string().max(40) });
function flowCookie(value, secure) {
  return `${FLOW_COOKIE}=${value}; Path=/auth; Max-Age=${FLOW_TTL_MS / 1e3}; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;
}
const clearedFlowCookie = (secure) => `${FLOW_COOKIE}=; Path=/auth; Max-Age=0; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;
const backToLogin = (problem, context) => loginUrl({ error: problem, mode: context?.mode ?? null, returnUrl: context && context.returnUrl !== "/" ? context.returnUrl : null });
function signInProviderRoutes(app) {
  const router = new Router();
  const { config, log } = app;
  const { db } = app.database;
  const secure = config.production;
  function providerOf(id) {
    const provider = signInProviders(config).get(id);
    if (!provider) throw new AppError("not_found", "No such sign-in provider");
    return provider;
  }
  router.get("/auth/:provider", route(app, { system: "authentication", auth: "none", params: ProviderParams, query: StartQuery }, async ({ ctx, params, query }) => {
    const provider = providerOf(params.provider);
    ctx.set({ "Cache-Control": "no-store" });
    const context = { returnUrl: safeReturnUrl(query.returnUrl), mode: query.mode === "mcp" ? "mcp" : null };
    try {
      const { location, cookieValue } = await startSignIn(db, provider, context);
      ctx.append("Set-Cookie", flowCookie(cookieValue, secure));
      return { status: 303, headers: { Location: location } };
    } catch (error) {
      if (!(error instanceof SignInRefused)) throw error;
      log.warn({ provider: provider.id, problem: error.problem, reason: error.reason }, "sign-in with provider not started");
      return { status: 303, headers: { Location: backToLogin(error.problem, context) } };
    }
  }));
  router.get("/auth/:provider/callback", route(app, { system: "authentication", auth: "none", params: ProviderParams }, async ({ ctx, params }) => {
    const provider = providerOf(params.provider);
    ctx.set({ "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" });
    ctx.append("Set-Cookie", clearedFlowCookie(secure));
    let context = null;
    try {
      const finished = await finishSignIn(db, provider, readCookie(ctx.get("cookie"), FLOW_COOKIE), ctx.querystring);
      context = finished.context;
      const account = await accountForProfile(db, provider.id, finished.profile);
      const persons = provider.codeHost ? await recordCodehostUsername(db, account.userId, finished.profile) : 0;
      const previous = readCookie(ctx.get("cookie"), SESSION_COOKIE);
      if (previous) await endSession(db, previous);
      const session = await createSession(db, account.userId, account.tenantId);
      ctx.append("Set-Cookie", sessionCookie(session.token, session.absoluteExpiresAt, secure));
      log.info({ provider: provider.id, userId: account.userId, linked: account.linked, personIdentitiesAdded: persons }, "signed in with provider");
      return { status: 303, headers: { Location: safeReturnUrl(context.returnUrl) } };
    } catch (error) {
      if (!(error instanceof SignInRefused)) throw error;
      if (error instanceof FlowRefused) context = error.context;
      log.warn({ provider: provider.id, problem: error.problem, reason: error.reason }, "sign-in with provider refused");
      return { status: 303, headers: { Location: backToLogin(error.problem, context) } };
    }
  }));
  router.get("/api/users/me/identities", route(app, { auth: "required" }, async ({ principal }) => {
    const identities = await listMyIdentities(db, principal);
    return { body: { data: identities.map(presentIdentity), meta: { emailSignIn: emailSignInAvailable(config) } } };
  }));
  router.delete("/api/users/me/identities/:id", route(app, { auth: "required", params: IdentityParams, whenReadOnly: "allowed" }, async ({ principal, params }) => {
    const removed = await removeMyIdentity(db, principal, params.id, emailSignInAvailable(config));
    return { body: { data: presentIdentity(removed), meta: {} } };
  }));
  return router;
}
export {
  signInProviderRoutes
};
