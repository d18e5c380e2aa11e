/**
 * BI credentials (issues 21 and 32, docs/bi.md): each one is a PostgreSQL LOGIN role that may
 * connect to the BI database only (src/bi/database.ts) and reads its foreign tables through a user
 * mapping to an internal source role, which `bi_credentials.role_name` maps to one tenant: the
 * `bi` views of this database show the source role that tenant's rows only. Both roles are created
 * with SCRAM verifiers computed here, so the owner's password never reaches the server (nor its
 * statement log), and every identifier is quoted by pg's escapeIdentifier: no SQL is built from
 * the caller's text.
 */
import { asSystem } from '../db/tenancy.js';
import { inTransaction, transactionOn } from '../db/transaction.js';
import { randomBytes } from 'node:crypto';
import pg, { escapeIdentifier, escapeLiteral, type Pool } from 'pg';
import { authorize } from '../auth/policies.js';
import type { TenantPrincipal } from '../auth/principal.js';
import { AppError, notFound } from '../errors.js';
import { clusterOpenings, refuseOpenings, settingOpenings } from './cluster.js';
import { biDatabaseOf, grantInBiDatabase, onBiDatabase, syncBiDatabase, type BiDatabaseOptions } from './database.js';
import { alterPastSessions, terminateSessions } from './sessions.js';
import { applyRoleSettings, grantSourceRole, roleNameFor, scramVerifier, sourceRoleNameFor } from './roles.js';

// Where the roles' helpers were before src/bi/roles.ts; the watchdog and tests import them from here.
export { applyRoleSettings, biRoleSettings, roleNameFor, scramVerifier } from './roles.js';

export interface BiCredential {
  id: string;
  tenantId: string;
  name: string;
  /** The user-facing role: what the owner connects to the BI database as. */
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
  user_name: string | null;
  created_at: Date;
}

const present = (row: CredentialRow): BiCredential => ({
  id: row.id,
  tenantId: row.tenant_id,
  name: row.name,
  // A credential from before the BI database has one role until the server upgrades it.
  user: row.user_name ?? row.role_name,
  createdAt: row.created_at,
});

export async function listBiCredentials(pool: Pool, tenantId: string): Promise<BiCredential[]> {
  const { rows } = await pool.query<CredentialRow>(
    'SELECT id, tenant_id, name, role_name, user_name, created_at FROM bi_credentials WHERE tenant_id = $1 ORDER BY created_at, id',
    [tenantId],
  );
  return rows.map(present);
}

/**
 * Creates the two roles and the mapping; returns the owner's password, which is not stored (its
 * SCRAM verifier is, for the watchdog to restore). The user-facing role gets CONNECT on the BI
 * database and reads its foreign tables, nothing else; the source role (random password, kept in
 * the user mapping only) gets CONNECT here and reads `bi`. `migrate` took this database's CONNECT
 * and TEMPORARY from PUBLIC (src/db/privileges.ts), and the cluster's postgres and template1 where
 * it may; a cluster where anything still lets the role connect elsewhere or create is refused
 * (src/bi/cluster.ts) rather than changed here, since changing it per grant took TEMPORARY from
 * every tenant's work (issue 32).
 */
