/** The benchmark tests' shared parts: the workflow run as the worker runs it, and a small sample. */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { loadConfig, type Env } from '../../src/config/index.js';
import type { AppContext } from '../../src/context.js';
import { openDatabase, type Database } from '../../src/db/client.js';
import { asSystem } from '../../src/db/tenancy.js';
import { jobCatalog } from '../../src/jobCatalog.js';
import type { JobContext } from '../../src/jobs/define.js';
import { createJobQueue } from '../../src/jobs/index.js';
import { createLivePublisher } from '../../src/live/publisher.js';
import { createLogger } from '../../src/log.js';
import { corpusWorkflow, type CorpusPayload } from '../../src/benchmarks/workflow.js';
import type { FakePull, FakeRepository } from '../helpers/fakeCodeHostGraphql.js';
import { baseEnv } from '../helpers/server.js';
import { requestHooks } from '../../src/app.js';

export function corpusApp(databaseUrl: string, env: Env = {}): { app: AppContext; database: Database } {
  const config = loadConfig({ ...baseEnv(databaseUrl), ...env });
  const database = openDatabase(databaseUrl, { max: 4 });
  return { app: { config, database, log: createLogger('silent'), jobs: createJobQueue(database.pool, jobCatalog), live: createLivePublisher(database.pool, config), requestHooks }, database };
}

/** `benchmarks.corpus` as the runner runs a job without a tenant: system work, the job's id, an abort signal. */
export function runCorpus(app: AppContext, payload: CorpusPayload, jobId: string = randomUUID()): Promise<{ steps: number; state: Record<string, unknown> }> {
  const ctx: JobContext = { app, job: { id: jobId, name: corpusWorkflow.name, retryCount: 0 }, signal: new AbortController().signal, instanceId: 'test', progress: async () => {} };
  return asSystem('maintenance', () => corpusWorkflow.run(ctx, payload)) as Promise<{ steps: number; state: Record<string, unknown> }>;
}

/** Window of asOf 2025-02-10: 2024-02 … 2025-01. */
export const AS_OF = '2025-02-10';
export const WINDOW = ['2024-02', '2024-03', '2024-04', '2024-05', '2024-06', '2024-07', '2024-08', '2024-09', '2024-10', '2024-11', '2024-12', '2025-01'];

const org = (pushedAt = '2025-01-28T10:00:00Z') => ({ isPrivate: false, isArchived: false, isFork: false, isMirror: false, pushedAt, diskUsage: 12_000, owner: { __typename: 'Organization' }, defaultBranchRef: { name: 'main' } });
const hours = (mergedAt: string, h: number) => new Date(Date.parse(mergedAt) - h * 3_600_000).toISOString();
const pull = (mergedAt: string, h: number, login: string, title = 'Change', labels: string[] = [], typename = 'User', baseRefName?: string): FakePull => ({
  createdAt: hours(mergedAt, h), mergedAt, title, author: { __typename: typename, login }, labels, ...(baseRefName ? { baseRefName } : {}),
});

/**
 * alpha: each month alice (2 h) and bob (4 h) plus a bot PR; in 2024-06 bob's PR (the 6th) is a
 * revert. Releases in 2024-06: v1.1.0 (1st, failed: the revert 5 days later), v1.2.0 (10th,
 * failed: v1.2.1 4 days later), v1.2.1 (14th) and a pre-release (left out). bravo: carol twice a
 * month (1 h, 10 h); in 2024-03 one is a hotfix by label; v2.0.0 on 31 Jul fails by carol's revert
 * into main on 3 Aug (the next month); v2.1.0 on 5 Sep does not, her revert of 10 Sep going into
 * release-2.0, not the default branch. Also a fork, left out at its first request.
 */
