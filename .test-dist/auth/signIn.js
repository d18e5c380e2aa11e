import { and, eq, gt, isNull, sql, TransactionRollbackError } from "drizzle-orm";
import { loginTokens, tenantMemberships, users } from "../db/schema/index.js";
import { createSession } from "./sessions.js";
import { randomToken, sha256 } from "./secrets.js";
import { safeReturnUrl } from "./returnUrl.js";
import { AppError } from "../errors.js";
import { html } from "../http/html.js";
import { acceptInvitation } from "../members/invitations.js";
import { findOrCreateUser, normaliseEmail } from "../tenants/service.js";
import { mailerConfigured, sendMail } from "../mail/mailer.js";
const MAGIC_LINK_TTL_MS = 15 * 6e4;
const MAGIC_LINK_PATH = "/auth/email/callback";
const APP_HOME = "/app/";
async function signInUserId(db, email) {
  const [row] = await db.select({ id: users.id }).from(users).innerJoin(tenantMemberships, eq(tenantMemberships.userId, users.id)).where(eq(users.email, normaliseEmail(email))).limit(1);
  return row?.id ?? null;
}
async function issueMagicLinkToken(db, email, returnUrl) {
  if (await signInUserId(db, email) === null) return null;
  const token = randomToken(32);
  await db.insert(loginTokens).values({
    tokenHash: sha256(token),
    email: normaliseEmail(email),
    returnUrl: safeReturnUrl(returnUrl),
    expiresAt: new Date(Date.now() + MAGIC_LINK_TTL_MS)
  });
  return token;
}
async function requestMagicLink(app, input) {
  const viaMail = requireDelivery(app);
  const token = await issueMagicLinkToken(app.database.db, input.email, input.returnUrl);
  if (token === null) return { delivery: viaMail ? "mail" : "log" };
  return deliver(app, normaliseEmail(input.email), token, signInMail);
}
function requireDelivery(app) {
  const viaMail = mailerConfigured(app.config);
  if (!viaMail && app.config.production) {
    throw new AppError("unavailable", "E-mail sign-in is not available: no mailer is configured (MAILER_API_KEY)");
  }
  return viaMail;
}
function deliver(app, to, token, compose) {
  const { config, log } = app;
  const link = `${config.appUrl}${MAGIC_LINK_PATH}?token=${token}`;
  if (!mailerConfigured(config)) {
    log.info({ email: to, link, expiresInMinutes: MAGIC_LINK_TTL_MS / 6e4 }, "sign-in link (development: no mailer configured)");
    return { delivery: "log" };
  }
  void sendMail(config, compose(to, link)).then(
    () => log.info({ kind: "sign-in link" }, "e-mail sent"),
    (error) => log.error({ err: { message: error.message }, kind: "sign-in link" }, "e-mail not sent")
  );
  return { delivery: "mail" };
}
async function requestInvitationSignIn(app, invitation) {
  requireDelivery(app);
  const token = randomToken(32);
  await app.database.db.insert(loginTokens).values({
    tokenHash: sha256(token),
    email: invitation.email,
    returnUrl: APP_HOME,
    invitationId: invitation.id,
    expiresAt: new Date(Date.now() + MAGIC_LINK_TTL_MS)
  });
  return deliver(app, invitation.email, token, (to, link) => invitationSignInMail(to, link, invitation.tenantName));
}
function invitationSignInMail(to, link, tenantName) {
  const minutes = MAGIC_LINK_TTL_MS / 6e4;
  const line = `Open this link to sign in and join ${tenantName} on Delivery Analytics:`;
  return {
    to,
    subject: `Sign in to join ${tenantName} on Delivery Analytics`,
    text: `${line}

${link}

It works once and expires in ${minutes} minutes. If you did not ask for it, ignore this e-mail.
`,
    html: html`<p>${line}</p><p><a href="${link}">Sign in and join</a></p><p>It works once and expires in ${minutes} minutes. If you did not ask for it, ignore this e-mail.</p>`.value
  };
}
function signInMail(to, link) {
  const minutes = MAGIC_LINK_TTL_MS / 6e4;
  return {
    to,
    subject: "Your sign-in link for Delivery Analytics",
    text: `Open this link to sign in to Delivery Analytics:

${link}

It works once and expires in ${minutes} minutes. If you did not ask for it, ignore this e-mail.
`,
    html: html`<p>Open this link to sign in to Delivery Analytics:</p><p><a href="${link}">Sign in</a></p><p>It works once and expires in ${minutes} minutes. If you did not ask for it, ignore this e-mail.</p>`.value
  };
}
async function completeMagicLink(db, token) {
  if (token.length < 20 || token.length > 200) return { problem: "invalid_link" };
  const [consumed] = await db.update(loginTokens).set({ usedAt: sql`now()` }).where(and(eq(loginTokens.tokenHash, sha256(token)), isNull(loginTokens.usedAt), gt(loginTokens.expiresAt, sql`now()`))).returning({ email: loginTokens.email, returnUrl: loginTokens.returnUrl, invitationId: loginTokens.invitationId });
  if (!consumed) return { problem: "invalid_link" };
  if (consumed.invitationId !== null) {
    const invitationId = consumed.invitationId;
    const joined = await db.transaction(async (tx) => {
      const userId2 = await findOrCreateUser(tx, consumed.email);
      const accepted = await acceptInvitation(tx, { id: invitationId }, { id: userId2, email: consumed.email });
      if (!accepted) tx.rollback();
      return { userId: userId2, tenantId: accepted.tenantId };
    }).catch((error) => {
      if (error instanceof TransactionRollbackError) return null;
      throw error;
    });
    if (!joined) return { problem: "invitation_unavailable" };
    return { session: await createSession(db, joined.userId, joined.tenantId), returnUrl: safeReturnUrl(consumed.returnUrl) };
  }
  const userId = await signInUserId(db, consumed.email);
  if (userId === null) return { problem: "invalid_link" };
  const session = await createSession(db, userId, null);
  return { session, returnUrl: safeReturnUrl(consumed.returnUrl) };
}
export {
  MAGIC_LINK_PATH,
  MAGIC_LINK_TTL_MS,
  completeMagicLink,
  issueMagicLinkToken,
  requestInvitationSignIn,
  requestMagicLink
};
