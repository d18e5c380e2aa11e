/**
 * Invitations: an owner invites an address with a role; the link `APP_URL/invite/<token>` lets the
 * person behind that address join. The token is 32 random bytes; only its SHA-256 is stored and a
 * link is found by that hash (an index probe: nothing about the token is compared byte by byte, as
 * for every secret in src/auth/secrets.ts). Single use, 7 days, revocable; the state is decided on
 * the database clock. Decisions: docs/auth-members.md "Members and invitations".
 */
import { and, count, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { AppContext } from '../context.js';
import type { Db } from '../db/client.js';
import { invitations, loginSessions, tenantMemberships, tenants, users } from '../db/schema/index.js';
import { authorize } from '../auth/policies.js';
import type { Role, TenantPrincipal } from '../auth/principal.js';
import { randomToken, sha256 } from '../auth/secrets.js';
import { AppError, notFound } from '../errors.js';
import type { Paging } from '../http/route.js';
import { html } from '../http/html.js';
import { mailerConfigured, sendMail } from '../mail/mailer.js';
import { normaliseEmail } from '../tenants/service.js';

export const INVITATION_TTL_DAYS = 7;
export const INVITE_PATH = '/invite';
const TTL = sql`make_interval(days => ${INVITATION_TTL_DAYS})`;

export type InvitationStatus = 'pending' | 'expired' | 'accepted' | 'revoked';

export interface InvitationRow {
  id: string;
  tenantId: string;
  tenantName: string;
  email: string;
  role: Role;
  invitedBy: { userId: string; email: string } | null;
  createdAt: Date;
  expiresAt: Date;
  status: InvitationStatus;
}

const status = sql<InvitationStatus>`case
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
  status,
};

type Selected = { inviterId: string | null; inviterEmail: string | null } & Omit<InvitationRow, 'invitedBy'>;
const toRow = ({ inviterId, inviterEmail, ...rest }: Selected): InvitationRow => ({
  ...rest,
  invitedBy: inviterId && inviterEmail ? { userId: inviterId, email: inviterEmail } : null,
});

const selectInvitations = (db: Db) =>
  db.select(columns).from(invitations).innerJoin(tenants, eq(tenants.id, invitations.tenantId)).leftJoin(users, eq(users.id, invitations.invitedBy));

/** Open = neither accepted nor revoked; an open invitation past its expiry is listed as `expired`. */
const open = and(isNull(invitations.acceptedAt), isNull(invitations.revokedAt));

export const inviteLink = (appUrl: string, token: string) => `${appUrl}${INVITE_PATH}/${token}`;

/** The tenant's open invitations, newest first (owner only). Never the token: only its hash exists. */
export async function listInvitations(db: Db, principal: TenantPrincipal, paging: Paging): Promise<{ rows: InvitationRow[]; total: number }> {
  authorize(principal, 'invitation.manage');
  const where = and(eq(invitations.tenantId, principal.tenantId), open);
  const [rows, [total]] = await Promise.all([
    selectInvitations(db).where(where).orderBy(desc(invitations.createdAt), desc(invitations.id))
      .limit(paging.perPage).offset((paging.page - 1) * paging.perPage),
    db.select({ n: count() }).from(invitations).where(where),
  ]);
  return { rows: rows.map(toRow), total: total?.n ?? 0 };
}

async function findInTenant(db: Db, tenantId: string, id: string): Promise<InvitationRow> {
  const [row] = await selectInvitations(db).where(and(eq(invitations.id, id), eq(invitations.tenantId, tenantId)));
  if (!row) throw notFound('Invitation');
  return toRow(row);
}

export interface CreatedInvitation {
  invitation: InvitationRow;
  /** How the link reaches the person: by e-mail, or (no mailer configured) through the owner. */
  delivery: 'mail' | 'link';
  /** Only when no mailer is configured; never when the link was e-mailed. */
  link?: string;
}

/**
 * Invites an address (owner only). Someone already in the tenant is a 409 `already_member`. An open
 * invitation of the same address is replaced: new token (the old link stops working), role, inviter
 * and 7 days from now. With a mailer the link is e-mailed before the answer (a failure revokes the
 * invitation and is a 503); without one the link is returned for the owner to pass on.
 */
export async function createInvitation(app: AppContext, principal: TenantPrincipal, input: { email: string; role: Role }): Promise<CreatedInvitation> {
  const { db } = app.database;
  authorize(principal, 'invitation.manage');
  const email = normaliseEmail(input.email);
  const [existing] = await db.select({ userId: users.id }).from(users)
    .innerJoin(tenantMemberships, and(eq(tenantMemberships.userId, users.id), eq(tenantMemberships.tenantId, principal.tenantId)))
    .where(eq(users.email, email));
  if (existing) {
    throw new AppError('already_member', 'This person is already a member of the tenant', [{ path: 'email', message: 'Already a member of this tenant' }]);
  }
  const token = randomToken(32);
  const values = { tokenHash: sha256(token), role: input.role, invitedBy: principal.userId, createdAt: sql`now()`, expiresAt: sql`now() + ${TTL}` };
  const [saved] = await db.insert(invitations)
    .values({ tenantId: principal.tenantId, email, ...values })
    .onConflictDoUpdate({ target: [invitations.tenantId, invitations.email], targetWhere: sql`accepted_at is null and revoked_at is null`, set: values })
    .returning({ id: invitations.id });
  const invitation = await findInTenant(db, principal.tenantId, (saved as { id: string }).id);
  const link = inviteLink(app.config.appUrl, token);
  if (!mailerConfigured(app.config)) return { invitation, delivery: 'link', link };
  try {
    await sendMail(app.config, invitationMail(invitation, link));
  } catch (error) {
    await db.update(invitations).set({ revokedAt: sql`now()` }).where(eq(invitations.id, invitation.id));
    app.log.error({ err: { message: (error as Error).message }, kind: 'invitation' }, 'e-mail not sent');
    throw new AppError('unavailable', 'The invitation e-mail could not be sent, so the invitation was withdrawn; try again later');
  }
  app.log.info({ kind: 'invitation', invitationId: invitation.id }, 'e-mail sent');
  return { invitation, delivery: 'mail' };
}

function invitationMail(invitation: InvitationRow, link: string) {
  const by = invitation.invitedBy ? `${invitation.invitedBy.email} invited you` : 'You are invited';
  const what = `${by} to join ${invitation.tenantName} on Delivery Analytics as ${invitation.role === 'owner' ? 'an owner' : 'a member'}.`;
  const rule = `The link works once and expires in ${INVITATION_TTL_DAYS} days. If you did not expect it, ignore this e-mail.`;
  return {
    to: invitation.email,
    subject: `Invitation to ${invitation.tenantName} on Delivery Analytics`,
    text: `${what}\n\nOpen this link to accept:\n\n${link}\n\n${rule}\n`,
    html: html`<p>${what}</p><p><a href="${link}">Accept the invitation</a></p><p>${rule}</p>`.value,
  };
}

/** Revokes an open invitation (owner only): its link stops working at once. Accepted: 409. */
export async function revokeInvitation(db: Db, principal: TenantPrincipal, id: string): Promise<InvitationRow> {
  const invitation = await findInTenant(db, principal.tenantId, id);
  authorize(principal, 'invitation.manage');
  if (invitation.status === 'revoked') throw notFound('Invitation');
  if (invitation.status === 'accepted') throw new AppError('conflict', 'This invitation was already accepted; remove the member instead');
  const [revoked] = await db.update(invitations).set({ revokedAt: sql`now()` }).where(and(eq(invitations.id, id), open)).returning({ id: invitations.id });
  if (!revoked) throw new AppError('conflict', 'This invitation was accepted or revoked meanwhile');
  return { ...invitation, status: 'revoked' };
}

/** The invitation behind a link's token (any state), or null for a token that never existed. */
export async function invitationByToken(db: Db, token: string): Promise<InvitationRow | null> {
  if (token.length < 20 || token.length > 200) return null;
  const [row] = await selectInvitations(db).where(eq(invitations.tokenHash, sha256(token)));
  return row ? toRow(row) : null;
}

/**
 * Accepts an open, unexpired invitation for `userId`, whose address must be the invited one. One
 * conditional UPDATE makes the link single use even when two requests race. The membership is
 * added (someone who joined meanwhile keeps their role) and, given a session, it acts in the tenant.
 */
export async function acceptInvitation(db: Db, where: { token: string } | { id: string }, user: { id: string; email: string }, sessionId?: string): Promise<{ tenantId: string } | null> {
  return db.transaction(async (tx) => {
    const [accepted] = await tx.update(invitations)
      .set({ acceptedAt: sql`now()`, acceptedBy: user.id })
      .where(and(
        'token' in where ? eq(invitations.tokenHash, sha256(where.token)) : eq(invitations.id, where.id),
        open, gt(invitations.expiresAt, sql`now()`), eq(invitations.email, normaliseEmail(user.email)),
      ))
      .returning({ tenantId: invitations.tenantId, role: invitations.role });
    if (!accepted) return null;
    await tx.insert(tenantMemberships).values({ tenantId: accepted.tenantId, userId: user.id, role: accepted.role }).onConflictDoNothing();
    if (sessionId) await tx.update(loginSessions).set({ activeTenantId: accepted.tenantId }).where(eq(loginSessions.id, sessionId));
    return { tenantId: accepted.tenantId };
  });
}
