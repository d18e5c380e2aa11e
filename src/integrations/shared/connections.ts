/**
 * The stored OAuth connections of tenants to vendors (table integration_connections). Tokens are
 * sealed here and nowhere else, so no other module ever holds a token column: callers get plain
 * tokens from `tokensOf` only when they are about to call the vendor.
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import { hkdfSync } from 'node:crypto';
import type { Db } from '../../db/client.js';
import { integrationConnections, type ConnectionState, type IntegrationKind } from '../../db/schema/index.js';
import { open, seal } from '../../auth/crypto.js';

export type Connection = typeof integrationConnections.$inferSelect;

export interface ConnectionTokens {
  accessToken: string;
  refreshToken: string | null;
  expiresAt: Date | null;
}

export interface NewConnection extends ConnectionTokens {
  tenantId: string;
  kind: IntegrationKind;
  externalId: string;
  displayName: string | null;
  scopes: string | null;
  connectedBy: string | null;
  settings?: Record<string, unknown>;
}

const keys = new WeakMap<Buffer, Buffer>();
/** A key of its own (HKDF from OAUTH_ENCRYPTION_KEY), so the OAuth server's keys are never reused. */
export function tokenKey(master: Buffer): Buffer {
  let key = keys.get(master);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), 'delivery-analytics/integration-tokens', 32));
    keys.set(master, key);
  }
  return key;
}

const aadOf = (c: { tenantId: string; kind: string; externalId: string }, which: 'access' | 'refresh') => `${c.tenantId}\n${c.kind}\n${c.externalId}\n${which}`;

function sealTokens(master: Buffer, c: NewConnection) {
  const key = tokenKey(master);
  return {
    accessTokenSealed: seal(key, c.accessToken, aadOf(c, 'access')),
    refreshTokenSealed: c.refreshToken === null ? null : seal(key, c.refreshToken, aadOf(c, 'refresh')),
    tokenExpiresAt: c.expiresAt,
  };
}

/**
 * Connecting the same site or workspace again replaces its tokens and clears a needs-reconnect
 * state, keeping the owner's settings: reconnecting is how an owner repairs a revoked grant.
 */
export async function saveConnection(db: Db, master: Buffer, c: NewConnection): Promise<Connection> {
  const sealed = sealTokens(master, c);
  const [row] = await db
    .insert(integrationConnections)
    .values({ ...sealed, tenantId: c.tenantId, kind: c.kind, externalId: c.externalId, displayName: c.displayName, scopes: c.scopes, connectedBy: c.connectedBy, settings: c.settings ?? {} })
    .onConflictDoUpdate({
      target: [integrationConnections.tenantId, integrationConnections.kind, integrationConnections.externalId],
      set: { ...sealed, displayName: c.displayName, scopes: c.scopes, connectedBy: c.connectedBy, state: 'active', stateDetail: null, lastError: null, updatedAt: sql`now()` },
    })
    .returning();
  return row!;
}

export function tokensOf(master: Buffer, c: Connection): ConnectionTokens {
  const key = tokenKey(master);
  return {
    accessToken: open(key, c.accessTokenSealed, aadOf(c, 'access')),
    refreshToken: c.refreshTokenSealed === null ? null : open(key, c.refreshTokenSealed, aadOf(c, 'refresh')),
    expiresAt: c.tokenExpiresAt,
  };
}

/** After a refresh: the vendor may rotate the refresh token too (Jira does, on every refresh). */
export async function replaceTokens(db: Db, master: Buffer, c: Connection, tokens: ConnectionTokens): Promise<void> {
  const sealed = sealTokens(master, { ...c, ...tokens, displayName: c.displayName, scopes: c.scopes, connectedBy: c.connectedBy });
  await db.update(integrationConnections).set({ ...sealed, updatedAt: sql`now()` }).where(eq(integrationConnections.id, c.id));
}

export async function connectionsOf(db: Db, tenantId: string, kind?: IntegrationKind): Promise<Connection[]> {
  return db
    .select()
    .from(integrationConnections)
    .where(and(eq(integrationConnections.tenantId, tenantId), kind ? eq(integrationConnections.kind, kind) : undefined))
    .orderBy(integrationConnections.kind, integrationConnections.createdAt);
}

/**
 * The active connections of a kind (or of several): one tenant's, or every tenant's when `tenantId`
 * is left out (the scheduled fan-outs, which run it as `asSystem('schedule')`). Oldest first.
 */
export async function activeConnections(db: Db, kinds: IntegrationKind | readonly IntegrationKind[], tenantId?: string): Promise<Connection[]> {
  return db
    .select()
    .from(integrationConnections)
    .where(and(
      inArray(integrationConnections.kind, typeof kinds === 'string' ? [kinds] : [...kinds]),
      eq(integrationConnections.state, 'active'),
      tenantId === undefined ? undefined : eq(integrationConnections.tenantId, tenantId),
    ))
    .orderBy(integrationConnections.createdAt, integrationConnections.id);
}

export async function connectionById(db: Db, tenantId: string, id: string): Promise<Connection | null> {
  const [row] = await db
    .select()
    .from(integrationConnections)
    .where(and(eq(integrationConnections.tenantId, tenantId), eq(integrationConnections.id, id)));
  return row ?? null;
}

/**
 * The connection an inbound vendor request names (Slack team id, Linear organization id): the
 * tenant is not known yet, so this is the one lookup across tenants, run as
 * `asSystem('inbound-routing')` by its caller.
 */
export async function connectionByExternalId(db: Db, kind: IntegrationKind, externalId: string): Promise<Connection | null> {
  const [row] = await db
    .select()
    .from(integrationConnections)
    .where(and(eq(integrationConnections.kind, kind), eq(integrationConnections.externalId, externalId)))
    .limit(1);
  return row ?? null;
}

export async function setConnectionState(db: Db, id: string, state: ConnectionState, detail: string | null): Promise<void> {
  await db.update(integrationConnections).set({ state, stateDetail: detail, updatedAt: sql`now()` }).where(eq(integrationConnections.id, id));
}

export async function updateSettings(db: Db, id: string, settings: Record<string, unknown>): Promise<void> {
  await db.update(integrationConnections).set({ settings, updatedAt: sql`now()` }).where(eq(integrationConnections.id, id));
}

/** `error` null records a clean sync; otherwise a short, token-free description for the settings page. */
export async function recordSync(db: Db, id: string, error: string | null): Promise<void> {
  await db
    .update(integrationConnections)
    .set(error === null ? { lastSyncAt: sql`now()`, lastError: null, updatedAt: sql`now()` } : { lastError: error.slice(0, 500), updatedAt: sql`now()` })
    .where(eq(integrationConnections.id, id));
}

export async function deleteConnection(db: Db, tenantId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(integrationConnections)
    .where(and(eq(integrationConnections.tenantId, tenantId), eq(integrationConnections.id, id)))
    .returning({ id: integrationConnections.id });
  return rows.length > 0;
}

/** What the settings page and the API show: never a token, sealed or not. */
export function presentConnection(c: Connection) {
  return {
    id: c.id,
    kind: c.kind,
    externalId: c.externalId,
    displayName: c.displayName,
    state: c.state,
    stateDetail: c.stateDetail,
    lastSyncAt: c.lastSyncAt?.toISOString() ?? null,
    lastError: c.lastError,
    settings: c.settings,
    createdAt: c.createdAt.toISOString(),
  };
}
