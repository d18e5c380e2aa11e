import { desc, lt, notInArray, sql } from "drizzle-orm";
import { docsVerificationTokens } from "../../db/schema/index.js";
import { derive, open, seal } from "../../oauth/crypto.js";
const KEEP = 5;
const KEEP_HOURS = 24;
const AAD = "notion-webhook-verification-token";
const keys = /* @__PURE__ */ new WeakMap();
function keyOf(master) {
  let key = keys.get(master);
  if (!key) keys.set(master, key = derive(master, "docs-verification-token"));
  return key;
}
async function keepVerificationToken(db, master, token) {
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended('docs_verification_tokens', 0))`);
    await tx.insert(docsVerificationTokens).values({ tokenSealed: seal(keyOf(master), token, AAD) });
    const newest = tx.select({ id: docsVerificationTokens.id }).from(docsVerificationTokens).orderBy(desc(docsVerificationTokens.receivedAt)).limit(KEEP);
    await tx.delete(docsVerificationTokens).where(notInArray(docsVerificationTokens.id, newest));
    await tx.delete(docsVerificationTokens).where(lt(docsVerificationTokens.receivedAt, sql`now() - make_interval(hours => ${KEEP_HOURS})`));
  });
}
async function takeVerificationTokens(db, master) {
  const rows = await db.delete(docsVerificationTokens).returning();
  const fresh = rows.filter((r) => r.receivedAt.getTime() > Date.now() - KEEP_HOURS * 36e5).sort((a, b) => b.receivedAt.getTime() - a.receivedAt.getTime());
  return fresh.map((r) => {
    try {
      return { receivedAt: r.receivedAt, token: open(keyOf(master), r.tokenSealed, AAD) };
    } catch {
      return { receivedAt: r.receivedAt, token: null };
    }
  });
}
export {
  keepVerificationToken,
  takeVerificationTokens
};
