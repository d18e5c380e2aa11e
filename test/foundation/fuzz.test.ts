/**
 * Property: whatever body a JSON endpoint receives, the answer is not a 500, and a refused request
 * writes no row. Bodies come from the endpoints' own zod schemas (test/helpers/hostile.ts); the
 * server and PostgreSQL are real. Each run sends one case for each of LANES tenants at once (so
 * webhook batches mix good and bad requests of several tenants); a lane's requests are
 * sequential, so a refused request is known to have written nothing of its tenant.
 * Bounded for `npm test`; `npm run fuzz` sends 10,000.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { insertKey } from '../../src/tenants/service.js';
import { buildTenant, dbFor } from '../helpers/factories.js';
import { cubeMembers, describeCase, Footprint, hostileCases, JSON_ENDPOINTS, KEY_RING_NAME, KeyRing, seedTenant, sendCase, type Seed } from '../helpers/hostile.js';
import { testServer, type TestServer } from '../helpers/server.js';

// 200 × 4 a run (a new seed each run, so CI runs add up); 500 took 85 s of a loaded suite, a tenth of its time.
const RUNS = Number(process.env.FUZZ_RUNS ?? 200);
const LANES = 4;

interface Lane {
  seed: Seed;
  keys: KeyRing;
  footprint: Footprint;
}

describe('fuzz: hostile bodies for every JSON endpoint', function () {
  this.timeout(120_000);
  let api: TestServer;
  let lanes: Lane[];
  let known: Record<string, string[]>;

  before(async () => {
    api = await testServer();
    known = await cubeMembers();
    const { db, pool } = dbFor(api.databaseUrl);
    lanes = await Promise.all(
      Array.from({ length: LANES }, async () => {
        const t = await buildTenant(api.databaseUrl);
        const seed = await seedTenant(api.baseUrl, t.owner.apiKey);
        const keys = new KeyRing(() => insertKey(db, t.tenantId, t.owner.userId, KEY_RING_NAME));
        return { seed, keys, footprint: await Footprint.of(pool, t.tenantId, t.owner.userId) };
      }),
    );
  });
  after(() => api.close());

  it(`answers ${RUNS} × ${LANES} generated bodies without a 500, and refused ones write nothing`, async () => {
    const statuses = new Map<number, number>();
    const cases = hostileCases(JSON_ENDPOINTS, known);
    await fc.assert(
      fc.asyncProperty(fc.tuple(...lanes.map(() => cases)), async (batch) => {
        const outcomes = await Promise.all(batch.map(async (c, i) => {
          const lane = lanes[i]!;
          return { c, lane, ...(await sendCase(api.baseUrl, c, lane.seed, await lane.keys.next(), lane.footprint)) };
        }));
        for (const { c, lane, status, written } of outcomes) {
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
          expect(status, describeCase(c, lane.seed)).to.not.equal(500);
          expect(written, `${status} ${describeCase(c, lane.seed)}`).to.deep.equal([]);
        }
      }),
      { numRuns: RUNS, seed: Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31), endOnFailure: true },
    );
    // Both sides were exercised: requests stored and requests refused.
    expect([...statuses.keys()].some((s) => s < 300), JSON.stringify([...statuses])).to.equal(true);
    expect(statuses.get(400) ?? 0).to.be.greaterThan(RUNS);
  });
});
