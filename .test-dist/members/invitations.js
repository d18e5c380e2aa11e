import { and, count, desc, eq, gt, isNull, sql } from "drizzle-orm";
import { invitations, loginSessions, tenantMemberships, tenants, users } from "../db/schema/index.js";
import { authorize } from "../auth/policies.js";
import { randomToken, sha256 } from "../auth/secrets.js";
import { AppError, notFound } from "../errors.js";
import { html } from "../http/html.js";
import { mailerConfigured, sendMail } from "../mail/mailer.js";
import { normaliseEmail } from "../tenants/service.js";
const INVITATION_TTL_DAYS = 7;
const INVITE_PATH = "/invite";
const TTL = sql`make_interval(days => ${INVITATION_TTL_DAYS})`;
const status = sql`case
  when ${invitations.acceptedAt} is not null then 'accepted'
  when ${invitations.revokedAt} is not null then 'revoked'
  when ${invitations.expiresAt} <= now() then 'expired'
  else 'pending' end`;
const columns = {
  id: invitations.id,
  tenantId: invitations.tenantId,
  tenantName: tenants.name,
  email: invitations.email,
  role: invitations.role,
  inviterId: users.id,
  inviterEmail: users.email,
  createdAt: invitations.createdAt,
  expiresAt: invitations.expiresAt,
  status
};
const toRow = ({ inviterId, inviterEmail, ...rest }) => ({
  ...rest,
  invitedBy: inviterId && inviterEmail ? { userId: inviterId, email: inviterEmail } : null
});
const selectInvitations = (db) => db.select(columns).from(invitations).innerJoin(tenants, eq(tenants.id, invitations.tenantId)).leftJoin(users, eq(users.id, invitations.invitedBy));
const open = and(isNull(invitations.acceptedAt), isNull(invitations.revokedAt));
const inviteLink = (appUrl, token) => `${appUrl}${INVITE_PATH}/${token}`;
async function listInvitations(db, principal, paging) {
  authorize(principal, "invitation.manage");
  const where = and(eq(invitations.tenantId, principal.tenantId), open);
  const [rows, [total]] = await Promise.all([
    selectInvitations(db).where(where).orderBy(desc(invitations.createdAt), desc(invitations.id)).limit(paging.perPage).offset((paging.page - 1) * paging.perPage),
    db.select({ n: count() }).from(invitations).where(where)
  ]);
  return { rows: rows.map(toRow), total: total?.n ?? 0 };
}
async function findInTenant(db, tenantId, id) {
  const [row] = await selectInvitations(db).where(and(eq(invitations.id, id), eq(invitations.tenantId, tenantId)));
  if (!row) throw notFound("Invitation");
  return toRow(row);
}
async function createInvitation(app, principal, input) {
  const { db } = app.database;
  authorize(principal, "invitation.manage");
  const email = normaliseEmail(input.email);
  const [existing] = await db.select({ userId: users.id }).from(users).innerJoin(tenantMemberships, and(eq(tenantMemberships.userId, users.id), eq(tenantMemberships.tenantId, principal.tenantId))).where(eq(users.email, email));
  if (existing) {
    throw new AppError("already_member", "This person is already a member of the tenant", [{ path: "email", message: "Already a member of this tenant" }]);
  }
  const token = randomToken(32);
  const values = { tokenHash: sha256(token), role: input.role, invitedBy: principal.userId, createdAt: sql`now()`, expiresAt: sql`now() + ${TTL}` };
  const [saved] = await db.insert(invitations).values({ tenantId: principal.tenantId, email, ...values }).onConflictDoUpdate({ target: [invitations.tenantId, invitations.email], targetWhere: sql`accepted_at is null and revoked_at is null`, set: values }).returning({ id: invitations.id });
  const invitation = await findInTenant(db, principal.tenantId, saved.id);
  const link = inviteLink(app.config.appUrl, token);
  if (!mailerConfigured(app.config)) return { invitation, delivery: "link", link };
  try {
    await sendMail(app.config, invitationMail(invitation, link));
  } catch (error) {
    await db.update(invitations).set({ revokedAt: sql`now()` }).where(eq(invitations.id, invitation.id));
    app.log.error({ err: { message: error.message }, kind: "invitation" }, "e-mail not sent");
    throw new AppError("unavailable", "The invitation e-mail could not be sent, so the invitation was withdrawn; try again later");
  }
  app.log.info({ kind: "invitation", invitationId: invitation.id }, "e-mail sent");
  return { invitation, delivery: "mail" };
}
function invitationMail(invitation, link) {
  const by = invitation.invitedBy ? `${invitation.invitedBy.email} invited you` : "You are invited";
  const what = `${by} to join ${invitation.tenantName} on Delivery Analytics as ${invitation.role === "owner" ? "an owner" : "a member"}.`;
  const rule = `The link works once and expires in ${INVITATION_TTL_DAYS} days. If you did not expect it, ignore this e-mail.`;
  return {
    to: invitation.email,
    subject: `Invitation to ${invitation.tenantName} on Delivery Analytics`,
    text: `${what}

Open this link to accept:

${link}

${rule}
`,
    html: html`<p>${what}</p><p><a href="${link}">Accept the invitation</a></p><p>${rule}</p>`.value
  };
}
async function revokeInvitation(db, principal, id) {
  const invitation = await findInTenant(db, principal.tenantId, id);
  authorize(principal, "invitation.manage");
  if (invitation.status === "revoked") throw notFound("Invitation");
  if (invitation.status === "accepted") throw new AppError("conflict", "This invitation was already accepted; remove the member instead");
  const [revoked] = await db.update(invitations).set({ revokedAt: sql`now()` }).where(and(eq(invitations.id, id), open)).returning({ id: invitations.id });
  if (!revoked) throw new AppError("conflict", "This invitation was accepted or revoked meanwhile");
  return { ...invitation, status: "revoked" };
}
async function invitationByToken(db, token) {
  if (token.length < 20 || token.length > 200) return null;
  const [row] = await selectInvitations(db).where(eq(invitations.tokenHash, sha256(token)));
  return row ? toRow(row) : null;
}
async function acceptInvitation(db, where, user, sessionId) {
  return db.transaction(async (tx) => {
    const [accepted] = await tx.update(invitations).set({ acceptedAt: sql`now()`, acceptedBy: user.id }).where(and(
      "token" in where ? eq(invitations.tokenHash, sha256(where.token)) : eq(invitations.id, where.id),
      open,
      gt(invitations.expiresAt, sql`now()`),
      eq(invitations.email, normaliseEmail(user.email))
    )).returning({ tenantId: invitations.tenantId, role: invitations.role });
    if (!accepted) return null;
    await tx.insert(tenantMemberships).values({ tenantId: accepted.tenantId, userId: user.id, role: accepted.role }).onConflictDoNothing();
    if (sessionId) await tx.update(loginSessions).set({ activeTenantId: accepted.tenantId }).where(eq(loginSessions.id, sessionId));
    return { tenantId: accepted.tenantId };
  });
}
export {
  INVITATION_TTL_DAYS,
  INVITE_PATH,
  acceptInvitation,
  createInvitation,
  invitationByToken,
  inviteLink,
  listInvitations,
  revokeInvitation
};
