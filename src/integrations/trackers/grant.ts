/**
 * A connection's access token, fresh: refreshed a minute before it expires, and once more when the
 * vendor refuses it. The refresh runs under the connection row's lock and re-reads the tokens
 * first, so two syncs refreshing at once do not spend the same rotating refresh token twice (the
 * loser would be refused and wrongly mark the connection as needing a reconnect).
 */
import { eq } from 'drizzle-orm';
import type { TrackerApp } from '../../config/index.js';
import type { Db } from '../../db/client.js';
import { integrationConnections } from '../../db/schema/index.js';
import { replaceTokens, setConnectionState, tokensOf, type Connection } from '../shared/connections.js';
import { flagStale } from './store.js';
import { TrackerGrantRefused, type TrackerVendor } from './types.js';

const EARLY_MS = 60_000;
const NAMES = { jira: 'Jira', linear: 'Linear' } as const;

async function refreshed(db: Db, master: Buffer, vendor: TrackerVendor, app: TrackerApp, id: string, stale: string | null): Promise<string> {
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(integrationConnections).where(eq(integrationConnections.id, id)).for('update');
    if (!row) throw new TrackerGrantRefused('the connection was removed');
    const current = tokensOf(master, row);
    // Someone else refreshed while we waited for the lock: theirs is the token to use.
    if (stale !== null && current.accessToken !== stale) return current.accessToken;
    if (stale === null && current.expiresAt && current.expiresAt.getTime() - EARLY_MS > Date.now()) return current.accessToken;
    if (!current.refreshToken) throw new TrackerGrantRefused(`the ${NAMES[vendor.kind as 'jira']} access token expired and there is no refresh token`);
    const grant = await vendor.refresh(app, current.refreshToken);
    // Atlassian rotates the refresh token on every refresh; a vendor that does not keeps the old one.
    await replaceTokens(tx as unknown as Db, master, row, { accessToken: grant.accessToken, refreshToken: grant.refreshToken ?? current.refreshToken, expiresAt: grant.expiresAt });
    return grant.accessToken;
  });
}

/**
 * Runs `call` with a valid access token. A refusal the refresh cannot repair marks the
 * connection `needs_reconnect` (shown in the settings page and the configuration report) and is
 * thrown on.
 */
export async function withAccess<T>(db: Db, master: Buffer, vendor: TrackerVendor, app: TrackerApp, connection: Connection, call: (accessToken: string) => Promise<T>): Promise<T> {
  try {
    let tokens: ReturnType<typeof tokensOf>;
    try {
      tokens = tokensOf(master, connection);
    } catch {
      // Sealed under another OAUTH_ENCRYPTION_KEY (rotated): only a new grant helps.
      throw new TrackerGrantRefused('the stored tokens cannot be opened with this OAUTH_ENCRYPTION_KEY');
    }
    const dueSoon = tokens.expiresAt !== null && tokens.expiresAt.getTime() - EARLY_MS <= Date.now();
    let token = dueSoon ? await refreshed(db, master, vendor, app, connection.id, null) : tokens.accessToken;
    try {
      return await call(token);
    } catch (error) {
      if (!(error instanceof TrackerGrantRefused) || tokens.refreshToken === null) throw error;
      token = await refreshed(db, master, vendor, app, connection.id, token);
      return await call(token);
    }
  } catch (error) {
    if (error instanceof TrackerGrantRefused) {
      await setConnectionState(db, connection.id, 'needs_reconnect', `${NAMES[vendor.kind]} refused the grant (expired or revoked): an owner must connect again.`);
      await flagStale(db, connection, true);
    }
    throw error;
  }
}
