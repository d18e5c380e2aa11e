import { z } from "zod";
import { monthIndex, monthOf, monthRange } from "../cube/months.js";
import { inTransaction } from "../db/transaction.js";
import { defineWorkflow } from "../jobs/define.js";
import { CodeHostFailed, CorpusPaused, graphqlClient } from "./github.js";
import { monthRow, releasesByMonth, repositoryKey } from "./measures.js";
import { CORPUS_LOCK, replaceCorpus } from "./store.js";
import { exclusionAfter, exclusionBefore, NAME_WITH_OWNER, sampledRepositories } from "./sample.js";
import { Uuid } from "../shared/schemas.js";
const CORPUS_JOB = "benchmarks.corpus";
const CORPUS_MONTHS = 12;
const LEASE_SECONDS = 20 * 60;
const MAX_INLINE_WAIT_MS = 6e4;
const SEARCH_CAP = 1e3;
const CorpusPayload = z.object({
  // Present when the schedule enqueued the job.
  schedule: z.string().optional(),
  windowStart: z.iso.datetime().optional(),
  /** A paused run's continuation. */
  runId: Uuid.optional(),
  /** The day the window is counted back from (YYYY-MM-DD, default today UTC): tests and tools/benchmarks. */
  asOf: z.iso.date().optional(),
  pageSize: z.number().int().min(1).max(100).optional(),
  /** Another sample than corpus/repositories.json (tools/benchmarks, tests). */
  repositories: z.array(z.string().regex(NAME_WITH_OWNER)).min(1).max(500).optional()
});
const REPOSITORY_QUERY = `query Repository($owner: String!, $name: String!) {
  rateLimit { cost remaining resetAt }
  repository(owner: $owner, name: $name) { isPrivate isArchived isFork isMirror pushedAt diskUsage owner { __typename } }
}`;
const RELEASES_QUERY = `query Releases($owner: String!, $name: String!, $first: Int!, $after: String) {
  rateLimit { cost remaining resetAt }
  repository(owner: $owner, name: $name) {
    releases(first: $first, after: $after, orderBy: {field: CREATED_AT, direction: DESC}) {
      pageInfo { hasNextPage endCursor }
      nodes { createdAt publishedAt isDraft isPrerelease }
    }
  }
}`;
const PULLS_QUERY = `query MergedPulls($search: String!, $first: Int!, $after: String) {
  rateLimit { cost remaining resetAt }
  search(query: $search, type: ISSUE, first: $first, after: $after) {
    issueCount
    pageInfo { hasNextPage endCursor }
    nodes { ... on PullRequest { createdAt mergedAt title author { __typename login } labels(first: 20) { nodes { name } } } }
  }
}`;
const firstDays = (from, to) => monthRange(from, to).map((m) => `${m}-01`);
function corpusWindow(asOf) {
  const current = monthIndex(asOf);
  return firstDays(monthOf(current - CORPUS_MONTHS), monthOf(current - 1));
}
const endOf = (month) => new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 1) - 1);
async function findOrCreateRun(pool, months, list) {
  const cursor = { list, repo: 0, phase: "check", releasesAfter: null, releases: {}, month: 0, excluded: [] };
  await pool.query(
    `insert into benchmark_corpus_runs (window_from, window_to, cursor) values ($1, $2, $3) on conflict (window_from, window_to) do nothing`,
    [months[0], months.at(-1), cursor]
  );
  const { rows } = await pool.query(
    `select id, to_char(window_from, 'YYYY-MM-DD') as "windowFrom", to_char(window_to, 'YYYY-MM-DD') as "windowTo", cursor, finished_at is not null as finished
     from benchmark_corpus_runs where window_from = $1 and window_to = $2`,
    [months[0], months.at(-1)]
  );
  return rows[0];
}
async function runById(pool, id) {
  const { rows } = await pool.query(
    `select id, to_char(window_from, 'YYYY-MM-DD') as "windowFrom", to_char(window_to, 'YYYY-MM-DD') as "windowTo", cursor, finished_at is not null as finished
     from benchmark_corpus_runs where id = $1`,
    [id]
  );
  return rows[0] ?? null;
}
async function takeLease(pool, runId, jobId, continuation) {
  const { rowCount } = await pool.query(
    `update benchmark_corpus_runs set lease_job_id = $2, lease_until = now() + make_interval(secs => $3), paused_until = null
     where id = $1 and finished_at is null and (lease_job_id is null or lease_job_id = $2 or lease_until < now())
       and ($4 or paused_until is null or paused_until <= now())`,
    [runId, jobId, LEASE_SECONDS, continuation]
  );
  return rowCount === 1;
}
class LeaseLost extends Error {
}
async function saveCursor(db, runId, jobId, cursor) {
  const { rowCount } = await db.query(
    `update benchmark_corpus_runs set cursor = $3, lease_until = now() + make_interval(secs => $4) where id = $1 and lease_job_id = $2`,
    [runId, jobId, cursor, LEASE_SECONDS]
  );
  if (rowCount !== 1) throw new LeaseLost("Another job took over this corpus run");
}
const ROW_COLUMNS = ["repository_key", "month", "prs_merged", "active_authors", "pr_cycle_time_p50_seconds", "prs_merged_per_active_author", "releases", "revert_or_hotfix_prs", "change_failure_proxy"];
const rowValues = (r) => [r.repositoryKey, r.month, r.prsMerged, r.activeAuthors, r.prCycleTimeP50Seconds, r.prsMergedPerActiveAuthor, r.releases, r.revertOrHotfixPrs, r.changeFailureProxy];
async function fetchMonth(client, repository, month, pageSize, signal) {
  const search = `repo:${repository} is:pr is:merged merged:${month}T00:00:00Z..${endOf(month).toISOString().slice(0, 19)}Z`;
  const pulls = [];
  let after = null;
  for (; ; ) {
    signal.throwIfAborted();
    const data = await client.query(PULLS_QUERY, { search, first: pageSize, after });
    if (data.search.issueCount > SEARCH_CAP) return null;
    for (const n of data.search.nodes) if (n.mergedAt) pulls.push({ createdAt: n.createdAt, mergedAt: n.mergedAt, title: n.title ?? "", author: n.author, labels: (n.labels?.nodes ?? []).map((l) => l.name) });
    if (!data.search.pageInfo.hasNextPage || !data.search.pageInfo.endCursor) return pulls;
    after = data.search.pageInfo.endCursor;
  }
}
async function collect(ctx, payload) {
  const { config } = ctx.app;
  const { pool } = ctx.app.database;
  const token = config.codehostPublicToken;
  if (!token) return { outcome: "skipped: CODEHOST_PUBLIC_TOKEN is not set" };
  const months = corpusWindow(payload.asOf ?? (/* @__PURE__ */ new Date()).toISOString().slice(0, 10));
  const run = payload.runId ? await runById(pool, payload.runId) : await findOrCreateRun(pool, months, payload.repositories ?? sampledRepositories());
  if (!run) return { outcome: "skipped: the run no longer exists" };
  if (run.finished) return { outcome: "current", runId: run.id };
  if (!await takeLease(pool, run.id, ctx.job.id, payload.runId === run.id)) return { outcome: "skipped: another job holds this run, or it is paused for the rate limit", runId: run.id };
  const window = firstDays(run.windowFrom, run.windowTo);
  const windowEnd = endOf(window.at(-1));
  const pageSize = payload.pageSize ?? 100;
  const cursor = run.cursor;
  const client = graphqlClient({
    url: config.codehostPublicGraphqlUrl,
    token,
    signal: ctx.signal,
    maxWaitMs: MAX_INLINE_WAIT_MS,
    onRequest: async () => void await pool.query("update benchmark_corpus_runs set requests = requests + 1 where id = $1", [run.id])
  });
  const nextRepository = () => Object.assign(cursor, { repo: cursor.repo + 1, phase: "check", releasesAfter: null, releases: {}, month: 0 });
  try {
    while (cursor.repo < cursor.list.length) {
      ctx.signal.throwIfAborted();
      const repository = cursor.list[cursor.repo];
      const [owner, name] = repository.split("/");
      const key = repositoryKey(repository);
      if (cursor.phase === "check") {
        const data = await client.query(REPOSITORY_QUERY, { owner, name });
        const reason = exclusionBefore(data.repository, windowEnd);
        if (reason) {
          cursor.excluded.push({ repo: cursor.repo, reason });
          nextRepository();
        } else {
          cursor.phase = "releases";
        }
        await saveCursor(pool, run.id, ctx.job.id, cursor);
        continue;
      }
      if (cursor.phase === "releases") {
        const data = await client.query(RELEASES_QUERY, { owner, name, first: pageSize, after: cursor.releasesAfter });
        const page = data.repository?.releases;
        const nodes = page?.nodes ?? [];
        for (const [month2, n] of Object.entries(releasesByMonth(nodes))) if (window.includes(month2)) cursor.releases[month2] = (cursor.releases[month2] ?? 0) + n;
        const reachedStart = nodes.some((r) => Date.parse(r.createdAt) < Date.parse(`${window[0]}T00:00:00Z`));
        if (page?.pageInfo.hasNextPage && page.pageInfo.endCursor && !reachedStart) {
          cursor.releasesAfter = page.pageInfo.endCursor;
        } else {
          cursor.phase = "pulls";
          cursor.releasesAfter = null;
        }
        await saveCursor(pool, run.id, ctx.job.id, cursor);
        await ctx.progress({ message: `benchmark corpus: ${cursor.repo + 1} of ${cursor.list.length} repositories` });
        continue;
      }
      const month = window[cursor.month];
      const pulls = await fetchMonth(client, repository, month, pageSize, ctx.signal);
      await inTransaction(pool, async (tx) => {
        if (pulls === null) {
          await tx.query("delete from benchmark_corpus_staging where run_id = $1 and repository_key = $2", [run.id, key]);
          cursor.excluded.push({ repo: cursor.repo, reason: "more than 1,000 merged pull requests in a month" });
          nextRepository();
        } else {
          const row = monthRow(key, month, pulls, cursor.releases[month] ?? 0);
          await tx.query(
            `insert into benchmark_corpus_staging (run_id, ${ROW_COLUMNS.join(", ")}) values ($1, ${ROW_COLUMNS.map((_, i) => `$${i + 2}`).join(", ")})
             on conflict (run_id, repository_key, month) do update set ${ROW_COLUMNS.slice(2).map((c) => `${c} = excluded.${c}`).join(", ")}`,
            [run.id, ...rowValues(row)]
          );
          cursor.month += 1;
          if (cursor.month >= window.length) {
            const { rows } = await tx.query(
              `select prs_merged as "prsMerged", active_authors as "activeAuthors" from benchmark_corpus_staging where run_id = $1 and repository_key = $2`,
              [run.id, key]
            );
            const reason = exclusionAfter(rows);
            if (reason) {
              await tx.query("delete from benchmark_corpus_staging where run_id = $1 and repository_key = $2", [run.id, key]);
              cursor.excluded.push({ repo: cursor.repo, reason });
            }
            nextRepository();
          }
        }
        await saveCursor(tx, run.id, ctx.job.id, cursor);
      });
    }
  } catch (error) {
    if (!(error instanceof CorpusPaused)) {
      if (error instanceof CodeHostFailed) ctx.app.log.warn({ job: ctx.job.id, run: run.id, reason: error.message }, "benchmark corpus: the code host failed; the run resumes on retry");
      throw error;
    }
    await pool.query("update benchmark_corpus_runs set paused_until = $2, lease_job_id = null, lease_until = null where id = $1 and lease_job_id = $3", [run.id, error.until, ctx.job.id]);
    await ctx.app.jobs.send(CORPUS_JOB, { runId: run.id, pageSize: payload.pageSize }, { startAfter: error.until });
    ctx.app.log.info({ run: run.id, until: error.until.toISOString() }, "benchmark corpus: paused for the rate limit");
    return { outcome: "paused", runId: run.id, until: error.until.toISOString() };
  }
  return { outcome: "collected", runId: run.id };
}
async function publish(ctx, state) {
  if (state.outcome !== "collected" || !state.runId) return state;
  const runId = state.runId;
  const repositories = await inTransaction(ctx.app.database.pool, async (tx) => {
    await tx.query("select pg_advisory_xact_lock($1)", [CORPUS_LOCK]);
    const { rows } = await tx.query(
      `select finished_at is not null as finished, to_char(window_from, 'YYYY-MM-DD') as "windowFrom", to_char(window_to, 'YYYY-MM-DD') as "windowTo"
       from benchmark_corpus_runs where id = $1 for update`,
      [runId]
    );
    const run = rows[0];
    if (!run || run.finished) return null;
    const { rows: staged } = await tx.query(`select ${ROW_COLUMNS.map((c) => `${c} as "${c}"`).join(", ")} from benchmark_corpus_staging where run_id = $1`, [runId]);
    const count = await replaceCorpus(tx, staged, { kind: "live", generatedAt: /* @__PURE__ */ new Date(), windowFrom: run.windowFrom, windowTo: run.windowTo });
    await tx.query("delete from benchmark_corpus_staging where run_id = $1", [runId]);
    await tx.query(`update benchmark_corpus_runs set finished_at = now(), outcome = 'published', lease_job_id = null, lease_until = null where id = $1`, [runId]);
    return count;
  });
  return repositories === null ? { ...state, outcome: "current" } : { ...state, outcome: "published", repositories };
}
const corpusWorkflow = defineWorkflow({
  name: CORPUS_JOB,
  summary: "Refreshes the open-source benchmark corpus from the code host (CODEHOST_PUBLIC_TOKEN): per sampled repository and month, aggregates only (docs/benchmarks.md).",
  idempotency: "One run per 12-month window: its cursor (saved after each repository check, releases page and repository month, the month with its staged row in one transaction) lets a retry resume where it stopped; a month is staged by upsert; the swap into benchmark_corpus runs once, under a lock, for an unfinished run.",
  payload: CorpusPayload,
  retryLimit: 5,
  retryDelaySeconds: 60,
  expireInSeconds: LEASE_SECONDS,
  initialState: {},
  steps: [
    { name: "collect", run: (ctx, payload) => collect(ctx, payload) },
    { name: "publish", run: (ctx, _payload, state) => publish(ctx, state) }
  ]
});
const CORPUS_SCHEDULE = {
  name: CORPUS_JOB,
  job: CORPUS_JOB,
  everySeconds: 24 * 3600,
  offsetSeconds: 5 * 3600 + 20 * 60,
  summary: "Daily at 05:20 UTC: the open-source benchmark corpus for the last 12 complete months, when CODEHOST_PUBLIC_TOKEN is set (a window already published is skipped, so in effect monthly)."
};
export {
  CORPUS_JOB,
  CORPUS_MONTHS,
  CORPUS_SCHEDULE,
  CorpusPayload,
  MAX_INLINE_WAIT_MS,
  corpusWindow,
  corpusWorkflow
};
