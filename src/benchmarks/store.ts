/**
 * Writing the corpus: the swap of a finished run and the shipped snapshot
 * (corpus/snapshot.json, written by tools/benchmarks/snapshot.ts), both whole, in one
 * transaction, under one advisory lock, as system work. The snapshot is loaded after migrate when
 * the corpus is empty or holds an older snapshot; a corpus from a live run is never replaced by it.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type pg from 'pg';
import { transactionOn } from '../db/transaction.js';

// Any constant: the same in every instance, the migration step and the workflow.
export const CORPUS_LOCK = 4_127_301_611;

export const SNAPSHOT_FILE = new URL('../../corpus/snapshot.json', import.meta.url);

/** A row as stored (snake_case columns of benchmark_corpus). */
export type StoredRow = Record<string, string | number | null>;

export interface CorpusSource {
  /**
   * snapshot: a synthetic example (tools/benchmarks/snapshot.ts); live: measured from real
   * repositories, by a completed run of benchmarks.corpus (here, or elsewhere and shipped through
   * `tools/benchmarks/snapshot.ts --export`) or from their public git history
   * (tools/benchmarks/measure.ts, the corpus shipped today). Users see them as `shipped_example`
   * and `measured` (the cube dimension benchmarks.corpus_source).
   */
  kind: 'snapshot' | 'live';
  generatedAt: Date;
  /** YYYY-MM-DD, first days of the first and last month. */
  windowFrom: string;
  windowTo: string;
  /** The shipped snapshot's rows' checksum (snapshotChecksum); none for a corpus a run measured here. */
  checksum?: string;
}

/**
 * What tells two shipped snapshots of the same measurement apart: a re-measure of the same
 * repositories at the same commits keeps its read date (`generatedAt`) and may still change rows (a
 * corrected rule), so the date alone would keep the earlier rows in every database that loaded them.
 */
export function snapshotChecksum(snapshot: Pick<Snapshot, 'rows' | 'windowFrom' | 'windowTo'>): string {
  return createHash('sha256').update(JSON.stringify([snapshot.windowFrom, snapshot.windowTo, snapshot.rows])).digest('hex');
}

export interface Snapshot {
  about: string;
  /** true: computed from a synthetic recording (fictional repositories), illustrative only; false: measured (from git history, or exported from a live corpus). */
  synthetic: boolean;
  generatedAt: string;
  windowFrom: string;
  windowTo: string;
  /**
   * Where measured figures came from: for `git-history`, the public repositories in the corpus and
   * the commit each was read at, and those read but left out, with the reason (tools/benchmarks/measure.ts).
   */
  provenance?: {
    method: 'git-history';
    readOn: string;
    repositories: { repository: string; commit: string }[];
    leftOut: { repository: string; commit: string; activeMonths: number; reason: 'not active' | 'more than 60 PR authors in a month' }[];
  };
  rows: StoredRow[];
}

export function readSnapshot(file: URL = SNAPSHOT_FILE): Snapshot {
  return JSON.parse(readFileSync(file, 'utf8')) as Snapshot;
}

/** Replaces every corpus row and the source row; the caller holds the transaction and CORPUS_LOCK. Returns the repositories. */
export async function replaceCorpus(tx: pg.ClientBase, rows: StoredRow[], source: CorpusSource): Promise<number> {
  await tx.query('delete from benchmark_corpus');
  // json_populate_recordset maps the snake_case keys onto the columns and ignores any other key.
  await tx.query('insert into benchmark_corpus select * from json_populate_recordset(null::benchmark_corpus, $1::json)', [JSON.stringify(rows)]);
  const repositories = new Set(rows.map((r) => r.repository_key)).size;
  await tx.query(
    `insert into benchmark_corpus_source (id, kind, generated_at, window_from, window_to, repositories, snapshot_checksum) values (1, $1, $2, $3, $4, $5, $6)
     on conflict (id) do update set kind = excluded.kind, generated_at = excluded.generated_at, window_from = excluded.window_from,
       window_to = excluded.window_to, repositories = excluded.repositories, snapshot_checksum = excluded.snapshot_checksum`,
    [source.kind, source.generatedAt, source.windowFrom, source.windowTo, repositories, source.checksum ?? null],
  );
  return repositories;
}

export type SnapshotOutcome = 'loaded' | 'current' | 'live';

/**
 * `migrate`'s last step (handed to src/db/migrations.ts by src/jobCatalog.ts): the open-source
 * benchmark corpus ships as a snapshot (docs/benchmarks.md), loaded when the corpus is empty or
 * older, so the comparison works without CODEHOST_PUBLIC_TOKEN. (A migrations folder of another
 * version may not have the table yet.)
 */
export async function loadShippedSnapshotOnMigrate(client: pg.ClientBase): Promise<void> {
  // A database migrated only up to an older release (a test of one migration) has the table
  // without the column this loader keeps the snapshot's checksum in: nothing to load there.
  const { rows } = await client.query<{ present: boolean }>(
    `select exists (select 1 from information_schema.columns
      where table_schema = current_schema() and table_name = 'benchmark_corpus_source' and column_name = 'snapshot_checksum') as present`,
  );
  if (rows[0]?.present) await loadShippedSnapshot(client);
}

/**
 * Loads the shipped snapshot when the corpus has none or an older one. Several instances starting
 * at once serialise on CORPUS_LOCK: the first loads, the others find it current. A measured
 * snapshot (from public git history, tools/benchmarks/measure.ts, or exported from a live run)
 * holds measured figures, so it is stored as `live`: it replaces the synthetic example whatever
 * its date, and a measured corpus only when newer (a live run after it is kept); only a synthetic
 * snapshot is stored as `snapshot`, and it never replaces a measured corpus.
 */
export async function loadShippedSnapshot(client: pg.ClientBase, snapshot: Snapshot = readSnapshot()): Promise<SnapshotOutcome> {
  return transactionOn(client, async (tx) => {
    await tx.query('select pg_advisory_xact_lock($1)', [CORPUS_LOCK]);
    const { rows } = await tx.query<{ kind: string; generated_at: Date; snapshot_checksum: string | null }>(
      'select kind, generated_at, snapshot_checksum from benchmark_corpus_source where id = 1',
    );
    const current = rows[0];
    const kind = snapshot.synthetic === false ? 'live' : 'snapshot';
    const checksum = snapshotChecksum(snapshot);
    if (current) {
      const notNewer = current.generated_at.getTime() >= Date.parse(snapshot.generatedAt);
      // The same measurement (same read date) revised since it was loaded: the shipped rows win.
      const revised = current.generated_at.getTime() === Date.parse(snapshot.generatedAt) && current.snapshot_checksum !== checksum;
      if (current.kind === kind && notNewer && !revised) return 'current';
      // A measured corpus is kept, unless the snapshot is a newer measurement.
      if (current.kind === 'live' && (kind === 'snapshot' || (notNewer && !revised))) return 'live';
    }
    await replaceCorpus(tx, snapshot.rows, { kind, generatedAt: new Date(snapshot.generatedAt), windowFrom: snapshot.windowFrom, windowTo: snapshot.windowTo, checksum });
    return 'loaded';
  });
}
