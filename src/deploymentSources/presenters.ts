import type { BackfillRow, DeploymentSourceRow } from './service.js';

function at(value: string): string;
function at(value: string | null): string | null;
function at(value: string | null): string | null {
  return value === null ? null : new Date(value).toISOString();
}

/**
 * The 90-day backfill's state: `finished`; `waiting` for the code host's rate limit to reset (its
 * continuation is queued for `waitingUntil`); `stopped` with `lastError` (a failure the code host
 * may recover from is retried by the job queue and goes on from where it stopped); else `running`.
 */
export function presentBackfill(row: BackfillRow | null) {
  if (!row) return null;
  const waitingUntil = at(row.waitingUntil);
  const state = row.finishedAt ? 'finished'
    : waitingUntil && Date.parse(waitingUntil) > Date.now() ? 'waiting'
      : row.lastError && !row.leased ? 'stopped' : 'running';
  return {
    source: row.source,
    state,
    since: at(row.since),
    applied: row.applied,
    total: row.total,
    waitingUntil: state === 'waiting' ? waitingUntil : null,
    finishedAt: at(row.finishedAt),
    lastError: state === 'finished' ? null : row.lastError,
  };
}

export function presentDeploymentSource(row: DeploymentSourceRow) {
  return {
    projectId: row.projectId,
    projectKey: row.projectKey,
    /** null: not chosen yet; the first source that delivers a deployment claims the project. */
    source: row.source,
    workflow: row.workflow,
    branch: row.branch,
    productionEnvironment: row.productionEnvironment,
    /** Rows already stored, by writer: a switch keeps them (docs/codehost-deployments.md). */
    storedDeployments: { webhook: row.webhookDeployments, codehost: row.codehostDeployments },
    backfill: presentBackfill(row.backfill),
  };
}
