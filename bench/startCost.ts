/**
 * `npm run bench:start`: the CPU a `delivery-analytics serve` costs until it answers /health, the
 * cost every start of an instance pays (and every `serve` child of the tests: docs/benchmarks/
 * 2026-11-30-suite-cpu-by-file.md).
 *
 * On a migrated embedded PostgreSQL, ROUNDS (default 5) times in turn: (1) `serve` as it is, (2)
 * the reference, `serve` with the vendor SDKs that load when first used (tools/imports.ts,
 * LOADED_WHEN_USED) imported before it starts, as every start did before 2026-11-30, and (3) a bare
 * `node -e 0`. Prints each start's CPU (user + system, all threads, read from /proc when /health
 * first answers), the medians and the ratio of (1) to (2). The server runs as `npm start` runs it:
 * dist/ when built, else the source through tsx (about twice the CPU of a built start).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { LOADED_WHEN_USED } from '../tools/imports.js';
import { cpuTicks, median, migrate, serverEnv, startDatabase, startServerProcess } from './support.js';

const ROUNDS = Number(process.env.ROUNDS ?? 5);

/**
 * A module that imports every listed SDK, by absolute URL (it lives outside the project), resolved
 * as `import` resolves them (their ES module builds, which the server loaded at start before).
 */
function eagerImports(dir: string): string {
  const lines = LOADED_WHEN_USED.map((pkg) => `import ${JSON.stringify(import.meta.resolve(pkg))};`);
  const file = join(dir, 'eager.mjs');
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

async function serveCost(env: Record<string, string>, nodeArgs: string[]): Promise<number> {
  const server = await startServerProcess(env, nodeArgs);
  const seconds = cpuTicks(server.pid) / 100;
  await server.stop();
  return seconds;
}

function bareNodeCost(): number {
  const run = spawnSync(process.execPath, ['-e', 'const u = process.cpuUsage(); console.log(u.user + u.system)'], { encoding: 'utf8' });
  return Number(run.stdout.trim()) / 1e6;
}

const dir = mkdtempSync(join(tmpdir(), 'da-bench-start-'));
const database = await startDatabase();
try {
  const env = serverEnv(database.url);
  await migrate(env);
  const eager = ['--import', pathToFileURL(eagerImports(dir)).href];
  const asIs: number[] = [];
  const reference: number[] = [];
  const bare: number[] = [];
  for (let round = 1; round <= ROUNDS; round += 1) {
    asIs.push(await serveCost(env, []));
    reference.push(await serveCost(env, eager));
    bare.push(bareNodeCost());
    console.log(`round ${round}: serve ${asIs.at(-1)!.toFixed(2)} s, with the SDKs imported first ${reference.at(-1)!.toFixed(2)} s, bare node ${bare.at(-1)!.toFixed(3)} s`);
  }
  const [a, r] = [median(asIs), median(reference)];
  console.log(`\nserve to /health, CPU (median of ${ROUNDS}): ${a.toFixed(2)} s`);
  console.log(`reference, the ${LOADED_WHEN_USED.length} SDKs imported at start: ${r.toFixed(2)} s`);
  console.log(`ratio: ${(a / r).toFixed(2)} (saved ${(r - a).toFixed(2)} s a start); a bare node: ${median(bare).toFixed(3)} s`);
} finally {
  await database.stop();
  rmSync(dir, { recursive: true, force: true });
}
