/**
 * `GET /auth/<provider>` starts a sign-in with a provider, `GET /auth/<provider>/callback` finishes
 * it with the same login session as the magic link. Every refusal is a redirect to /login with the
 * reason (the page explains it) and a log line naming the provider and the reason, never a token,
 * code, address or subject.
 */
import Router from '@koa/router';
import type { AppContext } from '../../context.js';
import { loginUrl } from '../routes.js';
import { route, type ApiRouter } from '../../http/route.js';
import { AppError } from '../../errors.js';
import { safeReturnUrl } from '../returnUrl.js';
import { endSession, readCookie, SESSION_COOKIE, sessionCookie, createSession } from '../../auth/sessions.js';
import { emailSignInAvailable } from '../../mail/mailer.js';
import { listMyIdentities, presentIdentity, removeMyIdentity } from './identities.js';
import { accountForProfile, recordCodehostUsername } from './accounts.js';
import { finishSignIn, FLOW_COOKIE, FLOW_TTL_MS, FlowRefused, SignInRefused, startSignIn, type FlowContext } from './flow.js';
import type { ProviderId, SignInProvider } from './provider.js';
import { signInProviders } from './registry.js';
import { IdentityParams, ProviderParams, StartQuery } from './schemas.js';

/** The flow cookie is sent only to the callbacks under /auth, and only for the flow's 10 minutes. */
function flowCookie(value: string, secure: boolean): string {
  return `${FLOW_COOKIE}=${value}; Path=/auth; Max-Age=${FLOW_TTL_MS / 1000}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}
const clearedFlowCookie = (secure: boolean) => `${FLOW_COOKIE}=; Path=/auth; Max-Age=0; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;

const backToLogin = (problem: string, context: FlowContext | null) =>
  loginUrl({ error: problem, mode: context?.mode ?? null, returnUrl: context && context.returnUrl !== '/' ? context.returnUrl : null });

export function signInProviderRoutes(app: AppContext) {
  const router: ApiRouter = new Router();
  const { config, log } = app;
  const { db } = app.database;
  const secure = config.production;

  /** An unknown or unconfigured provider is no route at all. */
  function providerOf(id: string): SignInProvider {
    const provider = signInProviders(config).get(id as ProviderId);
    if (!provider) throw new AppError('not_found', 'No such sign-in provider');
    return provider;
  }

  router.get('/auth/:provider', route(app, { system: 'authentication', auth: 'none', params: ProviderParams, query: StartQuery }, async ({ ctx, params, query }) => {
    const provider = providerOf(params.provider);
    ctx.set({ 'Cache-Control': 'no-store' });
    const context: FlowContext = { returnUrl: safeReturnUrl(query.returnUrl), mode: query.mode === 'mcp' ? 'mcp' : null };
    try {
      const { location, cookieValue } = await startSignIn(db, provider, context);
      ctx.append('Set-Cookie', flowCookie(cookieValue, secure));
      return { status: 303, headers: { Location: location } };
    } catch (error) {
      if (!(error instanceof SignInRefused)) throw error;
      log.warn({ provider: provider.id, problem: error.problem, reason: error.reason }, 'sign-in with provider not started');
      return { status: 303, headers: { Location: backToLogin(error.problem, context) } };
    }
  }));

  router.get('/auth/:provider/callback', route(app, { system: 'authentication', auth: 'none', params: ProviderParams }, async ({ ctx, params }) => {
    const provider = providerOf(params.provider);
    ctx.set({ 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' });
    ctx.append('Set-Cookie', clearedFlowCookie(secure));
    let context: FlowContext | null = null;
    try {
      const finished = await finishSignIn(db, provider, readCookie(ctx.get('cookie'), FLOW_COOKIE), ctx.querystring);
      context = finished.context;
      const account = await accountForProfile(db, provider.id, finished.profile);
      const persons = provider.codeHost ? await recordCodehostUsername(db, account.userId, finished.profile) : 0;
      // A new sign-in replaces whatever session this browser had, exactly as the magic link does.
      const previous = readCookie(ctx.get('cookie'), SESSION_COOKIE);
      if (previous) await endSession(db, previous);
      const session = await createSession(db, account.userId, account.tenantId);
      ctx.append('Set-Cookie', sessionCookie(session.token, session.absoluteExpiresAt, secure));
      log.info({ provider: provider.id, userId: account.userId, linked: account.linked, personIdentitiesAdded: persons }, 'signed in with provider');
      return { status: 303, headers: { Location: safeReturnUrl(context.returnUrl) } };
    } catch (error) {
      if (!(error instanceof SignInRefused)) throw error;
      if (error instanceof FlowRefused) context = error.context;
      log.warn({ provider: provider.id, problem: error.problem, reason: error.reason }, 'sign-in with provider refused');
      return { status: 303, headers: { Location: backToLogin(error.problem, context) } };
    }
  }));

  router.get('/api/users/me/identities', route(app, { auth: 'required' }, async ({ principal }) => {
    const identities = await listMyIdentities(db, principal);
    return { body: { data: identities.map(presentIdentity), meta: { emailSignIn: emailSignInAvailable(config) } } };
  }));

  router.delete('/api/users/me/identities/:id', route(app, { auth: 'required', params: IdentityParams, whenReadOnly: 'allowed' }, async ({ principal, params }) => {
    const removed = await removeMyIdentity(db, principal, params.id, emailSignInAvailable(config));
    return { body: { data: presentIdentity(removed), meta: {} } };
  }));

  return router;
}
