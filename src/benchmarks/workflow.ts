/**
 * `benchmarks.corpus`: refreshes the open-source benchmark corpus (docs/benchmarks.md). For the 12
 * complete months before the run, for each sampled repository: check the criteria, page through its
 * releases, then read its merged pull requests month by month through the search API, and stage one
 * aggregate row per month; when every repository is done, swap the staged rows into
 * `benchmark_corpus` in one transaction.
 *
 * Checkpoints: the run's cursor (`benchmark_corpus_runs.cursor`) is saved after the repository
 * check, after every page of releases (their monthly counts are aggregates) and after every
 * repository month, together with that month's staged row. Within a month the pull requests'
 * pages are held in memory only, because between pages the month's distinct authors would have to
 * be kept, and no login is ever written: a crash re-reads the pages of the month it was in.
 *
 * Runs as system work (no tenant; the runner's asSystem('maintenance')). One run per window: a
 * finished window is not read again, an unfinished one is resumed by whichever job holds its lease.
 */
import type pg from 'pg';
import { z } from 'zod';
import { monthIndex, monthOf, monthRange } from '../shared/monthWindow.js';
import { inTransaction } from '../db/transaction.js';
import { defineWorkflow, type JobContext } from '../jobs/define.js';
import { CodeHostFailed, CorpusPaused, graphqlClient, type GraphqlClient } from './github.js';
import { changeFailureByMonth, datedReleases, FAILED_RELEASE_DAYS, isBot, isRevertPull, monthRow, repositoryKey, type CorpusRow, type DatedRelease, type PullFact, type ReleaseFact } from './measures.js';
import { CORPUS_LOCK, replaceCorpus } from './store.js';
import { exclusionAfter, exclusionBefore, NAME_WITH_OWNER, sampledRepositories, type RepositoryFacts } from './sample.js';
import { Uuid } from '../shared/schemas.js';

export const CORPUS_JOB = 'benchmarks.corpus';
export const CORPUS_MONTHS = 12;
const LEASE_SECONDS = 20 * 60;
/** A rate-limit wait up to this long is slept in place; a longer one reschedules the run. */
export const MAX_INLINE_WAIT_MS = 60_000;
/** GitHub's search answers at most 1,000 results per query: a bigger month cannot be read whole. */
const SEARCH_CAP = 1000;

export const CorpusPayload = z.object({
  // Present when the schedule enqueued the job.
  schedule: z.string().optional(),
  windowStart: z.iso.datetime().optional(),
  /** A paused run's continuation. */
  runId: Uuid.optional(),
  /** The day the window is counted back from (YYYY-MM-DD, default today UTC): tests and tools/benchmarks. */
  asOf: z.iso.date().optional(),
  pageSize: z.number().int().min(1).max(100).optional(),
  /** Another sample than corpus/repositories.json (tools/benchmarks, tests). */
  repositories: z.array(z.string().regex(NAME_WITH_OWNER)).min(1).max(500).optional(),
});
export type CorpusPayload = z.infer<typeof CorpusPayload>;

interface Cursor {
  list: string[];
  repo: number;
  phase: 'check' | 'releases' | 'pulls';
  releasesAfter: string | null;
  /** The repository's releases from the window's start to 7 days after its end: [published (epoch ms), series, patch]. No name or title. */
  releaseList: [number, string | null, number | null][];
  /** When the repository's revert PRs by people were merged into its default branch (epoch ms). */
  reverts: number[];
  /** The default branch (a revert counts there only); null when the code host does not say. */
  defaultBranch: string | null;
  month: number;
  excluded: { repo: number; reason: string }[];
}

interface Run {
  id: string;
  windowFrom: string;
  windowTo: string;
  cursor: Cursor;
  finished: boolean;
}

type State = { outcome?: string; runId?: string; until?: string; repositories?: number };

const REPOSITORY_QUERY = `query Repository($owner: String!, $name: String!) {
  rateLimit { cost remaining resetAt }
  repository(owner: $owner, name: $name) { isPrivate isArchived isFork isMirror pushedAt diskUsage owner { __typename } defaultBranchRef { name } }
}`;

