import { randomBytes } from "node:crypto";
import pg, { escapeIdentifier, escapeLiteral } from "pg";
import { asSystem } from "../db/tenancy.js";
import { inTransaction, transactionOn } from "../db/transaction.js";
import { applyRoleSettings, grantSourceRole, scramVerifier, sourceRoleNameFor } from "./roles.js";
const BI_SERVER = "bi_source";
const FDW_SCHEMA = "bi_fdw";
const SYNC_LOCK = 4127301561;
function biDatabaseName(mainDatabase, configured) {
  return configured ?? `${mainDatabase}_bi`;
}
function databaseOf(url) {
  return decodeURIComponent(new URL(url).pathname.replace(/^\//, ""));
}
function withDatabase(url, database) {
  const next = new URL(url);
  next.pathname = `/${encodeURIComponent(database)}`;
  return next.toString();
}
function poolUrl(pool) {
  const url = pool.options.connectionString;
  if (!url) throw new Error("The BI database needs a pool opened from a connection URL");
  return url;
}
function biDatabaseOf(pool, options = {}) {
  return biDatabaseName(databaseOf(poolUrl(pool)), options.database);
}
async function onBiDatabase(pool, options, work) {
  const client = new pg.Client({ connectionString: withDatabase(poolUrl(pool), biDatabaseOf(pool, options)), application_name: "delivery-analytics-bi", connectionTimeoutMillis: 5e3 });
  client.on("error", () => {
  });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end().catch(() => {
    });
  }
}
function serverOptions(pool, options) {
  const source = new URL(options.replicaUrl ?? poolUrl(pool));
  const result = {
    host: source.hostname.replace(/^\[|\]$/g, ""),
    port: source.port || "5432",
    dbname: databaseOf(poolUrl(pool)),
    // Rows cross in batches of this many (postgres_fdw's default, 100, costs a round trip each).
    fetch_size: "10000"
  };
  const sslmode = source.searchParams.get("sslmode");
  if (sslmode) result.sslmode = sslmode;
  return result;
}
const RELATIONS = `
  SELECT c.relname AS name, obj_description(c.oid, 'pg_class') AS comment,
         json_agg(json_build_object('name', a.attname,
           'type', CASE WHEN t.typnamespace = 'pg_catalog'::regnamespace THEN format_type(a.atttypid, a.atttypmod) ELSE 'text' END,
           'comment', col_description(c.oid, a.attnum)) ORDER BY a.attnum) AS columns
  FROM pg_class c
  JOIN pg_namespace n ON n.oid = c.relnamespace
  JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
  JOIN pg_type t ON t.oid = a.atttypid
  WHERE n.nspname = 'bi' AND c.relkind = ANY($1::"char"[])
  GROUP BY c.oid, c.relname
  ORDER BY c.relname`;
async function relations(client, kinds) {
  const { rows } = await client.query(RELATIONS, [kinds]);
  return new Map(rows.map((r) => [r.name, r]));
}
function createForeignTable(relation) {
  const table = `bi.${escapeIdentifier(relation.name)}`;
  const columns = relation.columns.map((c) => `${escapeIdentifier(c.name)} ${c.type}`).join(", ");
  const statements = [
    `CREATE FOREIGN TABLE ${table} (${columns}) SERVER ${BI_SERVER} OPTIONS (schema_name 'bi', table_name ${escapeLiteral(relation.name)})`
  ];
  if (relation.comment !== null) statements.push(`COMMENT ON FOREIGN TABLE ${table} IS ${escapeLiteral(relation.comment)}`);
  for (const c of relation.columns) {
    if (c.comment !== null) statements.push(`COMMENT ON COLUMN ${table}.${escapeIdentifier(c.name)} IS ${escapeLiteral(c.comment)}`);
  }
  return statements;
}
async function createDatabaseIfMissing(pool, name) {
  const exists = await pool.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
  if (exists.rowCount !== 0) return false;
  try {
    await pool.query(`CREATE DATABASE ${escapeIdentifier(name)} TEMPLATE template0`);
    return true;
  } catch (error) {
    if (["42P04", "23505"].includes(error.code ?? "")) return false;
    throw error;
  }
}
async function grantInBiDatabase(client, user, source, sourcePassword) {
  const id = escapeIdentifier(user);
  const { rows: [db] } = await client.query("SELECT current_database() AS name");
  await client.query(`GRANT CONNECT ON DATABASE ${escapeIdentifier(db.name)} TO ${id}`);
  await client.query(`GRANT USAGE ON SCHEMA bi TO ${id}`);
  await client.query(`GRANT SELECT ON ALL TABLES IN SCHEMA bi TO ${id}`);
  await client.query(`DROP USER MAPPING IF EXISTS FOR ${id} SERVER ${BI_SERVER}`);
  await client.query("SAVEPOINT quiet");
  try {
    await client.query("SET LOCAL log_statement = 'none'");
    await client.query("SET LOCAL log_min_duration_statement = -1");
    await client.query("SET LOCAL log_min_error_statement = 'panic'");
  } catch {
    await client.query("ROLLBACK TO SAVEPOINT quiet");
  }
  await client.query(
    `CREATE USER MAPPING FOR ${id} SERVER ${BI_SERVER} OPTIONS (user ${escapeLiteral(source)}, password ${escapeLiteral(sourcePassword)})`
  );
}
function syncBiDatabase(pool, options = {}) {
  return asSystem("bi-roles", () => syncAsOwner(pool, options));
}
async function syncAsOwner(pool, options) {
  const database = biDatabaseOf(pool, options);
  if (database === databaseOf(poolUrl(pool))) throw new Error("BI_DATABASE must name a database other than the application's");
  const created = await createDatabaseIfMissing(pool, database);
  const wanted = await relations(pool, ["v", "m", "r", "f"]);
  const server = serverOptions(pool, options);
  const { rows: users } = await pool.query(
    "SELECT c.user_name FROM bi_credentials c JOIN pg_roles r ON r.rolname = c.user_name ORDER BY 1"
  );
  const result = await onBiDatabase(pool, options, (client) => transactionOn(client, async () => {
    await client.query("SELECT pg_advisory_xact_lock($1)", [SYNC_LOCK]);
    const existing = await client.query("SELECT srvoptions AS options FROM pg_foreign_server WHERE srvname = $1", [BI_SERVER]);
    if (created || existing.rowCount === 0 || options.updateServer) {
      await client.query(`REVOKE ALL ON DATABASE ${escapeIdentifier(database)} FROM PUBLIC`);
      await client.query("SAVEPOINT public_schema");
      try {
        await client.query("DROP SCHEMA IF EXISTS public");
      } catch {
        await client.query("ROLLBACK TO SAVEPOINT public_schema");
        await client.query("REVOKE ALL ON SCHEMA public FROM PUBLIC");
      }
      await client.query(`CREATE SCHEMA IF NOT EXISTS ${FDW_SCHEMA}`);
      await client.query(`REVOKE ALL ON SCHEMA ${FDW_SCHEMA} FROM PUBLIC`);
      await client.query(`CREATE EXTENSION IF NOT EXISTS postgres_fdw SCHEMA ${FDW_SCHEMA}`);
      if (existing.rowCount === 0) {
        const list = Object.entries(server).map(([k, v]) => `${escapeIdentifier(k)} ${escapeLiteral(v)}`).join(", ");
        await client.query(`CREATE SERVER ${BI_SERVER} FOREIGN DATA WRAPPER postgres_fdw OPTIONS (${list})`);
      } else {
        const present = new Set((existing.rows[0].options ?? []).map((o) => o.split("=")[0]));
        const list = Object.entries(server).map(([k, v]) => `${present.has(k) ? "SET" : "ADD"} ${escapeIdentifier(k)} ${escapeLiteral(v)}`).join(", ");
        await client.query(`ALTER SERVER ${BI_SERVER} OPTIONS (${list})`);
      }
      await client.query("CREATE SCHEMA IF NOT EXISTS bi");
      await client.query("REVOKE ALL ON SCHEMA bi FROM PUBLIC");
    }
    const have = await relations(client, ["f"]);
    const tables = [];
    for (const [name] of have) {
      if (!wanted.has(name)) await client.query(`DROP FOREIGN TABLE bi.${escapeIdentifier(name)}`);
    }
    for (const [name, relation] of wanted) {
      const current = have.get(name);
      if (current && JSON.stringify(current) === JSON.stringify(relation)) continue;
      if (current) await client.query(`DROP FOREIGN TABLE bi.${escapeIdentifier(name)}`);
      for (const statement of createForeignTable(relation)) await client.query(statement);
      tables.push(name);
    }
    if (tables.length > 0) {
      for (const { user_name } of users) await client.query(`GRANT SELECT ON ALL TABLES IN SCHEMA bi TO ${escapeIdentifier(user_name)}`);
    }
    return { tables };
  }));
  const upgraded = await upgradeCredentials(pool, options);
  return { database, created, tables: result.tables, upgraded };
}
async function upgradeCredentials(pool, options) {
  const { rows } = await pool.query(
    "SELECT c.id, c.role_name FROM bi_credentials c JOIN pg_roles r ON r.rolname = c.role_name WHERE c.user_name IS NULL ORDER BY c.created_at, c.id"
  );
  const upgraded = [];
  for (const { id, role_name: user } of rows) {
    const source = sourceRoleNameFor(user);
    const password = randomBytes(24).toString("base64url");
    const changed = await inTransaction(pool, async (client) => {
      const row = await client.query(
        `SELECT c.statement_timeout_ms, r.rolconnlimit AS conn FROM bi_credentials c JOIN pg_roles r ON r.rolname = c.role_name
         WHERE c.id = $1 AND c.user_name IS NULL FOR UPDATE OF c`,
        [id]
      );
      const found = row.rows[0];
      if (!found) return false;
      await onBiDatabase(pool, options, (bi) => transactionOn(bi, () => grantInBiDatabase(bi, user, source, password)));
      const src = escapeIdentifier(source);
      await client.query(
        `CREATE ROLE ${src} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOINHERIT NOREPLICATION NOBYPASSRLS CONNECTION LIMIT ${Math.trunc(found.conn)} PASSWORD ${escapeLiteral(scramVerifier(password))}`
      );
      await applyRoleSettings(client, source, found.statement_timeout_ms);
      const old = escapeIdentifier(user);
      const { rows: [db] } = await client.query("SELECT current_database() AS name");
      await client.query(`REVOKE ALL ON DATABASE ${escapeIdentifier(db.name)} FROM ${old}`);
      await client.query(`ALTER DEFAULT PRIVILEGES IN SCHEMA bi REVOKE ALL ON TABLES FROM ${old}`);
      await client.query(`REVOKE ALL ON ALL TABLES IN SCHEMA bi FROM ${old}`);
      await client.query(`REVOKE ALL ON SCHEMA bi FROM ${old}`);
      await grantSourceRole(client, source);
      await client.query("UPDATE bi_credentials SET role_name = $2, user_name = $3 WHERE id = $1", [id, source, user]);
      return true;
    });
    if (!changed) continue;
    await pool.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = $1 AND datname = current_database()", [user]);
    upgraded.push(user);
  }
  return upgraded;
}
async function syncBiDatabaseIfUsed(pool, options = {}) {
  const { rowCount } = await pool.query("SELECT 1 FROM bi_credentials LIMIT 1");
  return rowCount === 0 ? null : syncBiDatabase(pool, options);
}
export {
  BI_SERVER,
  biDatabaseName,
  biDatabaseOf,
  grantInBiDatabase,
  onBiDatabase,
  syncBiDatabase,
  syncBiDatabaseIfUsed
};
