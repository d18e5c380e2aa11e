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
  for (const statement of databasePrivileges(rows[0]!.name)) await client.query(statement);
  const present = await client.query<{ nspname: string }>('select nspname from pg_namespace where nspname = any($1::text[])', [PRIVATE_SCHEMAS]);
  for (const { nspname } of present.rows) await client.query(`REVOKE ALL ON SCHEMA ${pg.escapeIdentifier(nspname)} FROM PUBLIC`);
}

/**
 * The database-level part of `restrictDatabaseToApplication`: the statements that name `database`
 * and work from a connection to any database of the cluster (the tests run them from one admin
 * connection on each clone of their migrated template, whose schemas' privileges came with it).
 */
export function databasePrivileges(name: string): string[] {
  const database = pg.escapeIdentifier(name);
  return [
    // The connecting user connects and runs system work; tenant work (SET ROLE app_tenant) creates
    // temporary tables (register import, identities): it had TEMPORARY only through PUBLIC.
    `GRANT CONNECT, TEMPORARY ON DATABASE ${database} TO CURRENT_USER`,
    `GRANT TEMPORARY ON DATABASE ${database} TO app_tenant, app_system`,
    `REVOKE CONNECT, TEMPORARY ON DATABASE ${database} FROM PUBLIC`,
  ];
}

/**
 * The databases every PostgreSQL cluster starts with (initdb). PostgreSQL grants `PUBLIC`
 * `CONNECT` and `TEMPORARY` on them, so any login role (a BI role included) could connect there
 * and fill temporary tables (issue 43). Nothing of ours connects to them but the server's own
 * user, a superuser or their owner in the setups where we change them.
 */
const CLUSTER_DATABASES = ['postgres', 'template1'];

/**
 * Takes `CONNECT` and `TEMPORARY` on `postgres` and `template1` from `PUBLIC`, where the
 * connecting user may (a superuser: the embedded and bundled databases; or their owner).
 * Elsewhere it changes nothing: on a server shared with others, the operator does it once
 * (docs/bi-cluster.md "The cluster"), and a BI grant refuses until then. Only what is still granted is
 * revoked: two runners at once (instances, parallel test files) would otherwise race on the same
 * pg_database row ("tuple concurrently updated"). Returns the databases changed.
 */
export async function restrictClusterToApplication(client: Queryable): Promise<string[]> {
  const { rows } = await client.query<{ name: string }>(
    `select d.datname as name from pg_database d
     where d.datname = any($1::text[])
       and (has_database_privilege('public', d.datname, 'CONNECT') or has_database_privilege('public', d.datname, 'TEMPORARY'))
       and (pg_has_role(current_user, d.datdba, 'USAGE') or (select rolsuper from pg_roles where rolname = current_user))`,
    [CLUSTER_DATABASES],
  );
  for (const { name } of rows) await client.query(`REVOKE CONNECT, TEMPORARY ON DATABASE ${pg.escapeIdentifier(name)} FROM PUBLIC`);
  return rows.map((r) => r.name);
}
