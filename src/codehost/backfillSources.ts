/**
 * What the backfill (backfill.ts) reads for each deployment source, and how each record becomes
 * the event the code host would have delivered, written by the webhook path's own functions.
 */
import { z } from 'zod';
import type { Executor } from '../aiSessions/activityLinks.js';
import type { DeploymentSource } from '../db/schema/index.js';
import {
  applyDeployment, applyDeploymentStatus, applyRelease, applyWorkflowRun, DeploymentEvent, DeploymentStatusEvent, ReleaseEvent, WorkflowRunEvent, type NotStored,
} from './deployments.js';
import { repoPath, type CodehostRestClient } from './restClient.js';

export const PER_PAGE = 100;

export type CodehostSource = Exclude<DeploymentSource, 'webhook'>;
export type Repository = { full_name: string; default_branch: string | null };

export interface Walker {
  item: z.ZodType<Record<string, unknown>>;
  firstPage(repository: string, since: Date): string;
  itemsOf(body: unknown): unknown[];
  /** When the record was made: the lists are newest first, so the walk stops at the first older than the window. */
  createdAt(item: any): string;
  /** Writes one record as its events, in the order the code host would have delivered them. */
  apply(tx: Executor, tenantId: string, repository: Repository, item: any, extra: unknown[]): Promise<NotStored | void>;
  /** What a record needs besides itself (a deployment's statuses), read before its transaction. */
  extra?(client: CodehostRestClient, installationId: number, repository: Repository, item: any): Promise<unknown[]>;
}

const asArray = (body: unknown): unknown[] => (Array.isArray(body) ? body : []);
export const parsed = <T>(schema: z.ZodType<T>, value: unknown): T[] => {
  const result = schema.safeParse(value);
  return result.success ? [result.data] : [];
};

export const WALKERS: Record<CodehostSource, Walker> = {
  deployments: {
    item: DeploymentEvent.shape.deployment,
    firstPage: (repo) => `/repos/${repoPath(repo)}/deployments?per_page=${PER_PAGE}`,
    itemsOf: asArray,
    createdAt: (d) => d.created_at,
    async extra(client, installationId, repository, d) {
      const statuses: unknown[] = [];
      let next: string | null = `/repos/${repoPath(repository.full_name)}/deployments/${d.id}/statuses?per_page=${PER_PAGE}`;
      while (next) {
        const page: { body: unknown; next: string | null } = await client.get(installationId, next);
        statuses.push(...asArray(page.body).flatMap((s) => parsed(DeploymentStatusEvent.shape.deployment_status, s)));
        next = page.next;
      }
      return statuses.sort((a: any, b: any) => a.id - b.id);
    },
    async apply(tx, tenantId, repository, deployment, statuses) {
      const refused = await applyDeployment(tx, tenantId, { action: 'created', repository, deployment });
      if (refused) return refused;
      for (const status of statuses as any[]) await applyDeploymentStatus(tx, tenantId, { action: 'created', repository, deployment, deployment_status: status });
    },
  },
  workflow_runs: {
    item: WorkflowRunEvent.shape.workflow_run,
    // Completed runs only (the others have no conclusion yet); the workflow and branch rule is applyWorkflowRun's.
    firstPage: (repo, since) => `/repos/${repoPath(repo)}/actions/runs?status=completed&created=${encodeURIComponent(`>=${since.toISOString().slice(0, 10)}`)}&per_page=${PER_PAGE}`,
    itemsOf: (body) => (body as { workflow_runs?: unknown[] })?.workflow_runs ?? [],
    createdAt: (run) => run.created_at,
    apply: (tx, tenantId, repository, run) => applyWorkflowRun(tx, tenantId, { action: 'completed', repository, workflow: null, workflow_run: run }),
  },
  releases: {
    item: ReleaseEvent.shape.release,
    firstPage: (repo) => `/repos/${repoPath(repo)}/releases?per_page=${PER_PAGE}`,
    itemsOf: asArray,
    createdAt: (r) => r.published_at ?? r.created_at ?? new Date(0).toISOString(),
    apply: (tx, tenantId, repository, release) => applyRelease(tx, tenantId, { action: 'published', repository, release }),
  },
};

/** Oldest first, each record once (a record added while the list was paged shifts the others to the next page). */
export function oldestFirst(walker: Walker, items: any[]): unknown[] {
  const byId = new Map(items.map((item) => [item.id as number, item]));
  return [...byId.values()].sort((a, b) => Date.parse(walker.createdAt(a)) - Date.parse(walker.createdAt(b)) || a.id - b.id);
}
