// The main script's budget (the spec: 196 KB gzipped): sums the entry chunk and its static imports
// from Vite's manifest, gzip level 9, prints every file, fails the build when over. Also writes .gz
// and .br beside every asset so that the server sends them precompressed.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const BUDGET = 196 * 1024;
const dist = new URL('../dist/', import.meta.url).pathname;
const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8'));
const entry = Object.values(manifest).find((c) => c.isEntry);
if (!entry) throw new Error('budget: no entry chunk in the manifest');

const seen = new Set();
const walk = (chunk) => {
  if (seen.has(chunk.file)) return;
  seen.add(chunk.file);
  for (const css of chunk.css ?? []) seen.add(css);
  for (const key of chunk.imports ?? []) walk(manifest[key]);
};
walk(entry);

const gz = (file) => gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
let total = 0;
let raw = 0;
console.log('main script (entry and its static imports), gzip -9:');
for (const file of seen) {
  const size = gz(file);
  total += size;
  raw += readFileSync(join(dist, file)).length;
  console.log(`  ${file.padEnd(44)} ${kb(size).padStart(9)}`);
}
console.log(`  total ${kb(total)} gzipped (${kb(raw)} raw); budget ${kb(BUDGET)}`);

const assets = join(dist, 'assets');
let lazy = 0;
for (const name of readdirSync(assets)) {
  if (!/\.(js|css|svg|json)$/.test(name)) continue;
  const body = readFileSync(join(assets, name));
  writeFileSync(join(assets, `${name}.gz`), gzipSync(body, { level: 9 }));
  writeFileSync(join(assets, `${name}.br`), brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
  if (!seen.has(`assets/${name}`)) lazy += gzipSync(body, { level: 9 }).length;
}
console.log(`lazy chunks (pages, charts): ${kb(lazy)} gzipped in all`);
if (total > BUDGET) {
  console.error(`budget: the main script is ${kb(total)} gzipped, over the ${kb(BUDGET)} budget`);
  process.exit(1);
}
