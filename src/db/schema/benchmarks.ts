/**
 * The open-source benchmark corpus (docs/benchmarks.md): global public data, so no tenant_id and
 * no row-level security by design (docs/tenancy.md, "What the floor does not cover"). Tenant work
 * may read the corpus and its source row; only system work writes them (migration 0039 revokes
 * the writes from app_tenant). Rows are aggregates only: no login, name or title is ever stored.
 */
import { sql } from 'drizzle-orm';
import { check, date, doublePrecision, integer, jsonb, pgTable, primaryKey, smallint, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

const measures = {
  /** Opaque key of the repository: the first 16 hex digits of sha256("owner/name"). */
  repositoryKey: text('repository_key').notNull(),
  /** First day of the calendar month (UTC). */
  month: date('month').notNull(),
  prsMerged: integer('prs_merged').notNull(),
  activeAuthors: integer('active_authors').notNull(),
  prCycleTimeP50Seconds: doublePrecision('pr_cycle_time_p50_seconds'),
  prsMergedPerActiveAuthor: doublePrecision('prs_merged_per_active_author'),
  releases: integer('releases').notNull(),
  revertOrHotfixPrs: integer('revert_or_hotfix_prs').notNull(),
  changeFailureProxy: doublePrecision('change_failure_proxy'),
};

export const benchmarkCorpus = pgTable(
  'benchmark_corpus',
  {
    ...measures,
    /**
     * Lead time for changes, median seconds of the releases dated in the month (commit → the first
     * release tag holding it). Measured from git history only (tools/benchmarks/gitHistory.ts): a
     * run of benchmarks.corpus leaves it empty, so it is not staged.
     */
    leadTimeP50Seconds: doublePrecision('lead_time_p50_seconds'),
  },
  (t) => [primaryKey({ name: 'benchmark_corpus_pkey', columns: [t.repositoryKey, t.month] }), check('benchmark_corpus_month_check', sql`${t.month} = date_trunc('month', ${t.month})::date`)],
);

/** Where the corpus rows came from: `snapshot`, the synthetic example shipped with the server, or `live`, measured by a completed run (src/benchmarks/store.ts CorpusSource). One row. */
export const benchmarkCorpusSource = pgTable(
  'benchmark_corpus_source',
  {
    id: smallint('id').primaryKey().default(1),
    kind: text('kind').notNull(),
    generatedAt: timestamp('generated_at', { withTimezone: true }).notNull(),
    windowFrom: date('window_from').notNull(),
    windowTo: date('window_to').notNull(),
    repositories: integer('repositories').notNull(),
    /** The shipped snapshot's checksum (src/benchmarks/store.ts snapshotChecksum); null for a corpus measured by a run here. */
    snapshotChecksum: text('snapshot_checksum'),
  },
  (t) => [check('benchmark_corpus_source_one_row', sql`${t.id} = 1`), check('benchmark_corpus_source_kind_check', sql`${t.kind} in ('snapshot', 'live')`)],
);

/** One refresh of the corpus per 12-month window: its window, the cursor it resumes from, the job holding it. */
export const benchmarkCorpusRuns = pgTable(
  'benchmark_corpus_runs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    windowFrom: date('window_from').notNull(),
    windowTo: date('window_to').notNull(),
    cursor: jsonb('cursor').$type<Record<string, unknown>>().notNull().default({}),
    /** GraphQL requests made by this run so far (every attempt, retries included). */
    requests: integer('requests').notNull().default(0),
    leaseJobId: text('lease_job_id'),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    /** Set while the run waits for the code host's rate limit to reset. */
    pausedUntil: timestamp('paused_until', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    outcome: text('outcome'),
  },
  (t) => [uniqueIndex('benchmark_corpus_runs_window_idx').on(t.windowFrom, t.windowTo)],
);

/** A run's repository-months until the run completes and swaps them into benchmark_corpus. */
export const benchmarkCorpusStaging = pgTable(
  'benchmark_corpus_staging',
  {
    runId: uuid('run_id')
      .notNull()
      .references(() => benchmarkCorpusRuns.id, { onDelete: 'cascade' }),
    ...measures,
  },
  (t) => [primaryKey({ name: 'benchmark_corpus_staging_pkey', columns: [t.runId, t.repositoryKey, t.month] })],
);
