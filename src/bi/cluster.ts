/**
 * What the cluster lets a BI role do besides reading (issue 43, docs/bi-cluster.md "The cluster"): a BI
 * role may connect to the BI database only, and create nothing anywhere (no temporary table in
 * any database, no object in any schema). PostgreSQL grants `PUBLIC`, i.e. every role, `CONNECT`
 * and `TEMPORARY` on every new database; `migrate` takes them back where the server's user may
 * (src/db/privileges.ts). A grant checks the rest and refuses, naming the statements that fix it,
 * rather than changing databases that may not be ours.
 */
import { escapeIdentifier } from 'pg';
import type pg from 'pg';
import { mayCarryTempFileLimit } from './roles.js';

type Queryable = Pick<pg.ClientBase, 'query'>;

export interface Opening {
  problem: string;
  /** The statement that closes it, run as a superuser or the object's owner. */
  fix: string;
}

const TEMP_FILE_LIMIT = 'temp_file_limit';

/**
 * What `role` (or `'public'`) may do in the cluster and in the connected database that a BI role
 * must not: connect to a database other than `connectTo`, create temporary tables in any
 * database, create in any schema of this one. Databases in `skip` are left out (the BI database
 * before its sync sets it up) and so are those nobody may connect to (template0).
 */
export async function clusterOpenings(client: Queryable, role: string, connectTo: string | null, skip: string[] = []): Promise<Opening[]> {
  const who = role === 'public' ? 'PUBLIC (every role)' : `the role ${escapeIdentifier(role)}`;
  const { rows: databases } = await client.query<{ name: string; connect: boolean; temporary: boolean }>(
    `select datname as name, has_database_privilege($1, datname, 'CONNECT') as connect, has_database_privilege($1, datname, 'TEMPORARY') as temporary
     from pg_database where datallowconn and not (datname = any($2::text[])) order by datname`,
    [role, skip],
  );
  const openings: Opening[] = [];
  for (const d of databases) {
    const connect = d.connect && d.name !== connectTo;
    if (!connect && !d.temporary) continue;
    const what = [connect ? 'connect to' : null, d.temporary ? 'create temporary tables in' : null].filter(Boolean).join(' and ');
    openings.push({
      problem: `${who} may ${what} database ${escapeIdentifier(d.name)}`,
      fix: d.name === connectTo
        ? `REVOKE TEMPORARY ON DATABASE ${escapeIdentifier(d.name)} FROM PUBLIC;`
        : `REVOKE CONNECT, TEMPORARY ON DATABASE ${escapeIdentifier(d.name)} FROM PUBLIC;`,
    });
  }
  const { rows: schemas } = await client.query<{ name: string; database: string }>(
    `select nspname as name, current_database() as database from pg_namespace
     where has_schema_privilege($1, oid, 'CREATE') order by nspname`,
    [role],
  );
  for (const s of schemas) {
    openings.push({
      problem: `${who} may create in schema ${escapeIdentifier(s.name)} of database ${escapeIdentifier(s.database)}`,
      fix: `REVOKE CREATE ON SCHEMA ${escapeIdentifier(s.name)} FROM PUBLIC; -- in database ${escapeIdentifier(s.database)}`,
    });
  }
  return openings;
}

/** Whether the connected user may set a role's temp_file_limit (a superuser-only setting). */
export async function settingOpenings(client: Queryable): Promise<Opening[]> {
  if (await mayCarryTempFileLimit(client)) return [];
  const { rows: [row] } = await client.query<{ user: string }>('select current_user as user');
  return [{
    problem: `the server's user ${escapeIdentifier(row!.user)} may not set a BI role's ${TEMP_FILE_LIMIT}`,
    fix: `GRANT SET ON PARAMETER ${TEMP_FILE_LIMIT} TO ${escapeIdentifier(row!.user)};`,
  }];
}

/** Refuses a grant while anything is open: every problem and every statement that fixes it. */
export function refuseOpenings(openings: Opening[]): void {
  if (openings.length === 0) return;
  const fixes = [...new Set(openings.map((o) => o.fix))];
  throw new Error(
    `BI credential refused: this PostgreSQL cluster would let a BI role do more than read its BI database (docs/bi-cluster.md "The cluster"): ` +
      `${openings.map((o) => o.problem).join('; ')}. Run as a superuser (or the owner), then grant again:\n${fixes.map((f) => `  ${f}`).join('\n')}`,
  );
}
