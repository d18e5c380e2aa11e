import { appendFileSync } from 'node:fs';
import { startTestDatabase, stopTestDatabase } from './database.js';
import { closeFactoryPools } from './factories.js';
import { closeLeftServers } from './openServers.js';

// TEST_TIMES=<file>: one line per test file with its wall time (ms), its name, when it started (ms
// since the epoch), its worker's pid and how many servers it left open (closed here), to find what
// makes the suite slow and what runs last.
let startedAt = 0;

export const mochaHooks = {
  async beforeAll(this: Mocha.Context) {
    this.timeout(120_000);
    startedAt = Date.now();
    await startTestDatabase();
  },
  async afterAll(this: Mocha.Context) {
    this.timeout(60_000);
    const left = await closeLeftServers();
    await closeFactoryPools();
    await stopTestDatabase();
    const file = this.test?.parent?.suites[0]?.file;
    if (process.env.TEST_TIMES && file) appendFileSync(process.env.TEST_TIMES, `${Date.now() - startedAt}\t${file.replace(`${process.cwd()}/`, '')}\t${startedAt}\t${process.pid}\t${left}\n`);
  },
};
