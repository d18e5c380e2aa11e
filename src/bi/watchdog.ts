/**
 * The BI watchdog (docs/bi.md "Tenant floor"): a client may SET its statement_timeout or
 * idle_in_transaction_session_timeout higher than its credential allows, and the views refuse to
 * read then; this closes what that check leaves open. It cancels a BI role's statement running
 * longer than the credential's limit and ends a session idle in a transaction for longer, on the
 * primary and on DATABASE_URL_BI (where BI sessions run on a replica).
 */
import pg from 'pg';

export interface Stopped {
  user: string;
  /** `cancel` a running statement (pg_cancel_backend); `terminate` a session idle in a transaction. */
  action: 'cancel' | 'terminate';
}

// Every BI role is named in bi_credentials (with its limit); nothing else is ever signalled.
const SWEEP = `
  SELECT a.usename AS "user",
         CASE WHEN a.state = 'active' THEN 'cancel' ELSE 'terminate' END AS action,
         CASE WHEN a.state = 'active' THEN pg_cancel_backend(a.pid) ELSE pg_terminate_backend(a.pid) END AS signalled
  FROM pg_stat_activity a
  JOIN bi_credentials r ON r.role_name = a.usename
  WHERE a.backend_type = 'client backend'
    AND ((a.state = 'active' AND a.query_start < clock_timestamp() - make_interval(secs => (r.statement_timeout_ms + $1) / 1000.0))
      OR (a.state LIKE 'idle in transaction%' AND a.state_change < clock_timestamp() - make_interval(secs => (r.statement_timeout_ms + $1) / 1000.0)))
  ORDER BY a.usename, a.pid`;

/**
 * Stops what ran past its credential's limit (plus `graceMs`, so the session's own timeout fires
 * first when it is in place) on the given database; returns what was stopped.
 */
export async function stopOverrunningBiSessions(db: Pick<pg.Pool, 'query'>, graceMs = 1000): Promise<Stopped[]> {
  const { rows } = await db.query<Stopped & { signalled: boolean }>(SWEEP, [graceMs]);
  return rows.filter((r) => r.signalled).map(({ user, action }) => ({ user, action }));
}

/** The same on the replica BI sessions use (pg_cancel_backend works on a standby). */
export async function stopOverrunningBiSessionsAt(url: string, graceMs = 1000): Promise<Stopped[]> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  client.on('error', () => {});
  await client.connect();
  try {
    return await stopOverrunningBiSessions(client, graceMs);
  } finally {
    await client.end().catch(() => {});
  }
}
