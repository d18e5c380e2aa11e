import { and, eq, isNull, sql } from 'drizzle-orm';
import type { AppContext } from '../context.js';
import type { Db } from '../db/client.js';
import { apiKeys, tenantMemberships } from '../db/schema/index.js';
import { permissionsOf, type TenantPrincipal } from '../auth/principal.js';
import { randomToken, sha256 } from '../auth/secrets.js';

export const API_KEY_PREFIX = 'gai_';
const SHOWN_PREFIX_LENGTH = API_KEY_PREFIX.length + 6;

/** A new key: `gai_` + 32 random bytes in base64url (43 characters). Only its hash is stored. */
export function generateApiKey(): { secret: string; prefix: string; hash: string } {
  const secret = `${API_KEY_PREFIX}${randomToken(32)}`;
  return { secret, prefix: secret.slice(0, SHOWN_PREFIX_LENGTH), hash: sha256(secret) };
}

/** How long a key's principal is reused without reading its row again (the bound on a missed invalidation). */
export const PRINCIPAL_CACHE_MS = 5_000;
/** Keys remembered per instance (least recently used dropped first). */
export const PRINCIPAL_CACHE_ENTRIES = 1_000;

interface Cached {
  principal: TenantPrincipal;
  /** When the row was read (the cache's clock). */
  readAt: number;
  lastUsedAt: Date | null;
}

/**
 * The principals of the API keys this instance authenticated lately, by key hash: a request with
 * a key seen less than `ttlMs` ago skips the key's lookup (one statement, issue 34). Only keys
 * that resolved are kept; an unknown key is looked up every time.
 *
 * How soon a change is seen: a key revoked, its creator's role changed or its creator removed
 * through the API is forgotten at once on the instance that did it (`forgetTenant`) and, through
 * the live NOTIFY channel (`keys.changed`, src/live/hub.ts), on every other instance as soon as the
 * notification arrives; a listener that lost its connection forgets every key (`forgetAll`).
 * Anything else (a revocation by hand in SQL, a notification lost) is seen within `ttlMs`.
 */
export class PrincipalCache {
  private readonly entries = new Map<string, Cached>();
  /** Counts the forgets: a lookup that began before one must not store what it read. */
  private forgets = 0;

  constructor(
    readonly ttlMs = PRINCIPAL_CACHE_MS,
    private readonly maxEntries = PRINCIPAL_CACHE_ENTRIES,
    private readonly now: () => number = () => performance.now(),
  ) {}

  get size(): number {
    return this.entries.size;
  }

  get(hash: string): Cached | null {
    const entry = this.entries.get(hash);
    if (!entry) return null;
    this.entries.delete(hash);
    if (this.now() - entry.readAt >= this.ttlMs) return null;
    this.entries.set(hash, entry); // most recently used last
    return entry;
  }

  /**
   * Taken before a key's row is read: its moment (the entry ages from the read, not from the store)
   * and the forgets so far.
   */
  begin(): { readAt: number; forgets: number } {
    return { readAt: this.now(), forgets: this.forgets };
  }

  /**
   * Keeps what a lookup read, unless a forget came between its `begin` and now: a key revoked (or
   * its creator demoted) while the lookup was in flight must not be kept as it was before.
   */
  set(hash: string, principal: TenantPrincipal, lastUsedAt: Date | null, read: { readAt: number; forgets: number } = this.begin()): void {
    if (read.forgets !== this.forgets) return;
    this.entries.delete(hash);
    this.entries.set(hash, { principal, readAt: read.readAt, lastUsedAt });
    while (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
  }

  /** Forgets every key of the tenant (a key revoked, a member's role changed or a member removed). */
  forgetTenant(tenantId: string): void {
    this.forgets += 1;
    for (const [hash, entry] of this.entries) if (entry.principal.tenantId === tenantId) this.entries.delete(hash);
  }

  forgetAll(): void {
    this.forgets += 1;
    this.entries.clear();
  }
}

/** One cache per database handle, i.e. per instance (a test's second server has its own). */
const caches = new WeakMap<Db, PrincipalCache>();

export function principalCache(db: Db): PrincipalCache {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new PrincipalCache()));
  return cache;
}

