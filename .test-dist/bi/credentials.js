import { asSystem } from "../db/tenancy.js";
import { inTransaction, transactionOn } from "../db/transaction.js";
import { randomBytes } from "node:crypto";
import pg, { escapeIdentifier, escapeLiteral } from "pg";
import { authorize } from "../auth/policies.js";
import { AppError, notFound } from "../errors.js";
import { databaseOpenToPublic } from "../db/privileges.js";
import { biDatabaseOf, grantInBiDatabase, onBiDatabase, syncBiDatabase } from "./database.js";
import { applyRoleSettings, grantSourceRole, roleNameFor, scramVerifier, sourceRoleNameFor } from "./roles.js";
import { applyRoleSettings as applyRoleSettings2, biRoleSettings, roleNameFor as roleNameFor2, scramVerifier as scramVerifier2 } from "./roles.js";
const DEFAULT_BI_LIMITS = Object.freeze({ connectionLimit: 5, statementTimeoutMs: 6e4 });
const present = (row) => ({
  id: row.id,
  tenantId: row.tenant_id,
  name: row.name,
  // A credential from before the BI database has one role until the server upgrades it.
  user: row.user_name ?? row.role_name,
  createdAt: row.created_at
});
async function listBiCredentials(pool, tenantId) {
  const { rows } = await pool.query(
    "SELECT id, tenant_id, name, role_name, user_name, created_at FROM bi_credentials WHERE tenant_id = $1 ORDER BY created_at, id",
    [tenantId]
  );
  return rows.map(present);
}
async function grantBiCredential(pool, input, limits = DEFAULT_BI_LIMITS, options = {}) {
  const password = randomBytes(24).toString("base64url");
  const sourcePassword = randomBytes(24).toString("base64url");
  const user = roleNameFor(input.tenantId, input.name);
  const source = sourceRoleNameFor(user);
  const credential = await asSystem("bi-roles", async () => {
    const created = await inTransaction(pool, async (client) => {
      const tenant = await client.query("SELECT 1 FROM tenants WHERE id = $1", [input.tenantId]);
      if (tenant.rowCount === 0) throw notFound("Tenant");
      const taken = await client.query("SELECT 1 FROM bi_credentials WHERE tenant_id = $1 AND name = $2", [input.tenantId, input.name]);
      if (taken.rowCount !== 0) throw new AppError("conflict", "A BI credential with this name exists");
      if (await databaseOpenToPublic(client)) throw new Error('The database still grants CONNECT or TEMPORARY to PUBLIC: run "delivery-analytics migrate" before issuing BI credentials');
      const verifier = scramVerifier(password);
      const { rows } = await client.query(
        // The limit the bi views hold the session to (bi_session_within_limits, migration 0037).
        `INSERT INTO bi_credentials (tenant_id, name, role_name, user_name, statement_timeout_ms, password_verifier) VALUES ($1, $2, $3, $4, $5, $6)
         RETURNING id, tenant_id, name, role_name, user_name, created_at`,
        [input.tenantId, input.name, source, user, Math.trunc(limits.statementTimeoutMs), verifier]
      );
      for (const [role, secret] of [[user, verifier], [source, scramVerifier(sourcePassword)]]) {
        await client.query(
          `CREATE ROLE ${escapeIdentifier(role)} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOINHERIT NOREPLICATION NOBYPASSRLS CONNECTION LIMIT ${Math.trunc(limits.connectionLimit)} PASSWORD ${escapeLiteral(secret)}`
        );
        await applyRoleSettings(client, role, limits.statementTimeoutMs);
      }
      await grantSourceRole(client, source);
      return present(rows[0]);
    });
    try {
      await syncBiDatabase(pool, options);
      await onBiDatabase(pool, options, (client) => transactionOn(client, () => grantInBiDatabase(client, user, source, sourcePassword)));
    } catch (error) {
      await revokeAsOwner(pool, "id = $1", [created.id], options).catch(() => {
      });
      throw error;
    }
    return created;
  });
  return { credential, password };
}
function revokeWhere(pool, where, values, options) {
  return asSystem("bi-roles", () => revokeAsOwner(pool, where, values, options));
}
async function revokeAsOwner(pool, where, values, options) {
  const row = await inTransaction(pool, async (client) => {
    const { rows } = await client.query(
      `DELETE FROM bi_credentials WHERE ${where} RETURNING id, tenant_id, name, role_name, user_name, created_at`,
      values
    );
    const deleted = rows[0];
    if (!deleted) throw notFound("BI credential");
    for (const role of rolesOf(deleted)) {
      const exists = await client.query("SELECT 1 FROM pg_roles WHERE rolname = $1", [role]);
      if (exists.rowCount !== 0) await client.query(`ALTER ROLE ${escapeIdentifier(role)} NOLOGIN`);
    }
    return deleted;
  });
  if (options.replicaUrl) await terminateOn(options.replicaUrl, rolesOf(row));
  await dropRoles(pool, rolesOf(row), options);
  return present(row);
}
const rolesOf = (row) => row.user_name ? [row.user_name, row.role_name] : [row.role_name];
async function terminateOn(url, roles) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5e3 });
  client.on("error", () => {
  });
  await client.connect();
  try {
    await client.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = ANY($1::text[])", [roles]);
  } finally {
    await client.end().catch(() => {
    });
  }
}
async function dropRoles(pool, roles, options) {
  const { rows } = await pool.query("SELECT rolname FROM pg_roles WHERE rolname = ANY($1::text[])", [roles]);
  if (rows.length === 0) return;
  const ids = rows.map((r) => escapeIdentifier(r.rolname)).join(", ");
  await pool.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = ANY($1::text[])", [roles]);
  const bi = await pool.query("SELECT 1 FROM pg_database WHERE datname = $1", [biDatabaseOf(pool, options)]);
  if (bi.rowCount !== 0) await onBiDatabase(pool, options, (client) => client.query(`DROP OWNED BY ${ids}`));
  await inTransaction(pool, async (client) => {
    await client.query(`DROP OWNED BY ${ids}`);
    await client.query(`DROP ROLE ${ids}`);
  });
}
function revokeBiCredential(pool, tenantId, id, options = {}) {
  return revokeWhere(pool, "tenant_id = $1 AND id = $2", [tenantId, id], options);
}
function revokeBiCredentialByName(pool, tenantId, name, options = {}) {
  return revokeWhere(pool, "tenant_id = $1 AND name = $2", [tenantId, name], options);
}
const biCredentialsFor = (pool, principal, options = {}) => {
  authorize(principal, "bi.manage");
  return {
    list: () => listBiCredentials(pool, principal.tenantId),
    grant: (name, limits) => grantBiCredential(pool, { tenantId: principal.tenantId, name }, limits, options),
    revoke: (id) => revokeBiCredential(pool, principal.tenantId, id, options)
  };
};
export {
  DEFAULT_BI_LIMITS,
  applyRoleSettings2 as applyRoleSettings,
  biCredentialsFor,
  biRoleSettings,
  grantBiCredential,
  listBiCredentials,
  revokeBiCredential,
  revokeBiCredentialByName,
  roleNameFor2 as roleNameFor,
  scramVerifier2 as scramVerifier
};
