/**
 * Mocha's global fixtures: they run once, in the main process, before the parallel workers start.
 * The embedded PostgreSQL and the migrated template are made here (every worker's files clone the
 * template), the web app is built once, so two workers never build it at the same time, and the
 * source is transpiled once for the child processes the tests start (transpiled.ts).
 */
import { ensureWebBuilt } from '../../src/webBuild.js';
import { removeCubeCache, startCubeCache } from './cubeCache.js';
import { startSharedTestDatabase, stopTestDatabase } from './database.js';
import { removeTranspiled, transpileForChildren } from './transpiled.js';

export async function mochaGlobalSetup(): Promise<void> {
  ensureWebBuilt();
  await Promise.all([startSharedTestDatabase(), transpileForChildren(), startCubeCache()]);
}

export async function mochaGlobalTeardown(): Promise<void> {
  await stopTestDatabase();
  removeTranspiled();
  removeCubeCache();
}
