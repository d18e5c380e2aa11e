/**
 * E-mail sign-in by magic link. Every step is a row in PostgreSQL, so any instance serves any
 * step: the request stores the hash of a single-use token (never the token), the link carries the
 * token, and opening it consumes the row in one atomic UPDATE and creates a login session.
 *
 * Only existing people get a link: an address that belongs to no user with at least one tenant
 * membership gets nothing (there is no self-service sign-up; accounts come from `tenant:create`,
 * `user:add` and invitations). The HTTP answer is the same either way, so the form cannot be used
 * to find out who has an account.
 */
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { AppContext } from '../context.js';
import type { Db } from '../db/client.js';
import { loginTokens, tenantMemberships, users } from '../db/schema/index.js';
import { createSession, type NewSession } from '../auth/sessions.js';
import { randomToken, sha256 } from '../auth/secrets.js';
import { safeReturnUrl } from '../auth/returnUrl.js';
import { AppError } from '../errors.js';
import { escapeHtml } from '../http/html.js';
import { normaliseEmail } from './tenants.js';
import { mailerConfigured, sendMail } from './mailer.js';

export const MAGIC_LINK_TTL_MS = 15 * 60_000;
export const MAGIC_LINK_PATH = '/auth/email/callback';

/** The user behind an address, if it may sign in (has a membership somewhere). */
async function signInUserId(db: Db, email: string): Promise<string | null> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .innerJoin(tenantMemberships, eq(tenantMemberships.userId, users.id))
    .where(eq(users.email, normaliseEmail(email)))
    .limit(1);
  return row?.id ?? null;
}

/** Stores a new single-use token for a known address; returns the token, or null for an unknown address. */
export async function issueMagicLinkToken(db: Db, email: string, returnUrl: string | undefined): Promise<string | null> {
  if ((await signInUserId(db, email)) === null) return null;
  const token = randomToken(32);
  await db.insert(loginTokens).values({
    tokenHash: sha256(token),
    email: normaliseEmail(email),
    returnUrl: safeReturnUrl(returnUrl),
    expiresAt: new Date(Date.now() + MAGIC_LINK_TTL_MS),
  });
  return token;
}

/**
 * `POST /auth/email`: issues a link and delivers it. With MAILER_API_KEY the mail is sent after the
 * caller has its answer (so a known address does not answer measurably slower than an unknown one;
 * a failure is logged). Without a mailer, outside production, the link goes to the log so a
 * developer can sign in; in production e-mail sign-in is then unavailable (503).
 */
export async function requestMagicLink(app: AppContext, input: { email: string; returnUrl?: string }): Promise<{ delivery: 'mail' | 'log' }> {
  const { config, log } = app;
  const viaMail = mailerConfigured(config);
  if (!viaMail && config.production) {
    throw new AppError('unavailable', 'E-mail sign-in is not available: no mailer is configured (MAILER_API_KEY)');
  }
  const token = await issueMagicLinkToken(app.database.db, input.email, input.returnUrl);
  if (token === null) return { delivery: viaMail ? 'mail' : 'log' };
  const link = `${config.appUrl}${MAGIC_LINK_PATH}?token=${token}`;
  const to = normaliseEmail(input.email);
  if (!viaMail) {
    log.info({ email: to, link, expiresInMinutes: MAGIC_LINK_TTL_MS / 60_000 }, 'sign-in link (development: no mailer configured)');
    return { delivery: 'log' };
  }
  void sendMail(config, signInMail(to, link)).then(
    () => log.info({ kind: 'sign-in link' }, 'e-mail sent'),
    (error: Error) => log.error({ err: { message: error.message }, kind: 'sign-in link' }, 'e-mail not sent'),
  );
  return { delivery: 'mail' };
}

function signInMail(to: string, link: string) {
  const minutes = MAGIC_LINK_TTL_MS / 60_000;
  return {
    to,
    subject: 'Your sign-in link for Delivery Analytics',
    text: `Open this link to sign in to Delivery Analytics:\n\n${link}\n\nIt works once and expires in ${minutes} minutes. If you did not ask for it, ignore this e-mail.\n`,
    html: `<p>Open this link to sign in to Delivery Analytics:</p><p><a href="${escapeHtml(link)}">Sign in</a></p><p>It works once and expires in ${minutes} minutes. If you did not ask for it, ignore this e-mail.</p>`,
  };
}

/**
 * Consumes a link's token (unknown, used or expired → null) and signs the user in. The UPDATE …
 * WHERE used_at IS NULL makes the token single-use even when two instances race for it.
 */
export async function completeMagicLink(db: Db, token: string): Promise<{ session: NewSession; returnUrl: string } | null> {
  if (token.length < 20 || token.length > 200) return null;
  const [consumed] = await db
    .update(loginTokens)
    .set({ usedAt: sql`now()` })
    .where(and(eq(loginTokens.tokenHash, sha256(token)), isNull(loginTokens.usedAt), gt(loginTokens.expiresAt, sql`now()`)))
    .returning({ email: loginTokens.email, returnUrl: loginTokens.returnUrl });
  if (!consumed) return null;
  const userId = await signInUserId(db, consumed.email);
  if (userId === null) return null;
  const session = await createSession(db, userId, null);
  return { session, returnUrl: safeReturnUrl(consumed.returnUrl) };
}
