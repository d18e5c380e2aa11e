/**
 * The roles of a BI credential (docs/bi-database.md "The BI database"): their names, SCRAM verifiers and
 * setting defaults, and the source role's privileges in the application database. Shared by the
 * grant (credentials.ts), the BI database's upgrade of old credentials (database.ts) and the
 * watchdog.
 */
import { createHash, createHmac, pbkdf2Sync, randomBytes } from 'node:crypto';
import { escapeIdentifier, escapeLiteral, type PoolClient } from 'pg';
import { trimBoth } from '../shared/text.js';

type Queryable = Pick<PoolClient, 'query'>;

/** `bi_<tenant prefix>_<name, letters and digits only>_<random>`: readable, unique, at most 63 bytes. */
export function roleNameFor(tenantId: string, name: string): string {
  const slug = trimBoth(name.toLowerCase().replace(/[^a-z0-9]+/g, '_'), '_').slice(0, 24);
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

/** The internal role a user-facing role reads as: never admitted through the load balancer (its hba matches `bi_<8 hex>_`). */
export function sourceRoleNameFor(user: string): string {
  return `bisrc_${user.replace(/^bi_/, '')}`.slice(0, 63);
}

/** Per session, in PostgreSQL's units: a credential's sessions (and their source sessions) each this much. */
export const BI_TEMP_FILE_LIMIT = '1GB';

/**
 * The role defaults of a BI role, in pg_db_role_setting's `name=value` form. The role may change
 * them itself (PostgreSQL allows it any role); the watchdog puts these back (src/bi/watchdog.ts)
 * and the views refuse a session outside them meanwhile (bi_session_within_limits, migration 0041).
 */
export function biRoleSettings(statementTimeoutMs: number, withTempFileLimit = true): string[] {
  const limit = Math.trunc(statementTimeoutMs);
  const settings = [
    `statement_timeout=${limit}`,
    `idle_in_transaction_session_timeout=${limit}`,
    'default_transaction_read_only=on',
    'search_path=bi',
    // PostgreSQL's defaults, written down so that a server configured higher does not make every
    // view refuse (the views allow at most these).
    'work_mem=4MB',
    'hash_mem_multiplier=2',
    // Temporary files a session may hold at once (sorts and hashes spilled past work_mem; a BI role
    // can create no temporary table, issue 43). A superuser-only setting: the role can neither SET
    // it nor change or reset its own default (docs/bi-cluster.md "The cluster").
    `temp_file_limit=${BI_TEMP_FILE_LIMIT}`,
  ];
  return withTempFileLimit ? settings : settings.filter((s) => !s.startsWith('temp_file_limit='));
}

/**
 * Whether the connected user may set temp_file_limit (a superuser, or GRANT SET ON PARAMETER: the
 * one-time step on an external database). A grant refuses without it (src/bi/cluster.ts); the
 * watchdog and the upgrade of old credentials then leave that one setting as it is and restore the
 * others (a non-superuser's RESET ALL keeps it, and neither may the role change it).
 */
export async function mayCarryTempFileLimit(client: Queryable): Promise<boolean> {
  const { rows } = await client.query<{ ok: boolean }>(
    `select coalesce((select rolsuper from pg_roles where rolname = current_user), false) or has_parameter_privilege('temp_file_limit', 'SET') as ok`,
  );
  return rows[0]!.ok;
}

/** Sets the role's defaults to exactly biRoleSettings (any other, in any database, removed). */
export async function applyRoleSettings(client: Queryable, role: string, statementTimeoutMs: number): Promise<void> {
  const id = escapeIdentifier(role);
  const { rows } = await client.query<{ name: string }>(
    `SELECT d.datname AS name FROM pg_db_role_setting s JOIN pg_roles r ON r.oid = s.setrole JOIN pg_database d ON d.oid = s.setdatabase WHERE r.rolname = $1`,
    [role],
  );
  for (const { name } of rows) await client.query(`ALTER ROLE ${id} IN DATABASE ${escapeIdentifier(name)} RESET ALL`);
  await client.query(`ALTER ROLE ${id} RESET ALL`);
  for (const setting of biRoleSettings(statementTimeoutMs, await mayCarryTempFileLimit(client))) {
    const [name, value] = setting.split('=') as [string, string];
    await client.query(`ALTER ROLE ${id} SET ${escapeIdentifier(name)} = ${escapeLiteral(value)}`);
  }
}

/** The source role's privileges in the main database: what a BI role had before the BI database. */
export async function grantSourceRole(client: Queryable, source: string): Promise<void> {
  const id = escapeIdentifier(source);
  const { rows: [db] } = await client.query<{ name: string }>('SELECT current_database() AS name');
  await client.query(`GRANT CONNECT ON DATABASE ${escapeIdentifier(db!.name)} TO ${id}`);
  await client.query(`GRANT USAGE ON SCHEMA bi TO ${id}`);
  await client.query(`GRANT SELECT ON ALL TABLES IN SCHEMA bi TO ${id}`);
  // Views a later migration adds to `bi` (created by this same role) are readable at once.
  await client.query(`ALTER DEFAULT PRIVILEGES IN SCHEMA bi GRANT SELECT ON TABLES TO ${id}`);
}
