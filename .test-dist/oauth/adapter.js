import { and, eq, isNull, lt, sql } from "drizzle-orm";
import { errors } from "./oidc.js";
import { mcpGrants, oauthRecords } from "../db/schema/index.js";
import { open, seal, sha256hex } from "./crypto.js";
function postgresAdapter(db, key) {
  return class PostgresAdapter {
    constructor(model) {
      this.model = model;
    }
    model;
    aad(hashedId) {
      return `${this.model}:${hashedId}`;
    }
    async upsert(id, payload, expiresIn) {
      const hashed = sha256hex(id);
      const row = {
        model: this.model,
        id: hashed,
        payload: seal(key, JSON.stringify(payload), this.aad(hashed)),
        grantId: payload.grantId ? sha256hex(payload.grantId) : null,
        uid: payload.uid ? sha256hex(payload.uid) : null,
        userCode: payload.userCode ? sha256hex(payload.userCode) : null,
        expiresAt: expiresIn ? new Date(Date.now() + expiresIn * 1e3) : null
      };
      await db.insert(oauthRecords).values(row).onConflictDoUpdate({
        target: [oauthRecords.model, oauthRecords.id],
        set: { payload: row.payload, grantId: row.grantId, uid: row.uid, userCode: row.userCode, expiresAt: row.expiresAt }
      });
    }
    async load(where) {
      const [row] = await db.select().from(oauthRecords).where(and(eq(oauthRecords.model, this.model), where)).limit(1);
      if (!row) return void 0;
      if (row.expiresAt && row.expiresAt.getTime() <= Date.now()) return void 0;
      let payload;
      try {
        payload = JSON.parse(open(key, row.payload, this.aad(row.id)));
      } catch {
        return void 0;
      }
      return row.consumedAt ? { ...payload, consumed: Math.floor(row.consumedAt.getTime() / 1e3) } : payload;
    }
    find(id) {
      return this.load(eq(oauthRecords.id, sha256hex(id)));
    }
    findByUid(uid) {
      return this.load(eq(oauthRecords.uid, sha256hex(uid)));
    }
    /** The CLI login's device codes (RFC 8628), found by the short code the user confirms. */
    findByUserCode(userCode) {
      return this.load(eq(oauthRecords.userCode, sha256hex(userCode)));
    }
    async consume(id) {
      const hashed = sha256hex(id);
      const won = await db.update(oauthRecords).set({ consumedAt: sql`now()` }).where(and(eq(oauthRecords.model, this.model), eq(oauthRecords.id, hashed), isNull(oauthRecords.consumedAt))).returning({ grantId: oauthRecords.grantId });
      if (won.length > 0) return;
      const [row] = await db.select({ grantId: oauthRecords.grantId }).from(oauthRecords).where(and(eq(oauthRecords.model, this.model), eq(oauthRecords.id, hashed)));
      if (row?.grantId) await revokeHashedGrant(db, row.grantId);
      throw new errors.InvalidGrant("grant already used");
    }
    async destroy(id) {
      await db.delete(oauthRecords).where(and(eq(oauthRecords.model, this.model), eq(oauthRecords.id, sha256hex(id))));
    }
    async revokeByGrantId(grantId) {
      await revokeHashedGrant(db, sha256hex(grantId));
      await db.delete(mcpGrants).where(eq(mcpGrants.grantId, grantId));
    }
  };
}
async function revokeHashedGrant(db, hashedGrantId) {
  await db.delete(oauthRecords).where(eq(oauthRecords.grantId, hashedGrantId));
}
async function purgeExpiredOAuthRecords(db) {
  const expired = await db.delete(oauthRecords).where(lt(oauthRecords.expiresAt, sql`now()`)).returning({ id: oauthRecords.id });
  const grants = await db.delete(mcpGrants).where(lt(mcpGrants.expiresAt, sql`now()`)).returning({ id: mcpGrants.grantId });
  const clients = await db.execute(sql`
    delete from oauth_records c
     where c.model = 'Client' and c.created_at < now() - interval '1 day'
       and not exists (select 1 from mcp_grants g where encode(sha256(convert_to(g.client_id, 'UTF8')), 'hex') = c.id)
    returning 1`);
  return expired.length + grants.length + (clients.rowCount ?? 0);
}
export {
  postgresAdapter,
  purgeExpiredOAuthRecords
};
