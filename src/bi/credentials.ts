/**
 * BI credentials (issue 21, docs/bi.md): each one is a PostgreSQL LOGIN role mapped to one tenant
 * in `bi_credentials`; the `bi` views show that tenant's rows only. The role is created with a
 * SCRAM verifier computed here, so the password never reaches the server (nor its statement log),
 * and every identifier is quoted by pg's escapeIdentifier: no SQL is built from the caller's text.
 */
import { asSystem } from '../db/tenancy.js';
import { inTransaction } from '../db/transaction.js';
import { createHash, createHmac, pbkdf2Sync, randomBytes } from 'node:crypto';
import pg, { escapeIdentifier, escapeLiteral, type Pool, type PoolClient } from 'pg';
import { authorize } from '../auth/policies.js';
import type { TenantPrincipal } from '../auth/principal.js';
import { AppError, notFound } from '../errors.js';
import { databaseOpenToPublic } from '../db/privileges.js';

export interface BiCredential {
  id: string;
  tenantId: string;
  name: string;
  user: string;
  createdAt: Date;
}

export interface BiLimits {
  /** Cap on the role's simultaneous connections. */
  connectionLimit: number;
  /** The role's default statement_timeout, in milliseconds. */
  statementTimeoutMs: number;
}

export const DEFAULT_BI_LIMITS: BiLimits = Object.freeze({ connectionLimit: 5, statementTimeoutMs: 60_000 });

interface CredentialRow {
  id: string;
  tenant_id: string;
  name: string;
  role_name: string;
  created_at: Date;
}

const present = (row: CredentialRow): BiCredential => ({
  id: row.id,
  tenantId: row.tenant_id,
  name: row.name,
  user: row.role_name,
  createdAt: row.created_at,
});

/** `bi_<tenant prefix>_<name, letters and digits only>_<random>`: readable, unique, at most 63 bytes. */
export function roleNameFor(tenantId: string, name: string): string {
  const slug = name.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '').slice(0, 24);
  const tenant = tenantId.replace(/-/g, '').slice(0, 8).toLowerCase();
  return ['bi', tenant, slug, randomBytes(4).toString('hex')].filter(Boolean).join('_');
}

/** PostgreSQL's SCRAM-SHA-256 verifier for a password (the form pg_authid stores). */
export function scramVerifier(password: string, salt = randomBytes(16), iterations = 4096): string {
  const salted = pbkdf2Sync(password.normalize('NFKC'), salt, iterations, 32, 'sha256');
  const clientKey = createHmac('sha256', salted).update('Client Key').digest();
  const storedKey = createHash('sha256').update(clientKey).digest();
  const serverKey = createHmac('sha256', salted).update('Server Key').digest();
  return `SCRAM-SHA-256$${iterations}:${salt.toString('base64')}$${storedKey.toString('base64')}:${serverKey.toString('base64')}`;
}

export async function listBiCredentials(pool: Pool, tenantId: string): Promise<BiCredential[]> {
  const { rows } = await pool.query<CredentialRow>(
    'SELECT id, tenant_id, name, role_name, created_at FROM bi_credentials WHERE tenant_id = $1 ORDER BY created_at, id',
    [tenantId],
  );
  return rows.map(present);
}

/**
 * Creates the role and its mapping in one transaction; returns the password, which is not stored
 * (its SCRAM verifier is, for the watchdog to restore). The role gets CONNECT and reads `bi`,
 * nothing else: `migrate` took the database's CONNECT and TEMPORARY from PUBLIC (src/db/privileges.ts);
 * a database where it did not is refused rather than changed here, since changing it per grant
 * took TEMPORARY from every tenant's work (issue 32).
 */
export async function grantBiCredential(
  pool: Pool,
  input: { tenantId: string; name: string },
  limits: BiLimits = DEFAULT_BI_LIMITS,
): Promise<{ credential: BiCredential; password: string }> {
  const password = randomBytes(24).toString('base64url');
  const role = roleNameFor(input.tenantId, input.name);
  // Creating a login role and granting it is DDL the tenant's role may not run.
  const credential = await asSystem('bi-roles', () => inTransaction(pool, async (client) => {
    const tenant = await client.query('SELECT 1 FROM tenants WHERE id = $1', [input.tenantId]);
    if (tenant.rowCount === 0) throw notFound('Tenant');
    const taken = await client.query('SELECT 1 FROM bi_credentials WHERE tenant_id = $1 AND name = $2', [input.tenantId, input.name]);
    if (taken.rowCount !== 0) throw new AppError('conflict', 'A BI credential with this name exists');
    if (await databaseOpenToPublic(client)) throw new Error('The database still grants CONNECT or TEMPORARY to PUBLIC: run "delivery-analytics migrate" before issuing BI credentials');
    const verifier = scramVerifier(password);
    const { rows } = await client.query<CredentialRow>(
      // The limit the bi views hold the session to (bi_session_within_limits, migration 0037).
      'INSERT INTO bi_credentials (tenant_id, name, role_name, statement_timeout_ms, password_verifier) VALUES ($1, $2, $3, $4, $5) RETURNING id, tenant_id, name, role_name, created_at',
      [input.tenantId, input.name, role, Math.trunc(limits.statementTimeoutMs), verifier],
    );
    const id = escapeIdentifier(role);
    const { rows: [db] } = await client.query<{ name: string }>('SELECT current_database() AS name');
    await client.query(
      `CREATE ROLE ${id} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOINHERIT NOREPLICATION NOBYPASSRLS ` +
        `CONNECTION LIMIT ${Math.trunc(limits.connectionLimit)} PASSWORD ${escapeLiteral(verifier)}`,
    );
    await applyRoleSettings(client, role, limits.statementTimeoutMs);
    await client.query(`GRANT CONNECT ON DATABASE ${escapeIdentifier(db!.name)} TO ${id}`);
    await client.query(`GRANT USAGE ON SCHEMA bi TO ${id}`);
    await client.query(`GRANT SELECT ON ALL TABLES IN SCHEMA bi TO ${id}`);
    // Views a later migration adds to `bi` (created by this same role) are readable at once.
    await client.query(`ALTER DEFAULT PRIVILEGES IN SCHEMA bi GRANT SELECT ON TABLES TO ${id}`);
    return present(rows[0] as CredentialRow);
  }));
  return { credential, password };
}

