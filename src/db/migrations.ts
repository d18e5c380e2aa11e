/**
 * Schema versioning. The bundled migrations are the drizzle journal in `migrations/`; the applied
 * ones are the rows of drizzle's own table, matched by the journal's timestamp (`created_at`).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type pg from 'pg';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import type { JobDefinition } from '../jobs/define.js';
import { restrictClusterToApplication, restrictDatabaseToApplication } from './privileges.js';
import { SchemaBehindError } from './errors.js';
import { applySqlSource, type GeneratedViews } from './sqlSource.js';

export { SchemaBehindError };

export const MIGRATIONS_DIR = fileURLToPath(new URL('../../migrations', import.meta.url));

interface JournalEntry {
  idx: number;
  when: number;
  tag: string;
}

export interface SchemaStatus {
  applied: number;
  bundled: number;
  ahead: boolean;
  /** Tags of bundled migrations the database has not applied, oldest first. */
  missing: string[];
}

export function bundledMigrations(dir = MIGRATIONS_DIR): JournalEntry[] {
  const journal = JSON.parse(readFileSync(`${dir}/meta/_journal.json`, 'utf8')) as { entries: JournalEntry[] };
  return journal.entries;
}

export async function schemaStatus(pool: pg.Pool, dir = MIGRATIONS_DIR): Promise<SchemaStatus> {
  const bundled = bundledMigrations(dir);
  const exists = await pool.query<{ present: boolean }>(
    "select to_regclass('drizzle.__drizzle_migrations') is not null as present",
  );
  const rows = exists.rows[0]?.present
    ? (await pool.query<{ created_at: string }>('select created_at from drizzle.__drizzle_migrations')).rows
    : [];
  const appliedStamps = new Set(rows.map((r) => Number(r.created_at)));
  const bundledStamps = new Set(bundled.map((m) => m.when));
  const missing = bundled.filter((m) => !appliedStamps.has(m.when)).map((m) => m.tag);
  const ahead = [...appliedStamps].some((stamp) => !bundledStamps.has(stamp));
  return { applied: bundled.length - missing.length, bundled: bundled.length, ahead, missing };
}

// Any constant works; it only has to be the same in every instance and the migration job.
const MIGRATION_LOCK = 4_127_301_559;

/**
 * What `migrate` installs besides the schema, handed in by the composition root (migrateDatabase in
 * src/jobCatalog.ts): infrastructure imports no capability (docs/architecture.md).
 */
export interface MigrationSetup {
  /** The job catalog: a queue for each. */
  jobs: readonly JobDefinition[];
  /** Runs under the migration lock once the schema and the queues are current (data a release ships). */
  afterMigrate?: (client: pg.PoolClient) => Promise<unknown>;
  /**
   * Whether the views and functions of `src/<capability>/sql/` are applied after the versioned
   * migrations (src/db/sqlSource.ts). Default: when `dir` is the bundled folder; a test that
   * migrates a database only up to an older migration gets the schema of that time.
   */
  sqlSource?: boolean;
  /**
   * The views generated from the models (the `bi` views, src/bi/generated.ts), recreated with the
   * files when a file or their SQL changed (applySqlSource). Computed before the lock is taken.
   */
  generatedViews?: () => Promise<GeneratedViews>;
}

/**
 * Applies every pending migration, one runner at a time across all processes, then the changed
 * view and function files and the generated views over them (docs/sql-source.md), then installs or upgrades pg-boss's schema
 * (`pgboss`) and the catalog's job queues, so `serve` never needs DDL.
 */
export async function runMigrations(pool: pg.Pool, setup: MigrationSetup, dir = MIGRATIONS_DIR): Promise<SchemaStatus> {
  const sqlSource = setup.sqlSource ?? dir === MIGRATIONS_DIR;
  // Compiling the models takes seconds of CPU: not while holding the lock other instances wait on.
  const generated = sqlSource ? await setup.generatedViews?.() : undefined;
  const client = await pool.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      await migrate(drizzle(client), { migrationsFolder: dir });
      if (sqlSource) await applySqlSource(client, undefined, generated);
      const { installJobQueues, BOSS_SCHEMA } = await import('../jobs/boss.js');
      await installJobQueues(client, setup.jobs);
      // Tenant work enqueues jobs, sometimes in its own transaction (docs/tenancy.md): it may add
      // a job and learn its id, never read or change the queue, which holds every tenant's jobs.
      await client.query(`GRANT USAGE ON SCHEMA ${BOSS_SCHEMA} TO app_tenant`);
      await client.query(`GRANT INSERT, SELECT (id) ON ${BOSS_SCHEMA}.job TO app_tenant`);
      await client.query(`GRANT SELECT ON ${BOSS_SCHEMA}.queue TO app_tenant`);
      // PUBLIC's database and schema privileges, taken once per database, not per BI grant.
      await restrictDatabaseToApplication(client);
      // And on the cluster's own databases (postgres, template1) where this user may: no login role
      // but ours connects there or creates temporary tables (issue 43, docs/bi-cluster.md "The cluster").
      await restrictClusterToApplication(client);
      await setup.afterMigrate?.(client);
    } finally {
      await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
  } finally {
    client.release();
  }
  return schemaStatus(pool, dir);
}