const RELEASES_QUERY = `query Releases($owner: String!, $name: String!, $first: Int!, $after: String) {
  rateLimit { cost remaining resetAt }
  repository(owner: $owner, name: $name) {
    releases(first: $first, after: $after, orderBy: {field: CREATED_AT, direction: DESC}) {
      pageInfo { hasNextPage endCursor }
      nodes { tagName createdAt publishedAt isDraft isPrerelease }
    }
  }
}`;

const PULLS_QUERY = `query MergedPulls($search: String!, $first: Int!, $after: String) {
  rateLimit { cost remaining resetAt }
  search(query: $search, type: ISSUE, first: $first, after: $after) {
    issueCount
    pageInfo { hasNextPage endCursor }
    nodes { ... on PullRequest { createdAt mergedAt title baseRefName author { __typename login } labels(first: 20) { nodes { name } } } }
  }
}`;

/** The months `from`..`to` (any date in them), as YYYY-MM-01. */
const firstDays = (from: string, to: string) => monthRange(from, to).map((m) => `${m}-01`);

/** The 12 complete calendar months before `asOf`'s month, as YYYY-MM-01. */
export function corpusWindow(asOf: string): string[] {
  const current = monthIndex(asOf);
  return firstDays(monthOf(current - CORPUS_MONTHS), monthOf(current - 1));
}

const endOf = (month: string) => new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 1) - 1);

async function findOrCreateRun(pool: pg.Pool, months: string[], list: string[]): Promise<Run> {
  const cursor: Cursor = { list, repo: 0, phase: 'check', releasesAfter: null, releaseList: [], reverts: [], defaultBranch: null, month: 0, excluded: [] };
  await pool.query(
    `insert into benchmark_corpus_runs (window_from, window_to, cursor) values ($1, $2, $3) on conflict (window_from, window_to) do nothing`,
    [months[0], months.at(-1), cursor],
  );
  const { rows } = await pool.query(
    `select id, to_char(window_from, 'YYYY-MM-DD') as "windowFrom", to_char(window_to, 'YYYY-MM-DD') as "windowTo", cursor, finished_at is not null as finished
     from benchmark_corpus_runs where window_from = $1 and window_to = $2`,
    [months[0], months.at(-1)],
  );
  return rows[0] as Run;
}

async function runById(pool: pg.Pool, id: string): Promise<Run | null> {
  const { rows } = await pool.query(
    `select id, to_char(window_from, 'YYYY-MM-DD') as "windowFrom", to_char(window_to, 'YYYY-MM-DD') as "windowTo", cursor, finished_at is not null as finished
     from benchmark_corpus_runs where id = $1`,
    [id],
  );
  return (rows[0] as Run | undefined) ?? null;
}

/**
 * The run's lease for this job (a retry of the same job keeps it); false while another job holds
 * it, or while the run is paused for the rate limit and this is not its continuation (the daily
 * schedule would otherwise meet the limit at once and queue a second continuation).
 */
async function takeLease(pool: pg.Pool, runId: string, jobId: string, continuation: boolean): Promise<boolean> {
  const { rowCount } = await pool.query(
    `update benchmark_corpus_runs set lease_job_id = $2, lease_until = now() + make_interval(secs => $3), paused_until = null
     where id = $1 and finished_at is null and (lease_job_id is null or lease_job_id = $2 or lease_until < now())
       and ($4 or paused_until is null or paused_until <= now())`,
    [runId, jobId, LEASE_SECONDS, continuation],
  );
  return rowCount === 1;
}

class LeaseLost extends Error {}

async function saveCursor(db: pg.Pool | pg.PoolClient, runId: string, jobId: string, cursor: Cursor): Promise<void> {
  const { rowCount } = await db.query(
    `update benchmark_corpus_runs set cursor = $3, lease_until = now() + make_interval(secs => $4) where id = $1 and lease_job_id = $2`,
    [runId, jobId, cursor, LEASE_SECONDS],
  );
  if (rowCount !== 1) throw new LeaseLost('Another job took over this corpus run');
}

