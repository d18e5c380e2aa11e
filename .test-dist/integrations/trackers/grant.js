import { eq } from "drizzle-orm";
import { integrationConnections } from "../../db/schema/index.js";
import { replaceTokens, setConnectionState, tokensOf } from "../shared/connections.js";
import { flagStale } from "./store.js";
import { TrackerGrantRefused } from "./types.js";
const EARLY_MS = 6e4;
const NAMES = { jira: "Jira", linear: "Linear" };
async function refreshed(db, master, vendor, app, id, stale) {
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(integrationConnections).where(eq(integrationConnections.id, id)).for("update");
    if (!row) throw new TrackerGrantRefused("the connection was removed");
    const current = tokensOf(master, row);
    if (stale !== null && current.accessToken !== stale) return current.accessToken;
    if (stale === null && current.expiresAt && current.expiresAt.getTime() - EARLY_MS > Date.now()) return current.accessToken;
    if (!current.refreshToken) throw new TrackerGrantRefused(`the ${NAMES[vendor.kind]} access token expired and there is no refresh token`);
    const grant = await vendor.refresh(app, current.refreshToken);
    await replaceTokens(tx, master, row, { accessToken: grant.accessToken, refreshToken: grant.refreshToken ?? current.refreshToken, expiresAt: grant.expiresAt });
    return grant.accessToken;
  });
}
async function withAccess(db, master, vendor, app, connection, call) {
  try {
    let tokens;
    try {
      tokens = tokensOf(master, connection);
    } catch {
      throw new TrackerGrantRefused("the stored tokens cannot be opened with this OAUTH_ENCRYPTION_KEY");
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
      await setConnectionState(db, connection.id, "needs_reconnect", `${NAMES[vendor.kind]} refused the grant (expired or revoked): an owner must connect again.`);
      await flagStale(db, connection, true);
    }
    throw error;
  }
}
export {
  withAccess
};
