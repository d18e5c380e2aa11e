/**
 * The BI watchdog (docs/bi-isolation.md "Tenant floor"): a client may SET its statement_timeout or
 * idle_in_transaction_session_timeout higher than its credential allows, in the BI database
 * (where no view checks them) as anywhere. It cancels a BI role's statement running longer than
 * the credential's limit and ends a session idle in a transaction for longer, on the primary and
 * on DATABASE_URL_BI (where BI sessions run on a replica), for both roles of a credential: the
 * user-facing one (its sessions in the BI database) and the source one (the foreign server's
 * sessions in this database). pg_stat_activity shows every database's sessions.
 */
import pg from 'pg';
import { inTransaction } from '../db/transaction.js';
import { applyRoleSettings, biRoleSettings, mayCarryTempFileLimit } from './roles.js';

export interface Stopped {
  user: string;
  /** `cancel` a running statement (pg_cancel_backend); `terminate` a session idle in a transaction. */
  action: 'cancel' | 'terminate';
}

// Every BI role is named in bi_credentials (with its limit); nothing else is ever signalled.
// user_name is null for a credential from before the BI database, until its upgrade.
const SWEEP = `
  SELECT a.usename AS "user",
         CASE WHEN a.state = 'active' THEN 'cancel' ELSE 'terminate' END AS action,
         CASE WHEN a.state = 'active' THEN pg_cancel_backend(a.pid) ELSE pg_terminate_backend(a.pid) END AS signalled
  FROM pg_stat_activity a
  JOIN bi_credentials r ON a.usename IN (r.role_name, r.user_name)
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

export interface Restored {
  user: string;
  /** What was put back: the role's setting defaults, its password (SCRAM verifier), or both. */
  restored: Array<'settings' | 'password'>;
  /** The PostgreSQL error code when the role could not be restored (the run goes on with the others). */
  failed?: string;
}

interface RoleState {
  role_name: string;
  statement_timeout_ms: number;
  password_verifier: string | null;
  settings: string[] | null;
  per_database: boolean;
  /** The role's current verifier; null when this role may not read pg_authid (not a superuser). */
  current_verifier: string | null;
}

/**
 * A BI role may change its own password and setting defaults (PostgreSQL lets every role do so);
 * this puts back what the credential set (docs/bi-isolation.md "What a BI role can change"). Settings are
 * compared (pg_db_role_setting is readable by all) for both roles of a credential; the password of
 * the user-facing role (the source role's is in the user mapping only, and nobody runs SQL as it)
 * is compared where pg_authid is readable (a superuser), else set again on every run. Runs on the
 * primary: roles replicate.
 */
export async function restoreBiRoles(pool: pg.Pool): Promise<Restored[]> {
  const readable = (await pool.query<{ ok: boolean }>(`SELECT has_table_privilege('pg_catalog.pg_authid', 'SELECT') AS ok`)).rows[0]!.ok;
  const { rows } = await pool.query<RoleState>(`
    SELECT r.rolname AS role_name, c.statement_timeout_ms,
           CASE WHEN r.rolname = COALESCE(c.user_name, c.role_name) THEN c.password_verifier END AS password_verifier,
           (SELECT s.setconfig FROM pg_db_role_setting s WHERE s.setrole = r.oid AND s.setdatabase = 0) AS settings,
           EXISTS (SELECT 1 FROM pg_db_role_setting s WHERE s.setrole = r.oid AND s.setdatabase <> 0) AS per_database,
           ${readable ? '(SELECT a.rolpassword FROM pg_catalog.pg_authid a WHERE a.oid = r.oid)' : 'NULL::text'} AS current_verifier
    FROM bi_credentials c JOIN pg_roles r ON r.rolname IN (c.role_name, c.user_name)
    ORDER BY r.rolname`);
  const carries = await mayCarryTempFileLimit(pool);
  const restored: Restored[] = [];
  for (const row of rows) {
    const what: Restored['restored'] = [];
    const expected = biRoleSettings(row.statement_timeout_ms, carries).sort();
    // A server that may not set temp_file_limit leaves it as it is (nor can the role change it).
    const actual = (row.settings ?? []).filter((setting) => carries || !setting.startsWith('temp_file_limit=')).sort();
    if (row.per_database || JSON.stringify(actual) !== JSON.stringify(expected)) what.push('settings');
    if (row.password_verifier && (!readable || row.current_verifier !== row.password_verifier)) what.push('password');
    if (what.length === 0) continue;
    try {
      await inTransaction(pool, async (client) => {
        if (what.includes('settings')) await applyRoleSettings(client, row.role_name, row.statement_timeout_ms);
        if (what.includes('password')) await client.query(`ALTER ROLE ${pg.escapeIdentifier(row.role_name)} PASSWORD ${pg.escapeLiteral(row.password_verifier!)}`);
      });
    } catch (error) {
      // One role the server may not alter (no ADMIN on it) must not keep the others unrestored.
      restored.push({ user: row.role_name, restored: [], failed: (error as { code?: string }).code ?? 'error' });
      continue;
    }
    // Re-setting an unreadable password every run is routine, not news.
    if (readable || what.includes('settings')) restored.push({ user: row.role_name, restored: readable ? what : ['settings'] });
  }
  return restored;
}
