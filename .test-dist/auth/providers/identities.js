import { and, asc, eq } from "drizzle-orm";
import { externalIdentities } from "../../db/schema/index.js";
import { AppError, notFound } from "../../errors.js";
function requireSession(principal) {
  if (principal.kind !== "session") throw new AppError("forbidden", "Linked sign-in accounts are managed from a signed-in browser, not with an API key");
}
async function listMyIdentities(db, principal) {
  requireSession(principal);
  return db.select().from(externalIdentities).where(eq(externalIdentities.userId, principal.userId)).orderBy(asc(externalIdentities.createdAt), asc(externalIdentities.id));
}
async function removeMyIdentity(db, principal, id, emailSignIn) {
  requireSession(principal);
  return db.transaction(async (tx) => {
    const mine = await tx.select().from(externalIdentities).where(eq(externalIdentities.userId, principal.userId)).for("update");
    const identity = mine.find((i) => i.id === id);
    if (!identity) throw notFound("Linked account");
    if (mine.length === 1 && !emailSignIn) {
      throw new AppError("conflict", "This is your only way to sign in (e-mail sign-in is not available on this server): sign in with another provider first, then remove this one");
    }
    await tx.delete(externalIdentities).where(and(eq(externalIdentities.id, id), eq(externalIdentities.userId, principal.userId)));
    return identity;
  });
}
const LABELS = { github: "GitHub", gitlab: "GitLab", google: "Google", microsoft: "Microsoft" };
function presentIdentity(i) {
  return {
    id: i.id,
    provider: i.provider,
    providerName: LABELS[i.provider] ?? i.provider,
    username: i.username,
    email: i.email,
    createdAt: i.createdAt.toISOString(),
    lastSignInAt: i.lastSignInAt.toISOString()
  };
}
export {
  listMyIdentities,
  presentIdentity,
  removeMyIdentity
};
