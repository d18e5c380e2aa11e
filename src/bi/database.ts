/**
 * The BI database (issue 32, docs/bi-database.md "The BI database"): BI tools connect to a database of its
 * own in the same cluster, which holds nothing but schema `bi`, one view per view of this
 * database's `bi`, over a postgres_fdw foreign table in `bi_source` (src/bi/relations.ts).
 * PostgreSQL shows every role the whole catalogue of the database it is connected to (table and
 * column names, row estimates); a BI role connected there sees only these. Each user-facing role
 * reads through its own user mapping, as an internal source role (`bi_credentials.role_name`) that
 * the views of this database map to one tenant.
 *
 * `syncBiDatabase` makes the BI database what this database's `bi` says, idempotently: creates it
 * when missing, the extension, the foreign server, the foreign tables, views and their comments, the
 * grants, and upgrades credentials issued before it existed. Run by `migrate`, every grant and the
 * watchdog job. Every identifier goes through escapeIdentifier, every option through escapeLiteral.
 */
import { randomBytes } from 'node:crypto';
import pg, { escapeIdentifier, escapeLiteral, type Pool } from 'pg';
import { asSystem } from '../db/tenancy.js';
import { inTransaction, transactionOn } from '../db/transaction.js';
import { biRelations, grantReading, syncRelations } from './relations.js';
import { applyRoleSettings, grantSourceRole, scramVerifier, sourceRoleNameFor } from './roles.js';

type Queryable = Pick<pg.ClientBase, 'query'>;

/** Where the BI database is and what its foreign server reads. */
export interface BiDatabaseOptions {
  /** BI_DATABASE; null or absent: `<main database>_bi`. */
  database?: string | null;
  /** DATABASE_URL_BI: the foreign server reads this server (a replica); else the pool's own. */
  replicaUrl?: string | null;
}

/** The foreign server in the BI database; the extension's schema, which no BI role may use. */
export const BI_SERVER = 'bi_source';
const FDW_SCHEMA = 'bi_fdw';
// Serialises concurrent syncs in one BI database (a grant and the watchdog, two instances).
const SYNC_LOCK = 4_127_301_561;

export function biDatabaseName(mainDatabase: string, configured: string | null | undefined): string {
  return configured ?? `${mainDatabase}_bi`;
}

function databaseOf(url: string): string {
  return decodeURIComponent(new URL(url).pathname.replace(/^\//, ''));
}

function withDatabase(url: string, database: string): string {
  const next = new URL(url);
  next.pathname = `/${encodeURIComponent(database)}`;
  return next.toString();
}

function poolUrl(pool: Pool): string {
  const url = pool.options.connectionString;
  if (!url) throw new Error('The BI database needs a pool opened from a connection URL');
  return url;
}

export function biDatabaseOf(pool: Pool, options: BiDatabaseOptions = {}): string {
  return biDatabaseName(databaseOf(poolUrl(pool)), options.database);
}

/** Runs `work` on a connection, as the pool's user, to the BI database. */
export async function onBiDatabase<T>(pool: Pool, options: BiDatabaseOptions, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: withDatabase(poolUrl(pool), biDatabaseOf(pool, options)), application_name: 'delivery-analytics-bi', connectionTimeoutMillis: 5000 });
  client.on('error', () => {});
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end().catch(() => {});
  }
}

/** The foreign server's options: the replica's or the pool's host and port, the main database's name. */
function serverOptions(pool: Pool, options: BiDatabaseOptions): Record<string, string> {
  const source = new URL(options.replicaUrl ?? poolUrl(pool));
  const result: Record<string, string> = {
    host: source.hostname.replace(/^\[|\]$/g, ''),
    port: source.port || '5432',
    dbname: databaseOf(poolUrl(pool)),
    // Rows cross in batches of this many (postgres_fdw's default, 100, costs a round trip each).
    fetch_size: '10000',
  };
  const sslmode = source.searchParams.get('sslmode');
  if (sslmode) result.sslmode = sslmode;
  return result;
}

/**
 * Creates the BI database when missing (CREATE DATABASE runs outside a transaction), closed to
 * connections until PUBLIC has nothing there: a new database grants PUBLIC CONNECT and TEMPORARY,
 * and there is then no moment where every role may connect or a grant elsewhere in the cluster
 * finds it open (src/bi/cluster.ts).
 */
