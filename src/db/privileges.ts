/**
 * What the database grants to PUBLIC, i.e. to every login role of the cluster (BI roles included):
 * PostgreSQL's defaults give PUBLIC `CONNECT` and `TEMPORARY` on a database and `USAGE` on schema
 * `public`. They are taken back here, once per database, after the application's own roles got
 * what they use explicitly (docs/tenancy.md, docs/bi.md). It runs on every `migrate` (under the
 * migration lock) rather than in a migration: database privileges are per database and
 * `CREATE DATABASE … TEMPLATE` does not copy them, and the job queue's schema is created after the
 * migrations. Idempotent.
 */
import pg from 'pg';

type Queryable = Pick<pg.ClientBase, 'query'>;

/** Schemas no role outside the application may use (`bi` was created without PUBLIC). */
const PRIVATE_SCHEMAS = ['public', 'drizzle', 'pgboss'];

export async function restrictDatabaseToApplication(client: Queryable): Promise<void> {
  const { rows } = await client.query<{ name: string }>('select current_database() as name');
  const database = pg.escapeIdentifier(rows[0]!.name);
  // The connecting user connects and runs system work; tenant work (SET ROLE app_tenant) creates
  // temporary tables (register import, identities): it had TEMPORARY only through PUBLIC.
  await client.query(`GRANT CONNECT, TEMPORARY ON DATABASE ${database} TO CURRENT_USER`);
  await client.query(`GRANT TEMPORARY ON DATABASE ${database} TO app_tenant, app_system`);
  await client.query(`REVOKE CONNECT, TEMPORARY ON DATABASE ${database} FROM PUBLIC`);
  const present = await client.query<{ nspname: string }>('select nspname from pg_namespace where nspname = any($1::text[])', [PRIVATE_SCHEMAS]);
  for (const { nspname } of present.rows) await client.query(`REVOKE ALL ON SCHEMA ${pg.escapeIdentifier(nspname)} FROM PUBLIC`);
}

/** True when PUBLIC may still connect to or create temporary tables in this database. */
export async function databaseOpenToPublic(client: Queryable): Promise<boolean> {
  const { rows } = await client.query<{ open: boolean }>(
    `select has_database_privilege('public', current_database(), 'CONNECT') or has_database_privilege('public', current_database(), 'TEMPORARY') as open`,
  );
  return rows[0]!.open;
}
