/**
 * The shipped snapshot from a recording, by the workflow's own code: the recorded GraphQL answers
 * are served by the fake on loopback, `benchmarks.corpus` runs against it as the worker would
 * (system work) on the given database, and the corpus it publishes becomes the snapshot.
 */
import { randomUUID } from 'node:crypto';
import { loadConfig } from '../../src/config/index.js';
import type { AppContext } from '../../src/context.js';
import { openDatabase } from '../../src/db/client.js';
import { asSystem } from '../../src/db/tenancy.js';
import { jobCatalog } from '../../src/jobCatalog.js';
import type { JobContext } from '../../src/jobs/define.js';
import { createJobQueue } from '../../src/jobs/index.js';
import { createLivePublisher } from '../../src/live/publisher.js';
import { createLogger } from '../../src/log.js';
import type { Snapshot, StoredRow } from '../../src/benchmarks/store.js';
import { corpusWindow, corpusWorkflow } from '../../src/benchmarks/workflow.js';
import { fakeCodeHostGraphql, type Exchange, type FakeCodeHostGraphql } from '../../test/helpers/fakeCodeHostGraphql.js';
import { requestHooks } from '../../src/app.js';

export interface Recording {
  about: string;
  /** When the answers were recorded: the snapshot's generatedAt, and the day its window counts back from. */
  recordedAt: string;
  repositories: string[];
  pageSize: number;
  exchanges: Exchange[];
}

export const SNAPSHOT_ABOUT =
  'Example open-source benchmark corpus shipped with the server (docs/benchmarks.md "The shipped snapshot"): SYNTHETIC, computed by tools/benchmarks/snapshot.ts from the recording in tools/benchmarks/recording.json of fictional repositories and contributors. Its figures are illustrative, not measured: a deployment gets real ones by setting CODEHOST_PUBLIC_TOKEN (the first completed run of benchmarks.corpus replaces this corpus). Aggregates per repository and month only.';

/** The about text of a snapshot exported from a live corpus (measured figures). */
export const EXPORTED_ABOUT =
  'Open-source benchmark corpus shipped with the server (docs/benchmarks.md "The shipped snapshot"): exported by tools/benchmarks/snapshot.ts --export from a completed run of benchmarks.corpus over real public repositories. Aggregates per repository and month only.';

export async function snapshotFromRecording(databaseUrl: string, recording: Recording): Promise<Snapshot> {
  const fake = await fakeCodeHostGraphql({ recording: recording.exchanges });
  try {
    return await runCorpus(databaseUrl, fake, recording);
  } finally {
    await fake.close();
  }
}

/** Runs the workflow against a fake (replaying, or answering from facts) and reads back the corpus it published. */
export async function runCorpus(databaseUrl: string, fake: FakeCodeHostGraphql, recording: Omit<Recording, 'about' | 'exchanges'>): Promise<Snapshot> {
  const config = loadConfig({
    NODE_ENV: 'test',
    APP_URL: 'http://127.0.0.1:1',
    OAUTH_ENCRYPTION_KEY: '0'.repeat(64),
    DATABASE_URL: databaseUrl,
    CODEHOST_PUBLIC_TOKEN: fake.token,
    CODEHOST_PUBLIC_GRAPHQL_URL: fake.url,
  });
  const database = openDatabase(databaseUrl, { max: 3, unscoped: 'operator' });
  try {
    const app: AppContext = { config, database, log: createLogger('silent'), jobs: createJobQueue(database.pool, jobCatalog), live: createLivePublisher(database.pool, config), requestHooks };
    const ctx: JobContext = { app, job: { id: randomUUID(), name: corpusWorkflow.name, retryCount: 0 }, signal: new AbortController().signal, instanceId: 'tools', progress: async () => {} };
    const asOf = recording.recordedAt.slice(0, 10);
    const result = (await asSystem('maintenance', () => corpusWorkflow.run(ctx, { asOf, repositories: recording.repositories, pageSize: recording.pageSize }))) as { state: { outcome?: string } };
    if (result.state.outcome !== 'published') throw new Error(`the corpus run ended ${result.state.outcome}`);
    const months = corpusWindow(asOf);
    const { rows } = await database.pool.query<StoredRow>(
      `select repository_key, to_char(month, 'YYYY-MM-DD') as month, prs_merged, active_authors, pr_cycle_time_p50_seconds, prs_merged_per_active_author,
         releases, revert_or_hotfix_prs, change_failure_proxy
       from benchmark_corpus order by repository_key, month`,
    );
    // A recording is synthetic by rule: one of real repositories would hold logins and titles and is not committed.
    return { about: SNAPSHOT_ABOUT, synthetic: true, generatedAt: recording.recordedAt, windowFrom: months[0] as string, windowTo: months.at(-1) as string, rows };
  } finally {
    await database.close();
  }
}