async function createDatabaseIfMissing(pool: Pool, name: string): Promise<boolean> {
  const exists = await pool.query<{ open: boolean }>('SELECT datallowconn AS open FROM pg_database WHERE datname = $1', [name]);
  if (exists.rows[0]?.open) return false;
  let created = false;
  if (exists.rowCount === 0) {
    try {
      // From template0: nobody can be connected to it (CREATE DATABASE fails while its template
      // has sessions), and it holds nothing of ours.
      await pool.query(`CREATE DATABASE ${escapeIdentifier(name)} TEMPLATE template0 ALLOW_CONNECTIONS false`);
      created = true;
    } catch (error) {
      // Another instance created it meanwhile.
      if (!['42P04', '23505'].includes((error as { code?: string }).code ?? '')) throw error;
    }
  }
  // Here, or by whichever run comes first (another instance's, or the next after a crash).
  await inTransaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1)', [SYNC_LOCK]);
    const { rows } = await client.query<{ open: boolean }>('SELECT datallowconn AS open FROM pg_database WHERE datname = $1', [name]);
    if (rows[0]?.open !== false) return;
    await client.query(`REVOKE ALL ON DATABASE ${escapeIdentifier(name)} FROM PUBLIC`);
    await client.query(`ALTER DATABASE ${escapeIdentifier(name)} ALLOW_CONNECTIONS true`);
  });
  return created;
}

/** Grants a user-facing role its reading in the BI database and maps it to its source role. */
export async function grantInBiDatabase(client: Queryable, user: string, source: string, sourcePassword: string): Promise<void> {
  const id = escapeIdentifier(user);
  const { rows: [db] } = await client.query<{ name: string }>('SELECT current_database() AS name');
  await client.query(`GRANT CONNECT ON DATABASE ${escapeIdentifier(db!.name)} TO ${id}`);
  await grantReading(client, user);
  // No USAGE on the server: pg_user_mappings then shows the role no option of its own mapping.
  await client.query(`DROP USER MAPPING IF EXISTS FOR ${id} SERVER ${BI_SERVER}`);
  // The mapping's statement holds the source role's password: kept out of the server's statement
  // log where the server's user may say so (a superuser; elsewhere log_statement decides).
  await client.query('SAVEPOINT quiet');
  try {
    await client.query("SET LOCAL log_statement = 'none'");
    await client.query('SET LOCAL log_min_duration_statement = -1');
    await client.query("SET LOCAL log_min_error_statement = 'panic'");
  } catch {
    await client.query('ROLLBACK TO SAVEPOINT quiet');
  }
  await client.query(
    `CREATE USER MAPPING FOR ${id} SERVER ${BI_SERVER} OPTIONS (user ${escapeLiteral(source)}, password ${escapeLiteral(sourcePassword)})`,
  );
}

export interface BiSync {
  database: string;
  created: boolean;
  /** Foreign tables created or redefined (a view added or changed by a migration). */
  tables: string[];
  /** User-facing roles of credentials issued before the BI database, given a source role. */
  upgraded: string[];
}

interface SyncOptions extends BiDatabaseOptions {
  /** Set the foreign server's address even when it exists (migrate: the configuration may have changed). */
  updateServer?: boolean;
}

/**
 * Makes the BI database match this database's `bi` schema and credentials; idempotent. Needs the
 * pool's user to be allowed CREATE DATABASE (or the database made for it, owned by it) and
 * CREATE EXTENSION postgres_fdw (a superuser, or the extension created once by one: docs/bi.md).
 */
export function syncBiDatabase(pool: Pool, options: SyncOptions = {}): Promise<BiSync> {
  // Creating a database, roles and grants is DDL the tenant's role may not run.
  return asSystem('bi-roles', () => syncAsOwner(pool, options));
}

async function syncAsOwner(pool: Pool, options: SyncOptions): Promise<BiSync> {
  const database = biDatabaseOf(pool, options);
  if (database === databaseOf(poolUrl(pool))) throw new Error('BI_DATABASE must name a database other than the application\'s');
  const created = await createDatabaseIfMissing(pool, database);
  const wanted = await biRelations(pool);
  const server = serverOptions(pool, options);
  const { rows: users } = await pool.query<{ user_name: string }>(
    'SELECT c.user_name FROM bi_credentials c JOIN pg_roles r ON r.rolname = c.user_name ORDER BY 1',
  );
  const result = await onBiDatabase(pool, options, (client) => transactionOn(client, async () => {
    await client.query('SELECT pg_advisory_xact_lock($1)', [SYNC_LOCK]);
    const existing = await client.query<{ options: string[] | null }>('SELECT srvoptions AS options FROM pg_foreign_server WHERE srvname = $1', [BI_SERVER]);
    // Set up once (and again on every migrate); the watchdog's and grants' runs then only compare.
    if (created || existing.rowCount === 0 || options.updateServer) {
      await client.query(`REVOKE ALL ON DATABASE ${escapeIdentifier(database)} FROM PUBLIC`);
      // Nothing but bi: schema public goes (kept, closed, if something was put there).
      await client.query('SAVEPOINT public_schema');
      try {
        await client.query('DROP SCHEMA IF EXISTS public');
      } catch {
        await client.query('ROLLBACK TO SAVEPOINT public_schema');
        await client.query('REVOKE ALL ON SCHEMA public FROM PUBLIC');
      }
      await client.query(`CREATE SCHEMA IF NOT EXISTS ${FDW_SCHEMA}`);
      await client.query(`REVOKE ALL ON SCHEMA ${FDW_SCHEMA} FROM PUBLIC`);
      await client.query(`CREATE EXTENSION IF NOT EXISTS postgres_fdw SCHEMA ${FDW_SCHEMA}`);
      if (existing.rowCount === 0) {
        const list = Object.entries(server).map(([k, v]) => `${escapeIdentifier(k)} ${escapeLiteral(v)}`).join(', ');
        await client.query(`CREATE SERVER ${BI_SERVER} FOREIGN DATA WRAPPER postgres_fdw OPTIONS (${list})`);
      } else {
        const present = new Set((existing.rows[0]!.options ?? []).map((o) => o.split('=')[0]));
        const list = Object.entries(server).map(([k, v]) => `${present.has(k) ? 'SET' : 'ADD'} ${escapeIdentifier(k)} ${escapeLiteral(v)}`).join(', ');
        await client.query(`ALTER SERVER ${BI_SERVER} OPTIONS (${list})`);
      }
      await client.query('CREATE SCHEMA IF NOT EXISTS bi');
      await client.query('REVOKE ALL ON SCHEMA bi FROM PUBLIC');
    }
    const tables = await syncRelations(client, wanted, BI_SERVER);
    // Every user-facing role reads every view and foreign table, a re-created one at once.
    if (tables.length > 0) {
      for (const { user_name } of users) await grantReading(client, user_name);
    }
    return { tables };
  }));
  const upgraded = await upgradeCredentials(pool, options);
  return { database, created, tables: result.tables, upgraded };
}