export async function grantBiCredential(
  pool: Pool,
  input: { tenantId: string; name: string },
  limits: BiLimits = DEFAULT_BI_LIMITS,
  options: BiDatabaseOptions = {},
): Promise<{ credential: BiCredential; password: string }> {
  const password = randomBytes(24).toString('base64url');
  const sourcePassword = randomBytes(24).toString('base64url');
  const user = roleNameFor(input.tenantId, input.name);
  const source = sourceRoleNameFor(user);
  const biDatabase = biDatabaseOf(pool, options);
  // Creating login roles, a database and granting them is DDL the tenant's role may not run.
  const credential = await asSystem('bi-roles', async () => {
    const created = await inTransaction(pool, async (client) => {
      const tenant = await client.query('SELECT 1 FROM tenants WHERE id = $1', [input.tenantId]);
      if (tenant.rowCount === 0) throw notFound('Tenant');
      const taken = await client.query('SELECT 1 FROM bi_credentials WHERE tenant_id = $1 AND name = $2', [input.tenantId, input.name]);
      if (taken.rowCount !== 0) throw new AppError('conflict', 'A BI credential with this name exists');
      // Nothing is created while the cluster would let the role connect elsewhere or create
      // anything (issue 43): PUBLIC's privileges here and cluster-wide (the BI database's are the
      // sync's, checked against the role below), and the temp_file_limit the role must carry.
      refuseOpenings([...(await clusterOpenings(client, 'public', null, [biDatabase])), ...(await settingOpenings(client))]);
      const verifier = scramVerifier(password);
      const { rows } = await client.query<CredentialRow>(
        // The limit the bi views hold the session to (bi_session_within_limits, migration 0037).
        `INSERT INTO bi_credentials (tenant_id, name, role_name, user_name, statement_timeout_ms, password_verifier) VALUES ($1, $2, $3, $4, $5, $6)
         RETURNING id, tenant_id, name, role_name, user_name, created_at`,
        [input.tenantId, input.name, source, user, Math.trunc(limits.statementTimeoutMs), verifier],
      );
      for (const [role, secret] of [[user, verifier], [source, scramVerifier(sourcePassword)]] as const) {
        await client.query(
          `CREATE ROLE ${escapeIdentifier(role)} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOINHERIT NOREPLICATION NOBYPASSRLS ` +
            `CONNECTION LIMIT ${Math.trunc(limits.connectionLimit)} PASSWORD ${escapeLiteral(secret)}`,
        );
        await applyRoleSettings(client, role, limits.statementTimeoutMs);
      }
      await grantSourceRole(client, source);
      return present(rows[0] as CredentialRow);
    });
    try {
      // Roles are the cluster's: committed above, the BI database's connection sees them.
      await syncBiDatabase(pool, options);
      await onBiDatabase(pool, options, (client) => transactionOn(client, async () => {
        await grantInBiDatabase(client, user, source, sourcePassword);
        // What the new role itself may do, in the cluster and in the BI database's schemas.
        refuseOpenings(await clusterOpenings(client, user, biDatabase));
      }));
    } catch (error) {
      await revokeAsOwner(pool, 'id = $1', [created.id], options).catch(() => {});
      throw error;
    }
    return created;
  });
  return { credential, password };
}

/**
 * DATABASE_URL_BI: a read replica whose BI sessions must end too (the roles' drop replicates,
 * their sessions there do not end by it); BI_DATABASE: where the user mapping is.
 */
export type RevokeOptions = BiDatabaseOptions;

function revokeWhere(pool: Pool, where: string, values: unknown[], options: RevokeOptions): Promise<BiCredential> {
  // Dropping a login role is DDL the tenant's role may not run.
  return asSystem('bi-roles', () => revokeAsOwner(pool, where, values, options));
}

async function revokeAsOwner(pool: Pool, where: string, values: unknown[], options: RevokeOptions): Promise<BiCredential> {
  const found = await pool.query<CredentialRow>(`SELECT role_name, user_name FROM bi_credentials WHERE ${where}`, values);
  if (!found.rows[0]) throw notFound('BI credential');
  const roles = rolesOf(found.rows[0]);
  // First, committed: the mapping goes (a session still open reads no row from then on) and the
  // roles may no longer log in, so no client reconnects between the terminate and the drop.
  const row = await alterPastSessions(pool, roles, async (client) => {
    const { rows } = await client.query<CredentialRow>(
      `DELETE FROM bi_credentials WHERE ${where} RETURNING id, tenant_id, name, role_name, user_name, created_at`,
      values,
    );
    const deleted = rows[0];
    if (!deleted) throw notFound('BI credential');
    for (const role of rolesOf(deleted)) {
      const exists = await client.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [role]);
      if (exists.rowCount !== 0) await client.query(`ALTER ROLE ${escapeIdentifier(role)} NOLOGIN`);
    }
    return deleted;
  });
  if (options.replicaUrl) await terminateOn(options.replicaUrl, rolesOf(row));
  await dropRoles(pool, rolesOf(row), options);
  return present(row);
}

const rolesOf = (row: Pick<CredentialRow, 'role_name' | 'user_name'>): string[] => (row.user_name ? [row.user_name, row.role_name] : [row.role_name]);

/** Ends the roles' sessions on another server (the replica); pg_terminate_backend works on a standby. */
async function terminateOn(url: string, roles: string[]): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  client.on('error', () => {});
  await client.connect();
  try {
    await terminateSessions(client, roles);
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * Ends the roles' sessions, then drops what they have in the BI database (the user mapping, the
 * grants) and here (grants, default privileges), and the roles.
 */
