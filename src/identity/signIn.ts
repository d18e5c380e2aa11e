/**
 * E-mail sign-in by magic link. Every step is a row in PostgreSQL, so any instance serves any
 * step: the request stores the hash of a single-use token (never the token), the link carries the
 * token, and opening it consumes the row in one atomic UPDATE and creates a login session.
 *
 * Only existing people get a link: an address that belongs to no user with at least one tenant
 * membership gets nothing (there is no self-service sign-up; accounts come from `tenant:create`,
 * `user:add` and invitations). The HTTP answer is the same either way, so the form cannot be used
 * to find out who has an account. The one exception is an invitation's page: it asks for a link to
 * the invited address (docs/auth.md), and opening that link accepts the invitation.
 */
import { and, eq, gt, isNull, sql, TransactionRollbackError } from 'drizzle-orm';
import type { AppContext } from '../context.js';
import type { Db } from '../db/client.js';
import { loginTokens, tenantMemberships, users } from '../db/schema/index.js';
import { createSession, type NewSession } from '../auth/sessions.js';
import { randomToken, sha256 } from '../auth/secrets.js';
import { safeReturnUrl } from './returnUrl.js';
import { AppError } from '../errors.js';
import { html } from '../http/html.js';
import { acceptInvitation, type InvitationRow } from '../members/invitations.js';
import { findOrCreateUser, normaliseEmail } from '../tenants/service.js';
import { mailerConfigured, sendMail, type Mail } from '../mail/mailer.js';

export const MAGIC_LINK_TTL_MS = 15 * 60_000;
export const MAGIC_LINK_PATH = '/auth/email/callback';
/** Where a link asked for on an invitation's page lands, once the invitation is accepted. */
const APP_HOME = '/app/';

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
  const viaMail = requireDelivery(app);
  const token = await issueMagicLinkToken(app.database.db, input.email, input.returnUrl);
  if (token === null) return { delivery: viaMail ? 'mail' : 'log' };
  return deliver(app, normaliseEmail(input.email), token, signInMail);
}

/** Whether links go by mail; without a mailer, production refuses (503) and development logs them. */
function requireDelivery(app: AppContext): boolean {
  const viaMail = mailerConfigured(app.config);
  if (!viaMail && app.config.production) {
    throw new AppError('unavailable', 'E-mail sign-in is not available: no mailer is configured (MAILER_API_KEY)');
  }
  return viaMail;
}

function deliver(app: AppContext, to: string, token: string, compose: (to: string, link: string) => Mail): { delivery: 'mail' | 'log' } {
  const { config, log } = app;
  const link = `${config.appUrl}${MAGIC_LINK_PATH}?token=${token}`;
  if (!mailerConfigured(config)) {
    log.info({ email: to, link, expiresInMinutes: MAGIC_LINK_TTL_MS / 60_000 }, 'sign-in link (development: no mailer configured)');
    return { delivery: 'log' };
  }
  void sendMail(config, compose(to, link)).then(
    () => log.info({ kind: 'sign-in link' }, 'e-mail sent'),
    (error: Error) => log.error({ err: { message: error.message }, kind: 'sign-in link' }, 'e-mail not sent'),
  );
  return { delivery: 'mail' };
}

/**
 * A sign-in link to the address of a pending invitation, asked for on the invitation's page (the
 * address need not have an account yet): opening it accepts the invitation and signs in, acting in
 * the invitation's tenant. The page knows the address from the token, so nobody chooses where it goes.
 */
export async function requestInvitationSignIn(app: AppContext, invitation: InvitationRow): Promise<{ delivery: 'mail' | 'log' }> {
  requireDelivery(app);
  const token = randomToken(32);
  await app.database.db.insert(loginTokens).values({
    tokenHash: sha256(token),
    email: invitation.email,
    returnUrl: APP_HOME,
    invitationId: invitation.id,
    expiresAt: new Date(Date.now() + MAGIC_LINK_TTL_MS),
  });
  return deliver(app, invitation.email, token, (to, link) => invitationSignInMail(to, link, invitation.tenantName));
}

function invitationSignInMail(to: string, link: string, tenantName: string): Mail {
  const minutes = MAGIC_LINK_TTL_MS / 60_000;
  const line = `Open this link to sign in and join ${tenantName} on Delivery Analytics:`;
  return {
    to,
    subject: `Sign in to join ${tenantName} on Delivery Analytics`,
    text: `${line}\n\n${link}\n\nIt works once and expires in ${minutes} minutes. If you did not ask for it, ignore this e-mail.\n`,
    html: html`<p>${line}</p><p><a href="${link}">Sign in and join</a></p><p>It works once and expires in ${minutes} minutes. If you did not ask for it, ignore this e-mail.</p>`.value,
  };
}

function signInMail(to: string, link: string): Mail {
  const minutes = MAGIC_LINK_TTL_MS / 60_000;
  return {
    to,
    subject: 'Your sign-in link for Delivery Analytics',
    text: `Open this link to sign in to Delivery Analytics:\n\n${link}\n\nIt works once and expires in ${minutes} minutes. If you did not ask for it, ignore this e-mail.\n`,
    html: html`<p>Open this link to sign in to Delivery Analytics:</p><p><a href="${link}">Sign in</a></p><p>It works once and expires in ${minutes} minutes. If you did not ask for it, ignore this e-mail.</p>`.value,
  };
}

export type MagicLinkOutcome =
  | { session: NewSession; returnUrl: string }
  | { problem: 'invalid_link' | 'invitation_unavailable' };

/**
 * Consumes a link's token (unknown, used or expired → `invalid_link`) and signs the user in. The
 * UPDATE … WHERE used_at IS NULL makes the token single use even when two instances race for it. A
 * link asked for on an invitation's page first accepts that invitation (creating the user when the
 * address is new); when it was revoked, used or expired meanwhile nobody is signed in
 * (`invitation_unavailable`).
 */
export async function completeMagicLink(db: Db, token: string): Promise<MagicLinkOutcome> {
  if (token.length < 20 || token.length > 200) return { problem: 'invalid_link' };
  const [consumed] = await db
    .update(loginTokens)
    .set({ usedAt: sql`now()` })
    .where(and(eq(loginTokens.tokenHash, sha256(token)), isNull(loginTokens.usedAt), gt(loginTokens.expiresAt, sql`now()`)))
    .returning({ email: loginTokens.email, returnUrl: loginTokens.returnUrl, invitationId: loginTokens.invitationId });
  if (!consumed) return { problem: 'invalid_link' };
  if (consumed.invitationId !== null) {
    const invitationId = consumed.invitationId;
    const joined = await db.transaction(async (tx) => {
      const userId = await findOrCreateUser(tx, consumed.email);
      const accepted = await acceptInvitation(tx, { id: invitationId }, { id: userId, email: consumed.email });
      // Not accepted: a user created just now would be a row without any membership; undo it.
      if (!accepted) tx.rollback();
      return { userId, tenantId: (accepted as { tenantId: string }).tenantId };
    }).catch((error: unknown) => {
      if (error instanceof TransactionRollbackError) return null;
      throw error;
    });
    if (!joined) return { problem: 'invitation_unavailable' };
    return { session: await createSession(db, joined.userId, joined.tenantId), returnUrl: safeReturnUrl(consumed.returnUrl) };
  }
  const userId = await signInUserId(db, consumed.email);
  if (userId === null) return { problem: 'invalid_link' };
  const session = await createSession(db, userId, null);
  return { session, returnUrl: safeReturnUrl(consumed.returnUrl) };
}
