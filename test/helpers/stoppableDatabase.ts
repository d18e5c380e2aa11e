/**
 * A PostgreSQL of a test's own that the test can stop and start again on the same port and data
 * (an outage), migrated like the shared template. The shared server of the run is never stopped.
 */
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { freePort, startEmbeddedPostgres, type EmbeddedPostgresServer } from '../../src/db/embedded.js';
import { clusterParent } from './database.js';

export interface StoppableDatabase {
  /** The migrated application database. */
  url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops it for good and removes its files. */
  remove(): Promise<void>;
}

export async function stoppableDatabase(): Promise<StoppableDatabase> {
  const dir = mkdtempSync(join(clusterParent(), 'da-outage-'));
  chmodSync(dir, 0o755);
  const port = await freePort();
  const options = { password: 'test', dataDir: join(dir, 'data'), port, flags: ['-c', 'fsync=off'] };
  let server: EmbeddedPostgresServer | null = await startEmbeddedPostgres(options);
  const admin = new pg.Client({ connectionString: server.urlFor('postgres') });
  await admin.connect();
  await admin.query('create database app');
  await admin.end();
  const url = server.urlFor('app');
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  try {
    await (await import('../../src/jobCatalog.js')).migrateDatabase(pool);
  } finally {
    await pool.end();
  }
  return {
    url,
    stop: async () => {
      await server?.stop();
      server = null;
    },
    start: async () => {
      server ??= await startEmbeddedPostgres(options);
    },
    remove: async () => {
      await server?.stop();
      server = null;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
