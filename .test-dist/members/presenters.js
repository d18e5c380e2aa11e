function presentMember(member) {
  return {
    userId: member.userId,
    email: member.email,
    displayName: member.displayName,
    role: member.role,
    joinedAt: member.joinedAt.toISOString()
  };
}
function presentInvitation(invitation) {
  return {
    id: invitation.id,
    email: invitation.email,
    role: invitation.role,
    status: invitation.status,
    invitedBy: invitation.invitedBy,
    createdAt: invitation.createdAt.toISOString(),
    expiresAt: invitation.expiresAt.toISOString()
  };
}
const NO_MAILER_REASON = "No e-mail was sent: this server has no mailer configured (MAILER_API_KEY). Copy the link and send it to the person yourself.";
function presentCreatedInvitation(created) {
  const delivery = created.delivery === "mail" ? { method: "mail" } : { method: "link", link: created.link, reason: NO_MAILER_REASON };
  return { ...presentInvitation(created.invitation), delivery };
}
export {
  NO_MAILER_REASON,
  presentCreatedInvitation,
  presentInvitation,
  presentMember
};
