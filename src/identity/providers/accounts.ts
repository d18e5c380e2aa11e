/**
 * Who a provider's account is here. An external identity is keyed by (provider, subject), never by
 * e-mail alone: a known (provider, subject) signs in its user; a first sign-in links to the user of
 * an address the provider has **verified**, and only to someone who may sign in (a member of some
 * tenant). Someone else is admitted only by a pending invitation to a verified address (every
 * pending invitation of that address is accepted); anyone else is refused and nothing is created.
 * Decisions: docs/auth.md.
 */
import { and, asc, desc, eq, exists, gt, inArray, isNull, or, sql, TransactionRollbackError, type AnyColumn } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { externalIdentities, invitations, people, personIdentities, tenantMemberships, users } from '../../db/schema/index.js';
import { acceptInvitation } from '../../members/invitations.js';
import { findOrCreateUser } from '../../tenants/service.js';
import type { ProviderId, ProviderProfile } from './provider.js';
import { SignInRefused } from './flow.js';

export interface SignedInAccount {
  userId: string;
  /** The tenant the session should act in (an invitation just accepted), else null: the user's oldest membership. */
  tenantId: string | null;
  /** The identity was linked by this sign-in. */
  linked: boolean;
}

/** Whether the user may sign in at all: a member of some tenant (as for the magic link). */
const isMember = (userId: AnyColumn) => sql<boolean>`exists (select 1 from ${tenantMemberships} where ${tenantMemberships.userId} = ${userId})`;

/** Resolves (and on first use links) the account; throws SignInRefused `unverified_email` or `no_account`. */
export async function accountForProfile(db: Db, provider: ProviderId, profile: ProviderProfile): Promise<SignedInAccount> {
  const [known] = await db
    .select({ id: externalIdentities.id, userId: externalIdentities.userId, member: isMember(externalIdentities.userId) })
    .from(externalIdentities)
    .where(and(eq(externalIdentities.provider, provider), eq(externalIdentities.subject, profile.subject)));
  if (known) {
    let tenantId: string | null = null;
    if (!known.member) {
      // A linked person who lost every membership comes back only through an invitation to their own, verified address.
      const [user] = await db.select({ email: users.email }).from(users).where(eq(users.id, known.userId));
      const joined = user && profile.verifiedEmails.includes(user.email) ? await joinByInvitation(db, [user.email], known.userId) : null;
      if (!joined) throw new SignInRefused('no_account', 'linked user has no tenant membership and no pending invitation');
      tenantId = joined.tenantId;
    }
    await db.update(externalIdentities).set({ lastSignInAt: sql`now()`, email: profile.email, username: profile.username }).where(eq(externalIdentities.id, known.id));
    return { userId: known.userId, tenantId, linked: false };
  }

  if (profile.verifiedEmails.length === 0) throw new SignInRefused('unverified_email', 'no verified e-mail address and no linked identity');
  const candidates = await db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(and(inArray(users.email, profile.verifiedEmails), isMember(users.id)));
  // The provider's order decides between several accounts (GitHub: the primary address first).
  const member = profile.verifiedEmails.map((email) => candidates.find((c) => c.email === email)).find((c) => c !== undefined);
  const joined = member ? null : await joinByInvitation(db, profile.verifiedEmails, null);
  if (!member && !joined) throw new SignInRefused('no_account', 'no member and no pending invitation with a verified address of this account');
  const user = { id: member?.id ?? (joined as { userId: string }).userId };
  await db
    .insert(externalIdentities)
    .values({ userId: user.id, provider, subject: profile.subject, email: profile.email, username: profile.username })
    .onConflictDoNothing({ target: [externalIdentities.provider, externalIdentities.subject] });
  // A sign-in racing this one may have linked the identity first (to the same user: same addresses).
  const [linked] = await db.select({ userId: externalIdentities.userId }).from(externalIdentities)
    .where(and(eq(externalIdentities.provider, provider), eq(externalIdentities.subject, profile.subject)));
  return { userId: (linked as { userId: string }).userId, tenantId: joined?.tenantId ?? null, linked: true };
}

/**
 * Accepts the pending invitations of the first of `emails` (the provider's order) that has any,
 * for `userId` or a user created for that address, in one transaction: when none can be accepted
 * any more (revoked or used meanwhile), nothing is created. Returns the tenant of the newest one.
 */
async function joinByInvitation(db: Db, emails: string[], userId: string | null): Promise<{ userId: string; tenantId: string } | null> {
  const pending = await db
    .select({ id: invitations.id, email: invitations.email })
    .from(invitations)
    .where(and(inArray(invitations.email, emails), isNull(invitations.acceptedAt), isNull(invitations.revokedAt), gt(invitations.expiresAt, sql`now()`)))
    .orderBy(desc(invitations.createdAt));
  const email = emails.find((e) => pending.some((p) => p.email === e));
  if (email === undefined) return null;
  return db
    .transaction(async (tx) => {
      const id = userId ?? (await findOrCreateUser(tx, email));
      let tenantId: string | null = null;
      for (const invitation of pending.filter((p) => p.email === email)) {
        const accepted = await acceptInvitation(tx, { id: invitation.id }, { id, email });
        tenantId ??= accepted?.tenantId ?? null;
      }
      if (tenantId === null) tx.rollback();
      return { userId: id, tenantId: tenantId as string };
    })
    .catch((error: unknown) => {
      if (error instanceof TransactionRollbackError) return null;
      throw error;
    });
}

/**
 * A code host's username becomes a person identity (kind `codehost_username`, source `signin`) in
 * each tenant of the user where exactly one person is known by one of the verified addresses (their
 * register e-mail or an e-mail identity), so their pull requests and commits are attributed
 * (METRICS.md "Identity"). A username that already identifies someone in that tenant is left alone.
 * Returns the number of identities added.
 */
export async function recordCodehostUsername(db: Db, userId: string, profile: ProviderProfile): Promise<number> {
  if (profile.username === null || profile.verifiedEmails.length === 0) return 0;
  const emails = profile.verifiedEmails;
  const matches = await db
    .selectDistinct({ tenantId: people.tenantId, personId: people.id })
    .from(people)
    .innerJoin(tenantMemberships, and(eq(tenantMemberships.tenantId, people.tenantId), eq(tenantMemberships.userId, userId)))
    .where(or(
      inArray(sql`lower(${people.email})`, emails),
      exists(db.select({ one: sql`1` }).from(personIdentities).where(and(
        eq(personIdentities.personId, people.id), eq(personIdentities.kind, 'email'), inArray(personIdentities.value, emails),
      ))),
    ))
    .orderBy(asc(people.tenantId));
  const byTenant = new Map<string, string[]>();
  for (const m of matches) byTenant.set(m.tenantId, [...(byTenant.get(m.tenantId) ?? []), m.personId]);
  const rows = [...byTenant].filter(([, persons]) => persons.length === 1)
    .map(([tenantId, persons]) => ({ tenantId, personId: persons[0] as string, kind: 'codehost_username' as const, value: (profile.username as string).toLowerCase(), source: 'signin' as const }));
  if (rows.length === 0) return 0;
  const added = await db.insert(personIdentities).values(rows).onConflictDoNothing().returning({ id: personIdentities.id });
  return added.length;
}
