import Router from '@koa/router';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { checkFormToken, checkOrigin, CSRF_FIELD, isFormPost, issueCsrfToken } from '../auth/csrf.js';
import { signInProviders } from './providers/registry.js';
import { safeReturnUrl } from './returnUrl.js';
import { clearedSessionCookie, endSession, readCookie, SESSION_COOKIE, sessionCookie } from '../auth/sessions.js';
import { sha256 } from '../auth/secrets.js';
import { AppError, zodDetails } from '../errors.js';
import { renderLoginPage, type LoginMode } from './loginPage.js';
import { emailSignInAvailable, mailerConfigured } from '../mail/mailer.js';
import { completeMagicLink, MAGIC_LINK_PATH, requestMagicLink } from './signIn.js';
import { normaliseEmail } from '../tenants/service.js';
import { userEmail } from '../users/service.js';
import { readBody } from '../http/body.js';
import { sendPage } from '../http/html.js';
import { consume, type Limit } from '../http/rateLimit.js';
import { route, type ApiRouter } from '../http/route.js';
import { CallbackQuery, FormEmailBody, JsonEmailBody, LoginQuery } from './schemas.js';

/** Links per address, whatever the caller's address: stops one inbox being flooded. Known or not, same limit. */
export const PER_ADDRESS: Limit = { name: 'magic-email', points: 5, durationSeconds: 15 * 60 };
const FORM_LIMIT = 16 * 1024;

const modeOf = (value: unknown): LoginMode => (value === 'mcp' ? 'mcp' : null);

export function loginUrl(params: Record<string, string | null>): string {
  const search = new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => e[1] !== null && e[1] !== ''));
  const query = search.toString();
  return query ? `/login?${query}` : '/login';
}

function parseBody<S extends z.ZodType>(schema: S, raw: unknown): z.infer<S> {
  const result = schema.safeParse(raw);
  if (!result.success) throw new AppError('validation_failed', 'Validation failed', zodDetails(result.error, undefined, raw));
  return result.data;
}

export function authRoutes(app: AppContext) {
  const router: ApiRouter = new Router();
  const { config } = app;
  const { db } = app.database;
  const secure = config.production;

  // The page itself touches no table (beyond the caller's own session), so it is not rate limited.
  router.get('/login', route(app, { system: 'authentication', auth: 'optional', limit: 'none', query: LoginQuery }, async ({ ctx, principal, query }) => {
    const mode = modeOf(query.mode);
    const signedInAs = principal && principal.kind === 'session' ? await userEmail(db, principal.userId) : null;
    const page = renderLoginPage({
      mode,
      returnUrl: safeReturnUrl(query.returnUrl),
      csrfToken: issueCsrfToken(ctx, secure),
      emailAvailable: emailSignInAvailable(config),
      linkInLog: !mailerConfigured(config) && !config.production,
      sent: query.sent === '1',
      error: query.error ?? null,
      signedInAs,
      providers: [...signInProviders(config).values()].map((p) => ({ id: p.id, label: p.label })),
    });
    sendPage(ctx, 200, page);
  }));

  router.post('/auth/email', route(app, { system: 'authentication', auth: 'none' }, async ({ ctx }) => {
    checkOrigin(ctx, config.appUrl);
    const form = isFormPost(ctx);
    const body = form
      ? parseBody(FormEmailBody, await readBody(ctx, 'form', FORM_LIMIT))
      : parseBody(JsonEmailBody, await readBody(ctx, 'json', FORM_LIMIT));
    if (form) checkFormToken(ctx, (body as { csrf?: string }).csrf);
    await consume(app, `addr:${sha256(normaliseEmail(body.email))}`, [PER_ADDRESS]);
    const returnUrl = safeReturnUrl(body.returnUrl);
    const { delivery } = await requestMagicLink(app, { email: body.email, returnUrl });
    if (form) {
      const mode = modeOf((body as { mode?: string }).mode);
      return { status: 303, headers: { Location: loginUrl({ sent: '1', mode, returnUrl: returnUrl === '/' ? null : returnUrl }) } };
    }
    return {
      status: 202,
      body: { data: { message: 'If an account exists for this address, a sign-in link has been sent to it.', expiresInMinutes: 15, delivery }, meta: {} },
    };
  }));

  router.get(MAGIC_LINK_PATH, route(app, { system: 'authentication', auth: 'none', query: CallbackQuery }, async ({ ctx, query }) => {
    ctx.set({ 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' });
    const done = query.token ? await completeMagicLink(db, query.token) : { problem: 'invalid_link' as const };
    if ('problem' in done) return { status: 303, headers: { Location: loginUrl({ error: done.problem }) } };
    // A new sign-in replaces whatever session this browser had.
    const previous = readCookie(ctx.get('cookie'), SESSION_COOKIE);
    if (previous) await endSession(db, previous);
    ctx.append('Set-Cookie', sessionCookie(done.session.token, done.session.absoluteExpiresAt, secure));
    return { status: 303, headers: { Location: done.returnUrl } };
  }));

  router.post('/auth/logout', route(app, { system: 'authentication', auth: 'none' }, async ({ ctx }) => {
    checkOrigin(ctx, config.appUrl);
    const form = isFormPost(ctx);
    let returnUrl: string | null = null;
    if (form) {
      const fields = (await readBody(ctx, 'form', FORM_LIMIT)) as Record<string, string>;
      checkFormToken(ctx, fields[CSRF_FIELD]);
      // A page may ask to be shown again after sign-out (an invitation opened while signed in as someone else).
      if (fields.returnUrl !== undefined) returnUrl = safeReturnUrl(fields.returnUrl);
    }
    const token = readCookie(ctx.get('cookie'), SESSION_COOKIE);
    if (token) await endSession(db, token);
    ctx.append('Set-Cookie', clearedSessionCookie(secure));
    if (form) return { status: 303, headers: { Location: returnUrl ?? '/login' } };
    return { body: { data: { signedOut: true }, meta: {} } };
  }));

  return router;
}
