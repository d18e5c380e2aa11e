/**
 * Mocha's global fixtures: they run once, in the main process, before the parallel workers start.
 * The embedded PostgreSQL and the migrated template are made here (every worker's files clone the
 * template), and the web app is built once, so two workers never build it at the same time.
 */
import { ensureWebBuilt } from '../../src/webBuild.js';
import { startSharedTestDatabase, stopTestDatabase } from './database.js';

export async function mochaGlobalSetup(): Promise<void> {
  ensureWebBuilt();
  await startSharedTestDatabase();
}

export async function mochaGlobalTeardown(): Promise<void> {
  await stopTestDatabase();
}
