// `npm test`: every test file, the slowest first (test/slowest.txt), then the rest in name order.
// The workers share the files as they come; started last, a 70-second file kept one worker busy
// for a minute after the others had finished.
const { readFileSync, readdirSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
const all = readdirSync(join(root, 'test'), { recursive: true })
  .filter((f) => f.endsWith('.test.ts'))
  .map((f) => join('test', f))
  .sort();
const slowest = readFileSync(join(__dirname, 'slowest.txt'), 'utf8')
  .split('\n')
  .filter((l) => l !== '' && !l.startsWith('#') && all.includes(l));

module.exports = {
  ...JSON.parse(readFileSync(join(root, '.mocharc.json'), 'utf8')),
  parallel: true,
  // Three workers on two cores: the slowest files mostly wait (child processes starting, a device
  // login's 5-second polls, per-second schedules), and a third worker runs while they wait.
  // TEST_JOBS overrides it.
  jobs: Number(process.env.TEST_JOBS ?? 3),
  spec: [...slowest, ...all.filter((f) => !slowest.includes(f))],
};