const ROW_COLUMNS = ['repository_key', 'month', 'prs_merged', 'active_authors', 'pr_cycle_time_p50_seconds', 'prs_merged_per_active_author', 'releases', 'revert_or_hotfix_prs', 'change_failure_proxy'];
const rowValues = (r: CorpusRow) => [r.repositoryKey, r.month, r.prsMerged, r.activeAuthors, r.prCycleTimeP50Seconds, r.prsMergedPerActiveAuthor, r.releases, r.revertOrHotfixPrs, r.changeFailureProxy];

async function fetchMonth(client: GraphqlClient, repository: string, month: string, pageSize: number, signal: AbortSignal): Promise<PullFact[] | null> {
  const search = `repo:${repository} is:pr is:merged merged:${month}T00:00:00Z..${endOf(month).toISOString().slice(0, 19)}Z`;
  const pulls: PullFact[] = [];
  let after: string | null = null;
  for (;;) {
    signal.throwIfAborted();
    const data: { search: { issueCount: number; pageInfo: { hasNextPage: boolean; endCursor: string | null }; nodes: (Omit<PullFact, 'labels'> & { labels: { nodes: { name: string }[] } | null })[] } } =
      await client.query(PULLS_QUERY, { search, first: pageSize, after });
    if (data.search.issueCount > SEARCH_CAP) return null;
    for (const n of data.search.nodes) {
      if (n.mergedAt) pulls.push({ createdAt: n.createdAt, mergedAt: n.mergedAt, title: n.title ?? '', baseRefName: n.baseRefName, author: n.author, labels: (n.labels?.nodes ?? []).map((l) => l.name) });
    }
    if (!data.search.pageInfo.hasNextPage || !data.search.pageInfo.endCursor) return pulls;
    after = data.search.pageInfo.endCursor;
  }
}