/**
 * The role defaults of a BI role, in pg_db_role_setting's `name=value` form. The role may change
 * them itself (PostgreSQL allows it any role); the watchdog puts these back (src/bi/watchdog.ts)
 * and the views refuse a session outside them meanwhile (bi_session_within_limits, migration 0041).
 */
export function biRoleSettings(statementTimeoutMs: number): string[] {
  const limit = Math.trunc(statementTimeoutMs);
  return [
    `statement_timeout=${limit}`,
    `idle_in_transaction_session_timeout=${limit}`,
    'default_transaction_read_only=on',
    'search_path=bi',
    // PostgreSQL's defaults, written down so that a server configured higher does not make every
    // view refuse (the views allow at most these).
    'work_mem=4MB',
    'hash_mem_multiplier=2',
  ];
}

/** Sets the role's defaults to exactly biRoleSettings (any other, in any database, removed). */
export async function applyRoleSettings(client: Pick<PoolClient, 'query'>, role: string, statementTimeoutMs: number): Promise<void> {
  const id = escapeIdentifier(role);
  const { rows } = await client.query<{ name: string }>(
    `SELECT d.datname AS name FROM pg_db_role_setting s JOIN pg_roles r ON r.oid = s.setrole JOIN pg_database d ON d.oid = s.setdatabase WHERE r.rolname = $1`,
    [role],
  );
  for (const { name } of rows) await client.query(`ALTER ROLE ${id} IN DATABASE ${escapeIdentifier(name)} RESET ALL`);
  await client.query(`ALTER ROLE ${id} RESET ALL`);
  for (const setting of biRoleSettings(statementTimeoutMs)) {
    const [name, value] = setting.split('=') as [string, string];
    await client.query(`ALTER ROLE ${id} SET ${escapeIdentifier(name)} = ${escapeLiteral(value)}`);
  }
}

/** DATABASE_URL_BI: a read replica whose BI sessions must end too (the role's drop replicates, its sessions there do not end by it). */
export interface RevokeOptions {
  replicaUrl?: string | null;
}

function revokeWhere(pool: Pool, where: string, values: unknown[], options: RevokeOptions): Promise<BiCredential> {
  // Dropping a login role is DDL the tenant's role may not run.
  return asSystem('bi-roles', () => revokeAsOwner(pool, where, values, options));
}

async function revokeAsOwner(pool: Pool, where: string, values: unknown[], options: RevokeOptions): Promise<BiCredential> {
  // First, committed: the mapping goes (a session still open reads no row from then on) and the
  // role may no longer log in, so no client reconnects between the terminate and the drop.
  const row = await inTransaction(pool, async (client) => {
    const { rows } = await client.query<CredentialRow>(
      `DELETE FROM bi_credentials WHERE ${where} RETURNING id, tenant_id, name, role_name, created_at`,
      values,
    );
    const deleted = rows[0];
    if (!deleted) throw notFound('BI credential');
    const role = await client.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [deleted.role_name]);
    if (role.rowCount !== 0) await client.query(`ALTER ROLE ${escapeIdentifier(deleted.role_name)} NOLOGIN`);
    return deleted;
  });
  if (options.replicaUrl) await terminateOn(options.replicaUrl, row.role_name);
  await dropRole(pool, row.role_name);
  return present(row);
}

/** Ends the role's sessions on another server (the replica); pg_terminate_backend works on a standby. */
async function terminateOn(url: string, role: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  client.on('error', () => {});
  await client.connect();
  try {
    await client.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = $1', [role]);
  } finally {
    await client.end().catch(() => {});
  }
}

/** Ends the role's sessions, then drops its privileges (here and on the database) and the role. */
async function dropRole(pool: Pool, role: string): Promise<void> {
  const exists = await pool.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [role]);
  if (exists.rowCount === 0) return;
  await pool.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = $1', [role]);
  await inTransaction(pool, async (client) => {
    const id = escapeIdentifier(role);
    await client.query(`DROP OWNED BY ${id}`);
    await client.query(`DROP ROLE ${id}`);
  });
}

/** Drops the role, ending its open sessions, and its mapping; another tenant's id is not found. */
export function revokeBiCredential(pool: Pool, tenantId: string, id: string, options: RevokeOptions = {}): Promise<BiCredential> {
  return revokeWhere(pool, 'tenant_id = $1 AND id = $2', [tenantId, id], options);
}

export function revokeBiCredentialByName(pool: Pool, tenantId: string, name: string, options: RevokeOptions = {}): Promise<BiCredential> {
  return revokeWhere(pool, 'tenant_id = $1 AND name = $2', [tenantId, name], options);
}

/** The web app's and API's entry points: the principal's own tenant, owners only. */
export const biCredentialsFor = (pool: Pool, principal: TenantPrincipal, options: RevokeOptions = {}) => {
  authorize(principal, 'bi.manage');
  return {
    list: () => listBiCredentials(pool, principal.tenantId),
    grant: (name: string, limits?: BiLimits) => grantBiCredential(pool, { tenantId: principal.tenantId, name }, limits),
    revoke: (id: string) => revokeBiCredential(pool, principal.tenantId, id, options),
  };
};