/** For tests: this instance's cache with another bound or clock. */
export function setPrincipalCache(db: Db, cache: PrincipalCache): void {
  caches.set(db, cache);
}

/**
 * After a change to who a tenant's keys act as (a key revoked, a member's role changed, a member
 * removed) has committed: forgets the tenant's keys here and tells every other instance to
 * (`keys.changed` on the live channel; src/live/hub.ts forgets them on receipt).
 */
export async function keysChanged(app: AppContext, tenantId: string): Promise<void> {
  principalCache(app.database.db).forgetTenant(tenantId);
  // The change is made: a lost notification leaves the other instances the cache's bound (5 s),
  // which is no reason to answer the change with an error.
  await app.live.publish(tenantId, { kind: 'keys.changed' }).catch((err: unknown) => app.log.warn({ err, tenantId }, 'keys.changed not published; other instances see the change within the cache bound'));
}

/**
 * The principal of a bearer API key, or null. The key carries the role its creator holds in the
 * key's tenant now (a demoted or removed creator's key loses the abilities with them). The row is
 * read again at most every PRINCIPAL_CACHE_MS; a revocation through the API is seen at once (see
 * PrincipalCache).
 */
export async function principalFromApiKey(db: Db, secret: string): Promise<TenantPrincipal | null> {
  if (!secret.startsWith(API_KEY_PREFIX)) return null;
  const hash = sha256(secret);
  const cache = principalCache(db);
  const cached = cache.get(hash);
  if (cached && cached.lastUsedAt && Date.now() - cached.lastUsedAt.getTime() <= 60_000) return cached.principal;
  // One lookup per key at a time: when the entry ages out under load (one key serves a whole
  // organisation's telemetry), the requests meanwhile share it rather than each reading the row
  // and queueing on its last_used_at update. A lookup that began before a forget is not shared
  // by a request arriving after it.
  let lookups = inFlight.get(db);
  if (!lookups) inFlight.set(db, (lookups = new Map()));
  const forgets = cache.begin().forgets;
  const shared = lookups.get(hash);
  if (shared && shared.forgets === forgets) return shared.lookup;
  const lookup = lookUp(db, cache, hash).finally(() => {
    if (lookups.get(hash)?.lookup === lookup) lookups.delete(hash);
  });
  lookups.set(hash, { lookup, forgets });
  return lookup;
}

const inFlight = new WeakMap<Db, Map<string, { lookup: Promise<TenantPrincipal | null>; forgets: number }>>();

async function lookUp(db: Db, cache: PrincipalCache, hash: string): Promise<TenantPrincipal | null> {
  const read = cache.begin();
  const rows = await db
    .select({ id: apiKeys.id, tenantId: apiKeys.tenantId, userId: apiKeys.userId, role: tenantMemberships.role, lastUsedAt: apiKeys.lastUsedAt })
    .from(apiKeys)
    .innerJoin(tenantMemberships, and(eq(tenantMemberships.tenantId, apiKeys.tenantId), eq(tenantMemberships.userId, apiKeys.userId)))
    .where(and(eq(apiKeys.keyHash, hash), isNull(apiKeys.revokedAt)))
    .limit(1);
  const row = rows[0];
  if (!row) return null;
  let lastUsedAt = row.lastUsedAt;
  // last_used_at is shown to people, so minute precision is enough and saves a write per request.
  if (!lastUsedAt || Date.now() - lastUsedAt.getTime() > 60_000) {
    await db.update(apiKeys).set({ lastUsedAt: sql`now()` }).where(eq(apiKeys.id, row.id));
    lastUsedAt = new Date();
  }
  const principal: TenantPrincipal = { kind: 'api_key', tenantId: row.tenantId, userId: row.userId, role: row.role, permissions: permissionsOf(row.role), apiKeyId: row.id };
  cache.set(hash, principal, lastUsedAt, read);
  return principal;
}