/**
 * Credentials from before the BI database (user_name null): their role becomes the user-facing
 * one (the owner's password keeps working; the tool's database name changes), loses everything in
 * this database, and reads through a new source role that takes its place in bi_credentials.
 */
async function upgradeCredentials(pool: Pool, options: BiDatabaseOptions): Promise<string[]> {
  const { rows } = await pool.query<{ id: string; role_name: string }>(
    'SELECT c.id, c.role_name FROM bi_credentials c JOIN pg_roles r ON r.rolname = c.role_name WHERE c.user_name IS NULL ORDER BY c.created_at, c.id',
  );
  const upgraded: string[] = [];
  for (const { id, role_name: user } of rows) {
    const source = sourceRoleNameFor(user);
    const password = randomBytes(24).toString('base64url');
    const changed = await inTransaction(pool, async (client) => {
      const row = await client.query<{ statement_timeout_ms: number; conn: number }>(
        `SELECT c.statement_timeout_ms, r.rolconnlimit AS conn FROM bi_credentials c JOIN pg_roles r ON r.rolname = c.role_name
         WHERE c.id = $1 AND c.user_name IS NULL FOR UPDATE OF c`,
        [id],
      );
      const found = row.rows[0];
      // Upgraded meanwhile by another run (which held the row until it committed).
      if (!found) return false;
      // The BI database while the row is held: a failure below leaves a mapping to no role yet,
      // which the next run replaces (the row still has no user_name).
      await onBiDatabase(pool, options, (bi) => transactionOn(bi, () => grantInBiDatabase(bi, user, source, password)));
      const src = escapeIdentifier(source);
      await client.query(
        `CREATE ROLE ${src} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOINHERIT NOREPLICATION NOBYPASSRLS ` +
          `CONNECTION LIMIT ${Math.trunc(found.conn)} PASSWORD ${escapeLiteral(scramVerifier(password))}`,
      );
      await applyRoleSettings(client, source, found.statement_timeout_ms);
      // The old role keeps nothing here: no CONNECT, no bi, no default privileges. (Not DROP OWNED
      // BY: it would also revoke the CONNECT on the BI database granted above.)
      const old = escapeIdentifier(user);
      const { rows: [db] } = await client.query<{ name: string }>('SELECT current_database() AS name');
      await client.query(`REVOKE ALL ON DATABASE ${escapeIdentifier(db!.name)} FROM ${old}`);
      await client.query(`ALTER DEFAULT PRIVILEGES IN SCHEMA bi REVOKE ALL ON TABLES FROM ${old}`);
      await client.query(`REVOKE ALL ON ALL TABLES IN SCHEMA bi FROM ${old}`);
      await client.query(`REVOKE ALL ON SCHEMA bi FROM ${old}`);
      await grantSourceRole(client, source);
      await client.query('UPDATE bi_credentials SET role_name = $2, user_name = $3 WHERE id = $1', [id, source, user]);
      return true;
    });
    if (!changed) continue;
    // Its sessions still open here read no row any more; they end, as at a revoke.
    await pool.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = $1 AND datname = current_database()', [user]);
    upgraded.push(user);
  }
  return upgraded;
}

/** syncBiDatabase when any credential exists (the watchdog: a deployment without BI needs no BI database). */
export async function syncBiDatabaseIfUsed(pool: Pool, options: BiDatabaseOptions = {}): Promise<BiSync | null> {
  const { rowCount } = await pool.query('SELECT 1 FROM bi_credentials LIMIT 1');
  return rowCount === 0 ? null : syncBiDatabase(pool, options);
}