export function sample(): FakeRepository[] {
  const alpha = WINDOW.flatMap((m) => [
    pull(`${m}-05T12:00:00Z`, 2, 'alice'),
    pull(`${m}-06T12:00:00Z`, 4, 'bob', m === '2024-06' ? 'Revert "Add the cache"' : 'Tune the cache'),
    pull(`${m}-07T12:00:00Z`, 1, 'dependabot[bot]', 'Bump lodash', [], 'Bot'),
  ]);
  const bravo = WINDOW.flatMap((m) => [
    m === '2024-08' ? pull('2024-08-03T08:00:00Z', 1, 'carol', 'Revert "Fix login"') : m === '2024-09' ? pull('2024-09-10T08:00:00Z', 1, 'carol', 'Revert "Fix login"', [], 'User', 'release-2.0') : pull(`${m}-10T08:00:00Z`, 1, 'carol'),
    pull(`${m}-20T08:00:00Z`, 10, 'carol', 'Fix login', m === '2024-03' ? ['Hotfix'] : []),
  ]);
  return [
    {
      nameWithOwner: 'fixture-org/alpha', facts: org(), pulls: alpha,
      releases: [
        { tagName: 'v1.1.0', createdAt: '2024-06-01T09:00:00Z', publishedAt: '2024-06-01T10:00:00Z', isDraft: false, isPrerelease: false },
        { tagName: 'v1.2.0', createdAt: '2024-06-10T09:00:00Z', publishedAt: '2024-06-10T10:00:00Z', isDraft: false, isPrerelease: false },
        { tagName: 'v1.2.1', createdAt: '2024-06-14T09:00:00Z', publishedAt: '2024-06-14T10:00:00Z', isDraft: false, isPrerelease: false },
        { tagName: 'v1.3.0-rc.1', createdAt: '2024-06-20T09:00:00Z', publishedAt: '2024-06-20T10:00:00Z', isDraft: false, isPrerelease: true },
      ],
    },
    { nameWithOwner: 'fixture-org/forked', facts: { ...org(), isFork: true }, pulls: [], releases: [] },
    {
      nameWithOwner: 'fixture-org/bravo', facts: org(), pulls: bravo,
      releases: [
        { tagName: 'v2.0.0', createdAt: '2024-07-31T09:00:00Z', publishedAt: '2024-07-31T10:00:00Z', isDraft: false, isPrerelease: false },
        { tagName: 'v2.1.0', createdAt: '2024-09-05T09:00:00Z', publishedAt: '2024-09-05T10:00:00Z', isDraft: false, isPrerelease: false },
      ],
    },
  ];
}
export const LIST = ['fixture-org/alpha', 'fixture-org/forked', 'fixture-org/bravo'];
/** Requests of a whole run at page size 2: alpha 1 + 2 + 12 × 2, forked 1, bravo 1 + 1 + 12 × 1. */
export const FULL_RUN_REQUESTS = 27 + 1 + 14;

/**
 * Four repository months; the seeded team's March 2026 is cycle 21 h, 2 PRs per author, 2
 * deployments, lead time 33 h, 0 failures. Lead time (the last column): 3 days, 1 day and 7 days
 * in the three months with a release; change failure per release in those months: 1 of 2, 0 of 1
 * and 1 of 3 (none without a release).
 */
export const SEEDED_CORPUS = `
  insert into benchmark_corpus values
    ('r1', '2025-01-01', 3, 3, 36000, 1, 0, 0, null, null),
    ('r1', '2025-02-01', 10, 5, 75600, 2, 2, 1, 0.5, 259200),
    ('r2', '2025-01-01', 2, 4, 200000, 0.5, 1, 0, 0, 86400),
    ('r2', '2025-02-01', 0, 0, null, null, 3, 1, 1::float8 / 3, 604800)`;

/** The seeded corpus, as measured by a completed run (live) or as the shipped synthetic example (snapshot). */
export async function seedCorpus(url: string, kind: 'live' | 'snapshot' = 'live'): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`delete from benchmark_corpus; ${SEEDED_CORPUS};
      update benchmark_corpus_source set kind = '${kind}', generated_at = '2025-03-01T00:00:00Z', window_from = '2025-01-01', window_to = '2025-02-01', repositories = 2`);
  } finally {
    await admin.end();
  }
}
