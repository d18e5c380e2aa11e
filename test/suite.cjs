// `npm test`: every test file, the slowest first (test/slowest.txt), then the rest in name order.
// Two workers share the files as they come; started last, a 70-second file kept one worker busy
// for a minute after the other had finished.
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
  spec: [...slowest, ...all.filter((f) => !slowest.includes(f))],
};
