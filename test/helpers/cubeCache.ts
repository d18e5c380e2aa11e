/**
 * The run's cube compile cache (CUBE_COMPILE_CACHE_DIR, src/cube/compiler.ts): every server the
 * tests start, in process or as a `serve` child, reads the models' transpiled YAML from one
 * directory instead of transpiling them again (1.7 s of CPU of a 3.1 s compile; a run starts some
 * twenty). The global setup makes it and compiles once into it while PostgreSQL starts; each run
 * has its own, removed by the teardown, so nothing of an earlier run is read.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { clusterParent } from './database.js';

const ENV = 'DA_TEST_CUBE_CACHE';

export async function startCubeCache(): Promise<void> {
  const dir = mkdtempSync(join(clusterParent(), 'da-test-cube-'));
  process.env[ENV] = dir;
  const { compileCube, SCHEMA_DIR } = await import('../../src/cube/compiler.js');
  await compileCube(SCHEMA_DIR, dir);
}

export function removeCubeCache(): void {
  const dir = process.env[ENV];
  if (dir) rmSync(dir, { recursive: true, force: true });
}

/** CUBE_COMPILE_CACHE_DIR for a test server's environment, when the run has a cache. */
export function cubeCacheEnv(): { CUBE_COMPILE_CACHE_DIR?: string } {
  const dir = process.env[ENV];
  return dir ? { CUBE_COMPILE_CACHE_DIR: dir } : {};
}
