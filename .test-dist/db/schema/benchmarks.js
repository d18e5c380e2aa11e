import { sql } from "drizzle-orm";
import { check, date, doublePrecision, integer, jsonb, pgTable, primaryKey, smallint, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
const measures = {
  /** Opaque key of the repository: the first 16 hex digits of sha256("owner/name"). */
  repositoryKey: text("repository_key").notNull(),
  /** First day of the calendar month (UTC). */
  month: date("month").notNull(),
  prsMerged: integer("prs_merged").notNull(),
  activeAuthors: integer("active_authors").notNull(),
  prCycleTimeP50Seconds: doublePrecision("pr_cycle_time_p50_seconds"),
  prsMergedPerActiveAuthor: doublePrecision("prs_merged_per_active_author"),
  releases: integer("releases").notNull(),
  revertOrHotfixPrs: integer("revert_or_hotfix_prs").notNull(),
  changeFailureProxy: doublePrecision("change_failure_proxy")
};
const benchmarkCorpus = pgTable(
  "benchmark_corpus",
  measures,
  (t) => [primaryKey({ name: "benchmark_corpus_pkey", columns: [t.repositoryKey, t.month] }), check("benchmark_corpus_month_check", sql`${t.month} = date_trunc('month', ${t.month})::date`)]
);
const benchmarkCorpusSource = pgTable(
  "benchmark_corpus_source",
  {
    id: smallint("id").primaryKey().default(1),
    kind: text("kind").notNull(),
    generatedAt: timestamp("generated_at", { withTimezone: true }).notNull(),
    windowFrom: date("window_from").notNull(),
    windowTo: date("window_to").notNull(),
    repositories: integer("repositories").notNull()
  },
  (t) => [check("benchmark_corpus_source_one_row", sql`${t.id} = 1`), check("benchmark_corpus_source_kind_check", sql`${t.kind} in ('snapshot', 'live')`)]
);
const benchmarkCorpusRuns = pgTable(
  "benchmark_corpus_runs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    windowFrom: date("window_from").notNull(),
    windowTo: date("window_to").notNull(),
    cursor: jsonb("cursor").$type().notNull().default({}),
    /** GraphQL requests made by this run so far (every attempt, retries included). */
    requests: integer("requests").notNull().default(0),
    leaseJobId: text("lease_job_id"),
    leaseUntil: timestamp("lease_until", { withTimezone: true }),
    /** Set while the run waits for the code host's rate limit to reset. */
    pausedUntil: timestamp("paused_until", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
    outcome: text("outcome")
  },
  (t) => [uniqueIndex("benchmark_corpus_runs_window_idx").on(t.windowFrom, t.windowTo)]
);
const benchmarkCorpusStaging = pgTable(
  "benchmark_corpus_staging",
  {
    runId: uuid("run_id").notNull().references(() => benchmarkCorpusRuns.id, { onDelete: "cascade" }),
    ...measures
  },
  (t) => [primaryKey({ name: "benchmark_corpus_staging_pkey", columns: [t.runId, t.repositoryKey, t.month] })]
);
export {
  benchmarkCorpus,
  benchmarkCorpusRuns,
  benchmarkCorpusSource,
  benchmarkCorpusStaging
};
