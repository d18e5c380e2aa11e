// `npm test`: every test file, the slowest first (test/slowest.txt), then the rest in name order.
// The workers share the files as they come; started last, a 70-second file kept one worker busy
// for a minute after the others had finished.
const { readFileSync, readdirSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
// TEST_SUBSET=server: every file but the browser (test/web/), BI-client (test/bi/) and benchmark
// (test/benchmarks/) ones, whose partners (Chromium, the JVM, Python) do not change with Node's
// version. .ci/run runs it on the second Node version.
const SUBSETS = { server: /^(web|bi|benchmarks)\// };
const subset = process.env.TEST_SUBSET;
if (subset !== undefined && !(subset in SUBSETS)) throw new Error(`TEST_SUBSET must be one of ${Object.keys(SUBSETS).join(', ')}`);
const all = readdirSync(join(root, 'test'), { recursive: true })
  .filter((f) => f.endsWith('.test.ts') && !(subset && SUBSETS[subset].test(f)))
  .map((f) => join('test', f))
  .sort();
const slowest = readFileSync(join(__dirname, 'slowest.txt'), 'utf8')
  .split('\n')
  .filter((l) => l !== '' && !l.startsWith('#') && all.includes(l));

module.exports = {
  ...require('../.mocharc.cjs'),
  parallel: true,
  // Four workers on two cores: the files wait much of their time (child processes starting, pages
  // loading, schedules every second), and the machine used 1.66 of its 2 cores with three. Measured
  // on 2026-11-27, quiet: three 293 s, four 274 s, five 301 s (and two timing failures). TEST_JOBS
  // overrides it.
  jobs: Number(process.env.TEST_JOBS ?? 4),
  spec: [...slowest, ...all.filter((f) => !slowest.includes(f))],
};
