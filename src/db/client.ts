import pg from 'pg';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import * as schema from './schema/index.js';

export type Db = NodePgDatabase<typeof schema>;

export interface Database {
  pool: pg.Pool;
  db: Db;
  close(): Promise<void>;
}

// Timestamps and bigint counts come back as strings by default; counts beyond 2^53 do not occur here.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export function openDatabase(url: string, options: { max?: number; applicationName?: string } = {}): Database {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    application_name: options.applicationName ?? 'delivery-analytics',
    connectionTimeoutMillis: 5000,
    // Plan every execution for its parameters. A named statement's cached generic plan is made
    // from the statistics of the moment; one made while a table was nearly empty (a new install,
    // a burst of webhooks before autovacuum's first ANALYZE) kept reading 10,000 issues per
    // webhook batch instead of 12 index entries. Planning costs ~0.1–0.3 ms; parsing is still cached.
    options: '-c plan_cache_mode=force_custom_plan',
  });
  // An idle client losing its connection (database restart) must not crash the process.
  pool.on('error', () => {});
  return { pool, db: drizzle(pool, { schema }), close: () => pool.end() };
}