async function collect(ctx: JobContext, payload: CorpusPayload): Promise<State> {
  const { config } = ctx.app;
  const { pool } = ctx.app.database;
  const token = config.codehostPublicToken;
  if (!token) return { outcome: 'skipped: CODEHOST_PUBLIC_TOKEN is not set' };
  const months = corpusWindow(payload.asOf ?? new Date().toISOString().slice(0, 10));
  const run = payload.runId ? await runById(pool, payload.runId) : await findOrCreateRun(pool, months, payload.repositories ?? sampledRepositories());
  if (!run) return { outcome: 'skipped: the run no longer exists' };
  if (run.finished) return { outcome: 'current', runId: run.id };
  if (!(await takeLease(pool, run.id, ctx.job.id, payload.runId === run.id))) return { outcome: 'skipped: another job holds this run, or it is paused for the rate limit', runId: run.id };
  const window = firstDays(run.windowFrom, run.windowTo);
  const windowEnd = endOf(window.at(-1) as string);
  const pageSize = payload.pageSize ?? 100;
  const cursor = run.cursor;
  const client = graphqlClient({
    url: config.codehostPublicGraphqlUrl,
    token,
    signal: ctx.signal,
    maxWaitMs: MAX_INLINE_WAIT_MS,
    onRequest: async () => void (await pool.query('update benchmark_corpus_runs set requests = requests + 1 where id = $1', [run.id])),
  });
  const nextRepository = () => Object.assign(cursor, { repo: cursor.repo + 1, phase: 'check', releasesAfter: null, releaseList: [], reverts: [], defaultBranch: null, month: 0 } satisfies Partial<Cursor>);
  // A run checkpointed before releases were kept one by one (issue 46) resumes with none: its change failure stays empty.
  cursor.releaseList ??= [];
  cursor.reverts ??= [];
  cursor.defaultBranch ??= null;
  const windowStart = Date.parse(`${window[0]}T00:00:00Z`);
  const releasesOf = (month: string) => cursor.releaseList.filter(([at]) => new Date(at).toISOString().startsWith(month.slice(0, 7))).length;

  try {
    while (cursor.repo < cursor.list.length) {
      ctx.signal.throwIfAborted();
      const repository = cursor.list[cursor.repo] as string;
      const [owner, name] = repository.split('/') as [string, string];
      const key = repositoryKey(repository);

      if (cursor.phase === 'check') {
        const data = await client.query<{ repository: (RepositoryFacts & { defaultBranchRef?: { name: string } | null }) | null }>(REPOSITORY_QUERY, { owner, name });
        const reason = exclusionBefore(data.repository, windowEnd);
        cursor.defaultBranch = data.repository?.defaultBranchRef?.name ?? null;
        if (reason) {
          cursor.excluded.push({ repo: cursor.repo, reason });
          nextRepository();
        } else {
          cursor.phase = 'releases';
        }
        await saveCursor(pool, run.id, ctx.job.id, cursor);
        continue;
      }

      if (cursor.phase === 'releases') {
        type Page = { repository: { releases: { pageInfo: { hasNextPage: boolean; endCursor: string | null }; nodes: ReleaseFact[] } } | null };
        const data: Page = await client.query(RELEASES_QUERY, { owner, name, first: pageSize, after: cursor.releasesAfter });
        const page = data.repository?.releases;
        const nodes = page?.nodes ?? [];
        // The window's releases, and those up to 7 days after it: a patch release then still fails one of the window.
        const keep = (r: DatedRelease) => r.at >= windowStart && r.at <= windowEnd.getTime() + FAILED_RELEASE_DAYS * 86_400_000;
        for (const r of datedReleases(nodes)) if (keep(r)) cursor.releaseList.push([r.at, r.series, r.patch]);
        // Newest first: once a page reaches releases created before the window, older pages cannot count.
        const reachedStart = nodes.some((r) => Date.parse(r.createdAt) < Date.parse(`${window[0]}T00:00:00Z`));
        if (page?.pageInfo.hasNextPage && page.pageInfo.endCursor && !reachedStart) {
          cursor.releasesAfter = page.pageInfo.endCursor;
        } else {
          cursor.phase = 'pulls';
          cursor.releasesAfter = null;
        }
        await saveCursor(pool, run.id, ctx.job.id, cursor);
        await ctx.progress({ message: `benchmark corpus: ${cursor.repo + 1} of ${cursor.list.length} repositories` });
        continue;
      }

      const month = window[cursor.month] as string;
      const pulls = await fetchMonth(client, repository, month, pageSize, ctx.signal);
      await inTransaction(pool, async (tx) => {
        if (pulls === null) {
          // Beyond the search cap: not team-sized, and its month could not be read whole.
          await tx.query('delete from benchmark_corpus_staging where run_id = $1 and repository_key = $2', [run.id, key]);
          cursor.excluded.push({ repo: cursor.repo, reason: 'more than 1,000 merged pull requests in a month' });
          nextRepository();
        } else {
          // Reverts by people into the default branch (when the code host names both branches): they fail the releases of the 7 days before.
          for (const p of pulls) {
            if (isBot(p.author) || !isRevertPull(p) || (cursor.defaultBranch && p.baseRefName && p.baseRefName !== cursor.defaultBranch)) continue;
            cursor.reverts.push(Date.parse(p.mergedAt));
          }
          // The change failure proxy is set once the repository's last month is read (a revert next month can fail a release of this one).
          const row = monthRow(key, month, pulls, releasesOf(month), null);
          await tx.query(
            `insert into benchmark_corpus_staging (run_id, ${ROW_COLUMNS.join(', ')}) values ($1, ${ROW_COLUMNS.map((_, i) => `$${i + 2}`).join(', ')})
             on conflict (run_id, repository_key, month) do update set ${ROW_COLUMNS.slice(2).map((c) => `${c} = excluded.${c}`).join(', ')}`,
            [run.id, ...rowValues(row)],
          );
          cursor.month += 1;
          if (cursor.month >= window.length) {
            const releases = cursor.releaseList.map(([at, series, patch]) => ({ at, series, patch }));
            const failure = changeFailureByMonth(releases, cursor.reverts);
            for (const m of window) {
              await tx.query('update benchmark_corpus_staging set change_failure_proxy = $4 where run_id = $1 and repository_key = $2 and month = $3', [run.id, key, m, failure.get(m) ?? null]);
            }
            const { rows } = await tx.query<{ prsMerged: number; activeAuthors: number }>(
              `select prs_merged as "prsMerged", active_authors as "activeAuthors" from benchmark_corpus_staging where run_id = $1 and repository_key = $2`,
              [run.id, key],
            );
            const reason = exclusionAfter(rows);
            if (reason) {
              await tx.query('delete from benchmark_corpus_staging where run_id = $1 and repository_key = $2', [run.id, key]);
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
      if (error instanceof CodeHostFailed) ctx.app.log.warn({ job: ctx.job.id, run: run.id, reason: error.message }, 'benchmark corpus: the code host failed; the run resumes on retry');
      throw error;
    }
    // Resume after the reset: the cursor is saved; a continuation job takes the run then.
    await pool.query('update benchmark_corpus_runs set paused_until = $2, lease_job_id = null, lease_until = null where id = $1 and lease_job_id = $3', [run.id, error.until, ctx.job.id]);
    await ctx.app.jobs.send(CORPUS_JOB, { runId: run.id, pageSize: payload.pageSize }, { startAfter: error.until });
    ctx.app.log.info({ run: run.id, until: error.until.toISOString() }, 'benchmark corpus: paused for the rate limit');
    return { outcome: 'paused', runId: run.id, until: error.until.toISOString() };
  }
  return { outcome: 'collected', runId: run.id };
}

async function publish(ctx: JobContext, state: State): Promise<State> {
  if (state.outcome !== 'collected' || !state.runId) return state;
  const runId = state.runId;
  const repositories = await inTransaction(ctx.app.database.pool, async (tx) => {
    await tx.query('select pg_advisory_xact_lock($1)', [CORPUS_LOCK]);
    const { rows } = await tx.query<{ finished: boolean; windowFrom: string; windowTo: string }>(
      `select finished_at is not null as finished, to_char(window_from, 'YYYY-MM-DD') as "windowFrom", to_char(window_to, 'YYYY-MM-DD') as "windowTo"
       from benchmark_corpus_runs where id = $1 for update`,
      [runId],
    );
    const run = rows[0];
    if (!run || run.finished) return null;
    const { rows: staged } = await tx.query(`select ${ROW_COLUMNS.map((c) => `${c} as "${c}"`).join(', ')} from benchmark_corpus_staging where run_id = $1`, [runId]);
    const count = await replaceCorpus(tx, staged, { kind: 'live', generatedAt: new Date(), windowFrom: run.windowFrom, windowTo: run.windowTo });
    await tx.query('delete from benchmark_corpus_staging where run_id = $1', [runId]);
    await tx.query(`update benchmark_corpus_runs set finished_at = now(), outcome = 'published', lease_job_id = null, lease_until = null where id = $1`, [runId]);
    return count;
  });
  return repositories === null ? { ...state, outcome: 'current' } : { ...state, outcome: 'published', repositories };
}

export const corpusWorkflow = defineWorkflow<CorpusPayload, State>({
  name: CORPUS_JOB,
  summary: 'Refreshes the open-source benchmark corpus from the code host (CODEHOST_PUBLIC_TOKEN): per sampled repository and month, aggregates only (docs/benchmarks.md).',
  idempotency:
    'One run per 12-month window: its cursor (saved after each repository check, releases page and repository month, the month with its staged row in one transaction) lets a retry resume where it stopped; a month is staged by upsert; the swap into benchmark_corpus runs once, under a lock, for an unfinished run.',
  payload: CorpusPayload,
  retryLimit: 5,
  retryDelaySeconds: 60,
  expireInSeconds: LEASE_SECONDS,
  initialState: {},
  steps: [
    { name: 'collect', run: (ctx, payload) => collect(ctx, payload) },
    { name: 'publish', run: (ctx, _payload, state) => publish(ctx, state) },
  ],
});

export const CORPUS_SCHEDULE = {
  name: CORPUS_JOB,
  job: CORPUS_JOB,
  everySeconds: 24 * 3600,
  offsetSeconds: 5 * 3600 + 20 * 60,
  summary: 'Daily at 05:20 UTC: the open-source benchmark corpus for the last 12 complete months, when CODEHOST_PUBLIC_TOKEN is set (a window already published is skipped, so in effect monthly).',
} as const;
