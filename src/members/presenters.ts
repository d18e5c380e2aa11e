import type { CreatedInvitation, InvitationRow } from './invitations.js';
import type { MemberRow } from './members.js';

export function presentMember(member: MemberRow) {
  return {
    userId: member.userId,
    email: member.email,
    displayName: member.displayName,
    role: member.role,
    joinedAt: member.joinedAt.toISOString(),
  };
}

/** Never the token: only its hash is stored. */
export function presentInvitation(invitation: InvitationRow) {
  return {
    id: invitation.id,
    email: invitation.email,
    role: invitation.role,
    status: invitation.status,
    invitedBy: invitation.invitedBy,
    createdAt: invitation.createdAt.toISOString(),
    expiresAt: invitation.expiresAt.toISOString(),
  };
}

export const NO_MAILER_REASON = 'No e-mail was sent: this server has no mailer configured (MAILER_API_KEY). Copy the link and send it to the person yourself.';

/** A new invitation and how it travels; the link only when no e-mail was sent (no mailer). */
export function presentCreatedInvitation(created: CreatedInvitation) {
  const delivery = created.delivery === 'mail'
    ? { method: 'mail' as const }
    : { method: 'link' as const, link: created.link, reason: NO_MAILER_REASON };
  return { ...presentInvitation(created.invitation), delivery };
}