async function dropRoles(pool: Pool, roles: string[], options: RevokeOptions): Promise<void> {
  const { rows } = await pool.query<{ rolname: string }>('SELECT rolname FROM pg_roles WHERE rolname = ANY($1::text[])', [roles]);
  if (rows.length === 0) return;
  const ids = rows.map((r) => escapeIdentifier(r.rolname)).join(', ');
  // NOLOGIN by now: once ended, none comes back.
  await terminateSessions(pool, roles);
  const bi = await pool.query('SELECT 1 FROM pg_database WHERE datname = $1', [biDatabaseOf(pool, options)]);
  if (bi.rowCount !== 0) await onBiDatabase(pool, options, (client) => client.query(`DROP OWNED BY ${ids}`));
  await inTransaction(pool, async (client) => {
    await client.query(`DROP OWNED BY ${ids}`);
    await client.query(`DROP ROLE ${ids}`);
  });
}

/** Drops the roles, ending their open sessions, and the mapping; another tenant's id is not found. */
export function revokeBiCredential(pool: Pool, tenantId: string, id: string, options: RevokeOptions = {}): Promise<BiCredential> {
  return revokeWhere(pool, 'tenant_id = $1 AND id = $2', [tenantId, id], options);
}

export function revokeBiCredentialByName(pool: Pool, tenantId: string, name: string, options: RevokeOptions = {}): Promise<BiCredential> {
  return revokeWhere(pool, 'tenant_id = $1 AND name = $2', [tenantId, name], options);
}

/**
 * A new password for the credential's user-facing role (the source role's stays in its mapping):
 * returned once, its verifier stored for the watchdog. The role's sessions end, those logged in
 * with the old password included. The role may have set a password of its own (PostgreSQL lets
 * any role, docs/bi-isolation.md "What a BI role can change"), even in a transaction it keeps open: the role
 * is first set NOLOGIN with the new password, its sessions ended, then LOGIN with the new password
 * again, so nothing the holder ran before can outlast the rotation.
 */
function rotateWhere(pool: Pool, where: string, values: unknown[], options: RevokeOptions): Promise<{ credential: BiCredential; password: string }> {
  // ALTER ROLE is DDL the tenant's role may not run.
  return asSystem('bi-roles', async () => {
    const found = await pool.query<CredentialRow>(`SELECT role_name, user_name FROM bi_credentials WHERE ${where}`, values);
    if (!found.rows[0]) throw notFound('BI credential');
    const user = found.rows[0].user_name ?? found.rows[0].role_name;
    const password = randomBytes(24).toString('base64url');
    // One verifier, stored and set: the watchdog compares the two (src/bi/watchdog.ts).
    const stored = scramVerifier(password);
    const verifier = escapeLiteral(stored);
    const id = escapeIdentifier(user);
    const row = await alterPastSessions(pool, [user], async (client) => {
      const { rows } = await client.query<CredentialRow>(
        `UPDATE bi_credentials SET password_verifier = $${values.length + 1} WHERE ${where}
         RETURNING id, tenant_id, name, role_name, user_name, created_at`,
        [...values, stored],
      );
      if (!rows[0]) throw notFound('BI credential');
      await client.query(`ALTER ROLE ${id} NOLOGIN PASSWORD ${verifier}`);
      return rows[0];
    });
    if (options.replicaUrl) await terminateOn(options.replicaUrl, [user]);
    // No session of the role is left and none can start: what it may have set meanwhile goes.
    await alterPastSessions(pool, [user], (client) => client.query(`ALTER ROLE ${id} LOGIN PASSWORD ${verifier}`));
    return { credential: present(row), password };
  });
}

/** Rotates a credential's password (its sessions end); another tenant's id is not found. */
export function rotateBiCredential(pool: Pool, tenantId: string, id: string, options: RevokeOptions = {}): Promise<{ credential: BiCredential; password: string }> {
  return rotateWhere(pool, 'tenant_id = $1 AND id = $2', [tenantId, id], options);
}

export function rotateBiCredentialByName(pool: Pool, tenantId: string, name: string, options: RevokeOptions = {}): Promise<{ credential: BiCredential; password: string }> {
  return rotateWhere(pool, 'tenant_id = $1 AND name = $2', [tenantId, name], options);
}

/** The web app's and API's entry points: the principal's own tenant, owners only. */
export const biCredentialsFor = (pool: Pool, principal: TenantPrincipal, options: RevokeOptions = {}) => {
  authorize(principal, 'bi.manage');
  return {
    list: () => listBiCredentials(pool, principal.tenantId),
    grant: (name: string, limits?: BiLimits) => grantBiCredential(pool, { tenantId: principal.tenantId, name }, limits, options),
    revoke: (id: string) => revokeBiCredential(pool, principal.tenantId, id, options),
    rotate: (id: string) => rotateBiCredential(pool, principal.tenantId, id, options),
  };
};
