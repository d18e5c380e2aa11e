import { createHash, createHmac, pbkdf2Sync, randomBytes } from "node:crypto";
import { escapeIdentifier, escapeLiteral } from "pg";
function roleNameFor(tenantId, name) {
  const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, "_").replace(/^_+|_+$/g, "").slice(0, 24);
  const tenant = tenantId.replace(/-/g, "").slice(0, 8).toLowerCase();
  return ["bi", tenant, slug, randomBytes(4).toString("hex")].filter(Boolean).join("_");
}
function scramVerifier(password, salt = randomBytes(16), iterations = 4096) {
  const salted = pbkdf2Sync(password.normalize("NFKC"), salt, iterations, 32, "sha256");
  const clientKey = createHmac("sha256", salted).update("Client Key").digest();
  const storedKey = createHash("sha256").update(clientKey).digest();
  const serverKey = createHmac("sha256", salted).update("Server Key").digest();
  return `SCRAM-SHA-256$${iterations}:${salt.toString("base64")}$${storedKey.toString("base64")}:${serverKey.toString("base64")}`;
}
function sourceRoleNameFor(user) {
  return `bisrc_${user.replace(/^bi_/, "")}`.slice(0, 63);
}
function biRoleSettings(statementTimeoutMs) {
  const limit = Math.trunc(statementTimeoutMs);
  return [
    `statement_timeout=${limit}`,
    `idle_in_transaction_session_timeout=${limit}`,
    "default_transaction_read_only=on",
    "search_path=bi",
    // PostgreSQL's defaults, written down so that a server configured higher does not make every
    // view refuse (the views allow at most these).
    "work_mem=4MB",
    "hash_mem_multiplier=2"
  ];
}
async function applyRoleSettings(client, role, statementTimeoutMs) {
  const id = escapeIdentifier(role);
  const { rows } = await client.query(
    `SELECT d.datname AS name FROM pg_db_role_setting s JOIN pg_roles r ON r.oid = s.setrole JOIN pg_database d ON d.oid = s.setdatabase WHERE r.rolname = $1`,
    [role]
  );
  for (const { name } of rows) await client.query(`ALTER ROLE ${id} IN DATABASE ${escapeIdentifier(name)} RESET ALL`);
  await client.query(`ALTER ROLE ${id} RESET ALL`);
  for (const setting of biRoleSettings(statementTimeoutMs)) {
    const [name, value] = setting.split("=");
    await client.query(`ALTER ROLE ${id} SET ${escapeIdentifier(name)} = ${escapeLiteral(value)}`);
  }
}
async function grantSourceRole(client, source) {
  const id = escapeIdentifier(source);
  const { rows: [db] } = await client.query("SELECT current_database() AS name");
  await client.query(`GRANT CONNECT ON DATABASE ${escapeIdentifier(db.name)} TO ${id}`);
  await client.query(`GRANT USAGE ON SCHEMA bi TO ${id}`);
  await client.query(`GRANT SELECT ON ALL TABLES IN SCHEMA bi TO ${id}`);
  await client.query(`ALTER DEFAULT PRIVILEGES IN SCHEMA bi GRANT SELECT ON TABLES TO ${id}`);
}
export {
  applyRoleSettings,
  biRoleSettings,
  grantSourceRole,
  roleNameFor,
  scramVerifier,
  sourceRoleNameFor
};
