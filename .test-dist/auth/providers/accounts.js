import { and, asc, desc, eq, exists, gt, inArray, isNull, or, sql, TransactionRollbackError } from "drizzle-orm";
import { externalIdentities, invitations, people, personIdentities, tenantMemberships, users } from "../../db/schema/index.js";
import { acceptInvitation } from "../../members/invitations.js";
import { findOrCreateUser } from "../../tenants/service.js";
import { SignInRefused } from "./flow.js";
const isMember = (userId) => sql`exists (select 1 from ${tenantMemberships} where ${tenantMemberships.userId} = ${userId})`;
async function accountForProfile(db, provider, profile) {
  const [known] = await db.select({ id: externalIdentities.id, userId: externalIdentities.userId, member: isMember(externalIdentities.userId) }).from(externalIdentities).where(and(eq(externalIdentities.provider, provider), eq(externalIdentities.subject, profile.subject)));
  if (known) {
    let tenantId = null;
    if (!known.member) {
      const [user2] = await db.select({ email: users.email }).from(users).where(eq(users.id, known.userId));
      const joined2 = user2 && profile.verifiedEmails.includes(user2.email) ? await joinByInvitation(db, [user2.email], known.userId) : null;
      if (!joined2) throw new SignInRefused("no_account", "linked user has no tenant membership and no pending invitation");
      tenantId = joined2.tenantId;
    }
    await db.update(externalIdentities).set({ lastSignInAt: sql`now()`, email: profile.email, username: profile.username }).where(eq(externalIdentities.id, known.id));
    return { userId: known.userId, tenantId, linked: false };
  }
  if (profile.verifiedEmails.length === 0) throw new SignInRefused("unverified_email", "no verified e-mail address and no linked identity");
  const candidates = await db.select({ id: users.id, email: users.email }).from(users).where(and(inArray(users.email, profile.verifiedEmails), isMember(users.id)));
  const member = profile.verifiedEmails.map((email) => candidates.find((c) => c.email === email)).find((c) => c !== void 0);
  const joined = member ? null : await joinByInvitation(db, profile.verifiedEmails, null);
  if (!member && !joined) throw new SignInRefused("no_account", "no member and no pending invitation with a verified address of this account");
  const user = { id: member?.id ?? joined.userId };
  await db.insert(externalIdentities).values({ userId: user.id, provider, subject: profile.subject, email: profile.email, username: profile.username }).onConflictDoNothing({ target: [externalIdentities.provider, externalIdentities.subject] });
  const [linked] = await db.select({ userId: externalIdentities.userId }).from(externalIdentities).where(and(eq(externalIdentities.provider, provider), eq(externalIdentities.subject, profile.subject)));
  return { userId: linked.userId, tenantId: joined?.tenantId ?? null, linked: true };
}
async function joinByInvitation(db, emails, userId) {
  const pending = await db.select({ id: invitations.id, email: invitations.email }).from(invitations).where(and(inArray(invitations.email, emails), isNull(invitations.acceptedAt), isNull(invitations.revokedAt), gt(invitations.expiresAt, sql`now()`))).orderBy(desc(invitations.createdAt));
  const email = emails.find((e) => pending.some((p) => p.email === e));
  if (email === void 0) return null;
  return db.transaction(async (tx) => {
    const id = userId ?? await findOrCreateUser(tx, email);
    let tenantId = null;
    for (const invitation of pending.filter((p) => p.email === email)) {
      const accepted = await acceptInvitation(tx, { id: invitation.id }, { id, email });
      tenantId ??= accepted?.tenantId ?? null;
    }
    if (tenantId === null) tx.rollback();
    return { userId: id, tenantId };
  }).catch((error) => {
    if (error instanceof TransactionRollbackError) return null;
    throw error;
  });
}
async function recordCodehostUsername(db, userId, profile) {
  if (profile.username === null || profile.verifiedEmails.length === 0) return 0;
  const emails = profile.verifiedEmails;
  const matches = await db.selectDistinct({ tenantId: people.tenantId, personId: people.id }).from(people).innerJoin(tenantMemberships, and(eq(tenantMemberships.tenantId, people.tenantId), eq(tenantMemberships.userId, userId))).where(or(
    inArray(sql`lower(${people.email})`, emails),
    exists(db.select({ one: sql`1` }).from(personIdentities).where(and(
      eq(personIdentities.personId, people.id),
      eq(personIdentities.kind, "email"),
      inArray(personIdentities.value, emails)
    )))
  )).orderBy(asc(people.tenantId));
  const byTenant = /* @__PURE__ */ new Map();
  for (const m of matches) byTenant.set(m.tenantId, [...byTenant.get(m.tenantId) ?? [], m.personId]);
  const rows = [...byTenant].filter(([, persons]) => persons.length === 1).map(([tenantId, persons]) => ({ tenantId, personId: persons[0], kind: "codehost_username", value: profile.username.toLowerCase(), source: "signin" }));
  if (rows.length === 0) return 0;
  const added = await db.insert(personIdentities).values(rows).onConflictDoNothing().returning({ id: personIdentities.id });
  return added.length;
}
export {
  accountForProfile,
  recordCodehostUsername
};
