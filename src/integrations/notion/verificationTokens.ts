/**
 * Notion's webhook verification token, kept for the operator. Creating a webhook subscription (or
 * "Resend token") makes Notion POST `{verification_token}` once to the webhook URL; that token is
 * then both what the operator pastes into Notion's "Verify" form and the signing secret of every
 * delivery (DOCS_WEBHOOK_SECRET). The operator cannot set the variable before the token exists, so
 * the handshake is accepted even without it and the token kept here, sealed, until the operator
 * reads it once (`delivery-analytics notion:verification-token`). It is a secret of the
 * deployment's integration, shared by every tenant's workspace: never shown in a tenant's settings,
 * never logged.
 *
 * The handshake is unsigned, so anyone can post one: it is rate-limited (webhook.ts), only the
 * newest few are kept, for a day, and the command shows each with its arrival time beside it
 * (Notion's own comes when the subscription is created or its token resent).
 */
import { desc, lt, notInArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { docsVerificationTokens } from '../../db/schema/index.js';
import { derive, open, seal } from '../../auth/crypto.js';

const KEEP = 5;
const KEEP_HOURS = 24;
const AAD = 'notion-webhook-verification-token';

const keys = new WeakMap<Buffer, Buffer>();
function keyOf(master: Buffer): Buffer {
  let key = keys.get(master);
  if (!key) keys.set(master, (key = derive(master, 'docs-verification-token')));
  return key;
}

/** Keeps a token Notion (or someone) posted; the oldest beyond the newest five, and any older than a day, go. */
export async function keepVerificationToken(db: Db, master: Buffer, token: string): Promise<void> {
  await db.transaction(async (tx) => {
    // One keeper at a time: concurrent keepers each miss the others' uncommitted rows when they
    // trim, and more than five would stay (7 of 200 concurrent handshakes were kept without it).
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended('docs_verification_tokens', 0))`);
    await tx.insert(docsVerificationTokens).values({ tokenSealed: seal(keyOf(master), token, AAD) });
    const newest = tx.select({ id: docsVerificationTokens.id }).from(docsVerificationTokens).orderBy(desc(docsVerificationTokens.receivedAt)).limit(KEEP);
    await tx.delete(docsVerificationTokens).where(notInArray(docsVerificationTokens.id, newest));
    await tx.delete(docsVerificationTokens).where(lt(docsVerificationTokens.receivedAt, sql`now() - make_interval(hours => ${KEEP_HOURS})`));
  });
}

export interface ReceivedToken {
  receivedAt: Date;
  /** Null when it no longer opens (OAUTH_ENCRYPTION_KEY changed since). */
  token: string | null;
}

/** The kept tokens, newest first, removed as they are read: each is shown once. */
export async function takeVerificationTokens(db: Db, master: Buffer): Promise<ReceivedToken[]> {
  const rows = await db.delete(docsVerificationTokens).returning();
  const fresh = rows.filter((r) => r.receivedAt.getTime() > Date.now() - KEEP_HOURS * 3600_000).sort((a, b) => b.receivedAt.getTime() - a.receivedAt.getTime());
  return fresh.map((r) => {
    try {
      return { receivedAt: r.receivedAt, token: open(keyOf(master), r.tokenSealed, AAD) };
    } catch {
      return { receivedAt: r.receivedAt, token: null };
    }
  });
}
