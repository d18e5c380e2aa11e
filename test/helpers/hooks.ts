import { startTestDatabase, stopTestDatabase } from './database.js';
import { closeFactoryPools } from './factories.js';

export const mochaHooks = {
  async beforeAll(this: Mocha.Context) {
    this.timeout(120_000);
    await startTestDatabase();
  },
  async afterAll(this: Mocha.Context) {
    this.timeout(60_000);
    await closeFactoryPools();
    await stopTestDatabase();
  },
};
