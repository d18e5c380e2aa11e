import pg from "pg";
import { inTransaction } from "../db/transaction.js";
import { applyRoleSettings, biRoleSettings } from "./roles.js";
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
async function stopOverrunningBiSessions(db, graceMs = 1e3) {
  const { rows } = await db.query(SWEEP, [graceMs]);
  return rows.filter((r) => r.signalled).map(({ user, action }) => ({ user, action }));
}
async function stopOverrunningBiSessionsAt(url, graceMs = 1e3) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5e3 });
  client.on("error", () => {
  });
  await client.connect();
  try {
    return await stopOverrunningBiSessions(client, graceMs);
  } finally {
    await client.end().catch(() => {
    });
  }
}
async function restoreBiRoles(pool) {
  const readable = (await pool.query(`SELECT has_table_privilege('pg_catalog.pg_authid', 'SELECT') AS ok`)).rows[0].ok;
  const { rows } = await pool.query(`
    SELECT r.rolname AS role_name, c.statement_timeout_ms,
           CASE WHEN r.rolname = COALESCE(c.user_name, c.role_name) THEN c.password_verifier END AS password_verifier,
           (SELECT s.setconfig FROM pg_db_role_setting s WHERE s.setrole = r.oid AND s.setdatabase = 0) AS settings,
           EXISTS (SELECT 1 FROM pg_db_role_setting s WHERE s.setrole = r.oid AND s.setdatabase <> 0) AS per_database,
           ${readable ? "(SELECT a.rolpassword FROM pg_catalog.pg_authid a WHERE a.oid = r.oid)" : "NULL::text"} AS current_verifier
    FROM bi_credentials c JOIN pg_roles r ON r.rolname IN (c.role_name, c.user_name)
    ORDER BY r.rolname`);
  const restored = [];
  for (const row of rows) {
    const what = [];
    const expected = biRoleSettings(row.statement_timeout_ms).sort();
    if (row.per_database || JSON.stringify([...row.settings ?? []].sort()) !== JSON.stringify(expected)) what.push("settings");
    if (row.password_verifier && (!readable || row.current_verifier !== row.password_verifier)) what.push("password");
    if (what.length === 0) continue;
    try {
      await inTransaction(pool, async (client) => {
        if (what.includes("settings")) await applyRoleSettings(client, row.role_name, row.statement_timeout_ms);
        if (what.includes("password")) await client.query(`ALTER ROLE ${pg.escapeIdentifier(row.role_name)} PASSWORD ${pg.escapeLiteral(row.password_verifier)}`);
      });
    } catch (error) {
      restored.push({ user: row.role_name, restored: [], failed: error.code ?? "error" });
      continue;
    }
    if (readable || what.includes("settings")) restored.push({ user: row.role_name, restored: readable ? what : ["settings"] });
  }
  return restored;
}
export {
  restoreBiRoles,
  stopOverrunningBiSessions,
  stopOverrunningBiSessionsAt
};
