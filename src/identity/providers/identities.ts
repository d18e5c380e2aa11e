/**
 * A user's own linked sign-in accounts (Settings › Account): listed and removed by the user, never
 * by anyone else. They belong to the user, not to a tenant, so the floor here is the user id: another
 * user's identity is "not found". Only a signed-in browser manages them (an API key is refused).
 */
import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { externalIdentities } from '../../db/schema/index.js';
import { AppError, notFound } from '../../errors.js';
import type { TenantPrincipal } from '../../auth/principal.js';

export type ExternalIdentity = typeof externalIdentities.$inferSelect;

function requireSession(principal: TenantPrincipal): void {
  if (principal.kind !== 'session') throw new AppError('forbidden', 'Linked sign-in accounts are managed from a signed-in browser, not with an API key');
}

/** The user's linked accounts, oldest first. */
export async function listMyIdentities(db: Db, principal: TenantPrincipal): Promise<ExternalIdentity[]> {
  requireSession(principal);
  return db.select().from(externalIdentities).where(eq(externalIdentities.userId, principal.userId)).orderBy(asc(externalIdentities.createdAt), asc(externalIdentities.id));
}

/**
 * Unlinks one of the user's accounts. The last one is kept (409) when e-mail sign-in is not
 * available on this server, so nobody removes their only way back in; the user's identities are
 * locked first, so two removals at once cannot both pass that check.
 */
export async function removeMyIdentity(db: Db, principal: TenantPrincipal, id: string, emailSignIn: boolean): Promise<ExternalIdentity> {
  requireSession(principal);
  return db.transaction(async (tx) => {
    const mine = await tx.select().from(externalIdentities).where(eq(externalIdentities.userId, principal.userId)).for('update');
    const identity = mine.find((i) => i.id === id);
    if (!identity) throw notFound('Linked account');
    if (mine.length === 1 && !emailSignIn) {
      throw new AppError('conflict', 'This is your only way to sign in (e-mail sign-in is not available on this server): sign in with another provider first, then remove this one');
    }
    await tx.delete(externalIdentities).where(and(eq(externalIdentities.id, id), eq(externalIdentities.userId, principal.userId)));
    return identity;
  });
}

const LABELS: Record<string, string> = { github: 'GitHub', gitlab: 'GitLab', google: 'Google', microsoft: 'Microsoft' };

/** The wire shape (docs/auth-providers.md "Linked accounts"); never the provider's subject. */
export function presentIdentity(i: ExternalIdentity) {
  return {
    id: i.id,
    provider: i.provider,
    providerName: LABELS[i.provider] ?? i.provider,
    username: i.username,
    email: i.email,
    createdAt: i.createdAt.toISOString(),
    lastSignInAt: i.lastSignInAt.toISOString(),
  };
}
