/**
 * The CLI and `serve` child processes of the tests run the source transpiled once per test run,
 * not through tsx in every child: tsx's loader doubles a start's CPU (importing the server: 5.7 s
 * through tsx, 2.7 s transpiled), and the suite starts dozens of children. esbuild transpiles
 * file by file into a folder beside src/ at the same depth, so every `import.meta.url` path
 * (migrations/, schema/, web/dist/) still resolves. Made fresh by the global setup of every run (a
 * stale build is never what a test runs) under a name of its own (two runs in one checkout do not
 * share one) and removed by its teardown.
 */
import { rmSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const ENV = 'DA_TEST_TRANSPILED';

async function sources(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.d.ts')).map((e) => join(e.parentPath, e.name));
}

export async function transpileForChildren(): Promise<void> {
  const outdir = join(ROOT, `.test-dist-${randomBytes(4).toString('hex')}`);
  await build({ entryPoints: await sources(join(ROOT, 'src')), outdir, outbase: join(ROOT, 'src'), format: 'esm', platform: 'node', target: 'node20', logLevel: 'warning' });
  process.env[ENV] = outdir;
}

export function removeTranspiled(): void {
  const dir = process.env[ENV];
  if (dir) rmSync(dir, { recursive: true, force: true });
}

/** The transpiled entry point, when the global setup made one; else null (the source through tsx). */
export function transpiledMain(): string | null {
  const dir = process.env[ENV];
  return dir ? join(dir, 'main.js') : null;
}
