/**
 * GET /capture.mjs: the `sessions:capture` command as one dependency-free ES module
 * (src/aiSessions/capture/standalone.ts bundled by esbuild), so a laptop with only Node.js 18+ runs
 * the hook with `node capture.mjs` (docs/ai-capture.md). A release carries it prebuilt (dist/capture.mjs, written by
 * `npm run build`); run from source (development, tests) it is bundled at the first request and kept.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AppError } from '../errors.js';

const HERE = fileURLToPath(import.meta.url);
const FROM_SOURCE = HERE.endsWith('.ts');
const ROOT = join(dirname(HERE), '..');
const PREBUILT = join(ROOT, 'capture.mjs');
const ENTRY = join(ROOT, 'aiSessions', 'capture', FROM_SOURCE ? 'standalone.ts' : 'standalone.js');

/** Bundles the standalone capture program; refuses when anything of node_modules would be in it. */
export async function bundleCapture(entry = ENTRY): Promise<Buffer> {
  const esbuild = await import('esbuild').catch(() => null);
  if (!esbuild) throw new AppError('unavailable', 'capture.mjs is not part of this build (npm run build writes it) and esbuild is not installed to bundle it');
  const result = await esbuild.build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node18',
    write: false,
    metafile: true,
    legalComments: 'none',
    logLevel: 'silent',
    banner: { js: '#!/usr/bin/env node\n// delivery-analytics capture: see docs/ai-capture.md of your server.' },
  });
  const packages = Object.keys(result.metafile.inputs).filter((input) => input.includes('node_modules'));
  if (packages.length > 0) throw new Error(`capture.mjs must not bundle npm packages, but imports ${packages.join(', ')}`);
  return Buffer.from((result.outputFiles[0] as { contents: Uint8Array }).contents);
}

let cached: Promise<Buffer> | null = null;

/** The program's bytes: the release's prebuilt file, else bundled once per process. */
export function captureScript(): Promise<Buffer> {
  cached ??= (FROM_SOURCE ? bundleCapture() : readFile(PREBUILT).catch(() => bundleCapture())).catch((error: unknown) => {
    cached = null;
    throw error;
  });
  return cached;
}

/** `npm run build`: writes dist/capture.mjs beside the compiled server. */
export async function writeCaptureScript(outFile: string): Promise<void> {
  await writeFile(outFile, await bundleCapture(), { mode: 0o644 });
}
