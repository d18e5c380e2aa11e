import { and, eq, isNull, lt, sql } from 'drizzle-orm';
import { errors, type Adapter, type AdapterPayload } from './oidc.js';
import type { Db } from '../db/client.js';
import { mcpGrants, oauthRecords } from '../db/schema/index.js';
import { open, seal, sha256hex } from '../auth/crypto.js';

/**
 * oidc-provider's storage in PostgreSQL, so any instance can continue any step of a flow.
 * - Ids are stored as sha256(id): for opaque tokens, codes, sessions and interactions the id is
 *   the bearer value itself, and a database dump must not hand out live tokens.
 * - Payloads are AES-256-GCM ciphertext bound to (model, hashed id).
 * - `consume` is one conditional UPDATE: of two concurrent redemptions of a code or refresh token
 *   (on two instances) exactly one wins; the loser gets invalid_grant and, as for any reuse, the
 *   whole grant is revoked.
 */
export function postgresAdapter(db: Db, key: Buffer): new (model: string) => Adapter {
  return class PostgresAdapter implements Adapter {
    constructor(private readonly model: string) {}

    private aad(hashedId: string): string {
      return `${this.model}:${hashedId}`;
    }

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      const hashed = sha256hex(id);
      const row = {
        model: this.model,
        id: hashed,
        payload: seal(key, JSON.stringify(payload), this.aad(hashed)),
        grantId: payload.grantId ? sha256hex(payload.grantId) : null,
        uid: payload.uid ? sha256hex(payload.uid) : null,
        userCode: payload.userCode ? sha256hex(payload.userCode) : null,
        expiresAt: expiresIn ? new Date(Date.now() + expiresIn * 1000) : null,
      };
      await db
        .insert(oauthRecords)
        .values(row)
        .onConflictDoUpdate({
          target: [oauthRecords.model, oauthRecords.id],
          set: { payload: row.payload, grantId: row.grantId, uid: row.uid, userCode: row.userCode, expiresAt: row.expiresAt },
        });
    }

    private async load(where: ReturnType<typeof eq>): Promise<AdapterPayload | undefined> {
      const [row] = await db
        .select()
        .from(oauthRecords)
        .where(and(eq(oauthRecords.model, this.model), where))
        .limit(1);
      if (!row) return undefined;
      if (row.expiresAt && row.expiresAt.getTime() <= Date.now()) return undefined;
      let payload: AdapterPayload;
      try {
        payload = JSON.parse(open(key, row.payload, this.aad(row.id))) as AdapterPayload;
      } catch {
        // Tampered, moved or sealed under another key: the record does not exist for us.
        return undefined;
      }
      return row.consumedAt ? { ...payload, consumed: Math.floor(row.consumedAt.getTime() / 1000) } : payload;
    }

    find(id: string): Promise<AdapterPayload | undefined> {
      return this.load(eq(oauthRecords.id, sha256hex(id)));
    }

    findByUid(uid: string): Promise<AdapterPayload | undefined> {
      return this.load(eq(oauthRecords.uid, sha256hex(uid)));
    }

    /** The CLI login's device codes (RFC 8628), found by the short code the user confirms. */
    findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
      return this.load(eq(oauthRecords.userCode, sha256hex(userCode)));
    }

    async consume(id: string): Promise<void> {
      const hashed = sha256hex(id);
      const won = await db
        .update(oauthRecords)
        .set({ consumedAt: sql`now()` })
        .where(and(eq(oauthRecords.model, this.model), eq(oauthRecords.id, hashed), isNull(oauthRecords.consumedAt)))
        .returning({ grantId: oauthRecords.grantId });
      if (won.length > 0) return;
      const [row] = await db
        .select({ grantId: oauthRecords.grantId })
        .from(oauthRecords)
        .where(and(eq(oauthRecords.model, this.model), eq(oauthRecords.id, hashed)));
      if (row?.grantId) await revokeHashedGrant(db, row.grantId);
      throw new errors.InvalidGrant('grant already used');
    }

    async destroy(id: string): Promise<void> {
      await db.delete(oauthRecords).where(and(eq(oauthRecords.model, this.model), eq(oauthRecords.id, sha256hex(id))));
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await revokeHashedGrant(db, sha256hex(grantId));
      await db.delete(mcpGrants).where(eq(mcpGrants.grantId, grantId));
    }
  };
}

async function revokeHashedGrant(db: Db, hashedGrantId: string): Promise<void> {
  await db.delete(oauthRecords).where(eq(oauthRecords.grantId, hashedGrantId));
}

/**
 * Deletes expired provider records and tenant bindings, and registered clients that never
 * obtained a grant within a day. Meant for a daily scheduled job; returns the rows removed.
 */
export async function purgeExpiredOAuthRecords(db: Db): Promise<number> {
  const expired = await db.delete(oauthRecords).where(lt(oauthRecords.expiresAt, sql`now()`)).returning({ id: oauthRecords.id });
  const grants = await db.delete(mcpGrants).where(lt(mcpGrants.expiresAt, sql`now()`)).returning({ id: mcpGrants.grantId });
  const clients = await db.execute(sql`
    delete from oauth_records c
     where c.model = 'Client' and c.created_at < now() - interval '1 day'
       and not exists (select 1 from mcp_grants g where encode(sha256(convert_to(g.client_id, 'UTF8')), 'hex') = c.id)
    returning 1`);
  return expired.length + grants.length + (clients.rowCount ?? 0);
}
