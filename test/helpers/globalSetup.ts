/**
 * Mocha's global fixtures: they run once, in the main process, before the parallel workers start.
 * The embedded PostgreSQL and the migrated template are made here (every worker's files clone the
 * template), the web app is built once, so two workers never build it at the same time, and the
 * source is transpiled once for the child processes the tests start (transpiled.ts).
 */
import { appendFileSync, chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureWebBuilt } from '../../src/webBuild.js';
import { removeCubeCache, startCubeCache } from './cubeCache.js';
import { clusterSessions, startSharedTestDatabase, stopTestDatabase } from './database.js';
import { removeTranspiled, transpileForChildren } from './transpiled.js';

/**
 * The run's own temporary directory: TMPDIR for this process and the workers it forks, so what
 * tests make with mkdtemp (object stores, CLI homes, exports; a few hundred a run) goes with it.
 */
let runTmp: string | null = null;

export async function mochaGlobalSetup(): Promise<void> {
  runTmp = mkdtempSync(join(tmpdir(), 'da-test-run-'));
  // Run as root, PostgreSQL runs as its own user and reads its initdb password file from here.
  chmodSync(runTmp, 0o755);
  process.env.TMPDIR = runTmp;
  ensureWebBuilt();
  await Promise.all([startSharedTestDatabase(), transpileForChildren(), startCubeCache()]);
}

export async function mochaGlobalTeardown(): Promise<void> {
  if (process.env.TEST_TIMES) {
    const pg = await clusterSessions().catch(() => null);
    if (pg) appendFileSync(process.env.TEST_TIMES, `# PostgreSQL: ${pg.databases} databases, ${pg.sessions} sessions on them, ${pg.adminSessions} on postgres\n`);
  }
  await stopTestDatabase();
  removeTranspiled();
  removeCubeCache();
  if (runTmp) rmSync(runTmp, { recursive: true, force: true });
}
