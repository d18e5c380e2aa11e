/**
 * `npm run fuzz`: sends FUZZ_CASES (default 10,000) hostile bodies, derived from the zod schemas of
 * every JSON endpoint (test/helpers/hostile.ts), to a server, and prints the status histogram
 * (in all and per endpoint) and the rows written by refused requests. Exits 1 on any 500 or row.
 *
 * By default it starts its own PostgreSQL and server process. To target a running server, give
 * FUZZ_URL (the server) and DATABASE_URL (its database: the tenants are made there, and their rows
 * are counted there). FUZZ_SEED repeats a run; FUZZ_LANES tenants are fuzzed at once (default 4).
 */
import fc from 'fast-check';
import pg from 'pg';
import { openDatabase } from '../src/db/client.js';
import { createTenant, insertKey } from '../src/tenants/service.js';
import { cubeMembers, describeCase, Footprint, hostileCases, JSON_ENDPOINTS, KEY_RING_NAME, KeyRing, seedTenant, sendCase, type HostileCase, type Seed } from '../test/helpers/hostile.js';
import { migrate, serverEnv, startDatabase, startServerProcess, type EmbeddedDatabase, type ServerProcess } from './support.js';

const CASES = Number(process.env.FUZZ_CASES ?? 10_000);
const LANES = Number(process.env.FUZZ_LANES ?? 4);
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);

interface Lane {
  seed: Seed;
  keys: KeyRing;
  footprint: Footprint;
}

interface Finding {
  status: number;
  written: string[];
  text: string;
}

async function target(): Promise<{ url: string; databaseUrl: string; stop: () => Promise<void> }> {
  if (process.env.FUZZ_URL) {
    if (!process.env.DATABASE_URL) throw new Error('FUZZ_URL needs DATABASE_URL, the database of that server');
    return { url: process.env.FUZZ_URL.replace(/\/$/, ''), databaseUrl: process.env.DATABASE_URL, stop: async () => {} };
  }
  const database: EmbeddedDatabase = await startDatabase();
  let server: ServerProcess | undefined;
  try {
    const env = serverEnv(database.url);
    await migrate(env);
    server = await startServerProcess(env);
    const started = server;
    return { url: started.url, databaseUrl: database.url, stop: async () => { await started.stop(); await database.stop(); } };
  } catch (error) {
    await server?.stop();
    await database.stop();
    throw error;
  }
}

async function main(): Promise<number> {
  const { url, databaseUrl, stop } = await target();
  const database = openDatabase(databaseUrl, { max: LANES + 2, unscoped: 'test-fixture' });
  const pool = new pg.Pool({ connectionString: databaseUrl, max: LANES + 2 });
  try {
    const stamp = Date.now().toString(36);
    const lanes: Lane[] = [];
    for (let i = 0; i < LANES; i += 1) {
      const made = await createTenant(database.db, { name: `Fuzz ${stamp} ${i}`, ownerEmail: `fuzz-${stamp}-${i}@fuzz.example`, apiKey: true });
      const seed = await seedTenant(url, made.apiKey as string);
      const keys = new KeyRing(() => insertKey(database.db, made.tenantId, made.userId, KEY_RING_NAME));
      lanes.push({ seed, keys, footprint: await Footprint.of(pool, made.tenantId, made.userId) });
    }
    const cases = fc.sample(hostileCases(JSON_ENDPOINTS, await cubeMembers()), { numRuns: CASES, seed: SEED });
    process.stdout.write(`fuzz: ${CASES} bodies, seed ${SEED}, ${LANES} tenants at once, against ${url}\n`);

    const histogram = new Map<number, number>();
    const byEndpoint = new Map<string, Map<number, number>>();
    const findings: Finding[] = [];
    let refusedWrites = 0;
    const started = Date.now();
    let next = 0;
    const run = async (lane: Lane) => {
      for (let i = next++; i < cases.length; i = next++) {
        const c = cases[i] as HostileCase;
        const outcome = await sendCase(url, c, lane.seed, await lane.keys.next(), lane.footprint);
        histogram.set(outcome.status, (histogram.get(outcome.status) ?? 0) + 1);
        const name = `${c.endpoint.method} ${c.endpoint.path({ teamId: ':id', personId: ':id' })}`;
        if (!byEndpoint.has(name)) byEndpoint.set(name, new Map());
        byEndpoint.get(name)!.set(outcome.status, (byEndpoint.get(name)!.get(outcome.status) ?? 0) + 1);
        refusedWrites += outcome.written.length;
        if (outcome.status === 500 || outcome.written.length > 0) findings.push({ ...outcome, text: describeCase(c, lane.seed) });
      }
    };
    await Promise.all(lanes.map(run));
    const seconds = (Date.now() - started) / 1000;

    const line = (counts: Map<number, number>) => [...counts].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`).join('  ');
    process.stdout.write(`\nstatus histogram (${CASES} requests in ${seconds.toFixed(1)} s): ${line(histogram)}\n`);
    for (const [name, counts] of [...byEndpoint].sort()) process.stdout.write(`  ${name.padEnd(48)} ${line(counts)}\n`);
    process.stdout.write(`\n500s: ${histogram.get(500) ?? 0}\nrows written by refused requests: ${refusedWrites} (tables changed, summed over requests)\n`);
    for (const f of findings.slice(0, 20)) process.stdout.write(`  ${f.status} ${f.written.join(',')} ${f.text}\n`);
    return findings.length > 0 ? 1 : 0;
  } finally {
    await pool.end();
    await database.close();
    await stop();
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`${(error as Error).stack ?? error}\n`);
    process.exit(2);
  },
);
