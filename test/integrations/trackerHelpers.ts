/** Shared steps of the tracker tests: the OAuth round trip over real HTTP, and running a sync job as a worker would. */
import { randomUUID } from 'node:crypto';
import type { AppContext } from '../../src/context.js';
import { withTenant } from '../../src/db/tenancy.js';
import type { JobContext } from '../../src/jobs/define.js';
import { trackerSyncWorkflow, type SyncPayload } from '../../src/integrations/trackers/syncJob.js';
import type { LiveEvent } from '../../src/live/events.js';
import type { HttpClient } from '../helpers/server.js';

/** Connect → the vendor's consent (answered at once by the fake) → our callback; returns the callback's redirect. */
export async function connectThroughVendor(api: HttpClient, kind: 'jira' | 'linear'): Promise<{ start: number; location: string; authorize: URL }> {
  const start = await api.get(`/api/integrations/${kind}/connect`);
  const authorize = new URL(start.headers.get('location') ?? '');
  const consent = await fetch(authorize, { redirect: 'manual' });
  const back = new URL(consent.headers.get('location') ?? '');
  const done = await api.get(back.pathname + back.search);
  return { start: start.status, location: done.headers.get('location') ?? `HTTP ${done.status}`, authorize };
}

export interface RunOptions {
  jobId?: string;
  /** Called after each page's progress event; throwing there is a worker dying mid-run. */
  onProgress?: (event: LiveEvent) => void;
}

/** Runs `trackers.sync` in this process as the worker would (tenant scope, job id, abort signal). */
export async function runSync(app: AppContext, payload: SyncPayload, options: RunOptions = {}): Promise<{ jobId: string; result: unknown; events: LiveEvent[] }> {
  const jobId = options.jobId ?? randomUUID();
  const events: LiveEvent[] = [];
  const ctx: JobContext = {
    app,
    job: { id: jobId, name: trackerSyncWorkflow.name, retryCount: 0 },
    signal: new AbortController().signal,
    instanceId: 'test',
    async progress(update) {
      const event = { kind: 'job.progress', job: { id: jobId, name: trackerSyncWorkflow.name }, ...update } as LiveEvent;
      events.push(event);
      options.onProgress?.(event);
    },
  };
  const result = await withTenant(payload.tenantId, () => trackerSyncWorkflow.run(ctx, payload));
  return { jobId, result, events };
}
