/**
 * Writes corpus/snapshot.json, the corpus that ships with the server (docs/benchmarks.md):
 *
 *   npx tsx tools/benchmarks/snapshot.ts               replay tools/benchmarks/recording.json
 *   npx tsx tools/benchmarks/snapshot.ts --synthesize  first record the synthetic sample
 *                                                      (tools/benchmarks/synthesize.ts) through the fake
 *
 * Either way the snapshot is what `benchmarks.corpus` computes from the recorded answers, on a
 * throw-away embedded PostgreSQL. The recording holds fictional people only; a recording of real
 * repositories (their logins and titles) is not to be committed: export a live corpus instead
 * (`--export <DATABASE_URL>`: the corpus a completed run published, aggregates only).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import pg from 'pg';
import { startEmbeddedPostgres } from '../../src/db/embedded.js';
import { migrateDatabase } from '../../src/jobCatalog.js';
import { SNAPSHOT_FILE, type Snapshot, type StoredRow } from '../../src/benchmarks/store.js';
import { fakeCodeHostGraphql } from '../../test/helpers/fakeCodeHostGraphql.js';
import { EXPORTED_ABOUT, runCorpus, snapshotFromRecording, type Recording } from './build.js';
import { synthesize } from './synthesize.js';

const RECORDING = new URL('./recording.json', import.meta.url);
const RECORDED_AT = '2026-01-15T00:00:00.000Z';
const PAGE_SIZE = 50;

function write(snapshot: Snapshot): void {
  writeFileSync(SNAPSHOT_FILE, `${JSON.stringify({ ...snapshot, rows: undefined }, null, 2).replace(/\n}$/, ',\n  "rows": [\n')}${snapshot.rows.map((r) => `    ${JSON.stringify(r)}`).join(',\n')}\n  ]\n}\n`);
  process.stdout.write(`wrote ${SNAPSHOT_FILE.pathname}: ${snapshot.rows.length} repository months, ${new Set(snapshot.rows.map((r) => r.repository_key)).size} repositories\n`);
}

/** `work` on a throw-away embedded PostgreSQL, migrated. */
async function withMigratedDatabase<T>(work: (url: string) => Promise<T>): Promise<T> {
  const db = await startEmbeddedPostgres({ password: 'tools', tempPrefix: 'da-benchmarks-' });
  try {
    const url = db.urlFor('postgres');
    const pool = new pg.Pool({ connectionString: url, max: 1 });
    await migrateDatabase(pool);
    await pool.end();
    return await work(url);
  } finally {
    await db.stop();
  }
}

const args = process.argv.slice(2);
if (args[0] === '--export') {
  const pool = new pg.Pool({ connectionString: args[1] });
  const source = (await pool.query(`select kind, generated_at, to_char(window_from, 'YYYY-MM-DD') as "from", to_char(window_to, 'YYYY-MM-DD') as "to" from benchmark_corpus_source`)).rows[0];
  if (source?.kind !== 'live') throw new Error('that database has no corpus from a completed run');
  const { rows } = await pool.query<StoredRow>(`select repository_key, to_char(month, 'YYYY-MM-DD') as month, prs_merged, active_authors, pr_cycle_time_p50_seconds,
    prs_merged_per_active_author, releases, revert_or_hotfix_prs, change_failure_proxy, lead_time_p50_seconds from benchmark_corpus order by repository_key, month`);
  await pool.end();
  write({ about: EXPORTED_ABOUT, synthetic: false, generatedAt: source.generated_at.toISOString(), windowFrom: source.from, windowTo: source.to, rows });
} else {
  if (args.includes('--synthesize')) {
    const repositories = synthesize(RECORDED_AT.slice(0, 10));
    const fake = await fakeCodeHostGraphql({ repositories });
    try {
      // Recording: the workflow runs against the fake answering from the synthetic facts.
      await withMigratedDatabase((url) => runCorpus(url, fake, { recordedAt: RECORDED_AT, repositories: repositories.map((r) => r.nameWithOwner), pageSize: PAGE_SIZE }));
      const recording: Recording = {
        about: 'Recorded GraphQL answers of a synthetic sample (tools/benchmarks/synthesize.ts, fixed seed): fictional organisations and contributors.',
        recordedAt: RECORDED_AT,
        repositories: repositories.map((r) => r.nameWithOwner),
        pageSize: PAGE_SIZE,
        exchanges: fake.exchanges,
      };
      writeFileSync(RECORDING, `${JSON.stringify(recording)}\n`);
    } finally {
      await fake.close();
    }
  }
  const recording = JSON.parse(readFileSync(RECORDING, 'utf8')) as Recording;
  write(await withMigratedDatabase((url) => snapshotFromRecording(url, recording)));
}
