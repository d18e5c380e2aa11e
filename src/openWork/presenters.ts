/**
 * `GET /api/open-work` as the general API shows it (docs/open-work.md). The web app imports these
 * types (`import type`), so this file imports nothing: the service's rows are declared here too.
 */

/** Where a reviewer stands (pull_request_reviewers.state). */
export type ReviewerState = 'requested' | 'commented' | 'approved' | 'changes_requested' | 'dismissed';
/** An open PR's waiting state (service.ts `waitingState`). */
export type WaitingState = 'draft' | 'waiting_for_review' | 'changes_requested' | 'approved';

/** Why a production deployment counts as failed (the cube's rule, its first case that holds). */
export type DeploymentFailure = 'status' | 'rolled_back' | 'caused_incident';

export interface OpenWorkTeam {
  id: string;
  slug: string;
  name: string;
}

export interface OpenPullRequest {
  id: string;
  repository: string;
  number: number;
  title: string;
  url: string | null;
  author: string | null;
  team: OpenWorkTeam | null;
  openedAt: string;
  /** Seconds from opened to `meta.asOf`. */
  ageSeconds: number;
  waitingState: WaitingState;
  /** Each reviewer the code host named, with where they stand (dismissed reviews left out). */
  reviewers: { login: string; state: Exclude<ReviewerState, 'dismissed'> }[];
}

export interface FailedDeployment {
  id: string;
  project: string;
  environment: string;
  externalId: string;
  sha: string;
  status: string;
  failure: DeploymentFailure;
  url: string | null;
  team: OpenWorkTeam | null;
  createdAt: string;
  /** Seconds from created to `meta.asOf`. */
  ageSeconds: number;
}

export interface OpenIncident {
  id: string;
  project: string;
  /** `#<number>` for a code-host issue, the tracker's key otherwise. */
  key: string;
  title: string;
  url: string | null;
  team: OpenWorkTeam | null;
  openedAt: string;
  /** Seconds from opened to `meta.asOf`. */
  ageSeconds: number;
}

/** A merged pull request no production deployment of its project has shipped yet (issue 47 point 5). */
export interface UndeployedChange {
  id: string;
  repository: string;
  number: number;
  title: string;
  url: string | null;
  author: string | null;
  team: OpenWorkTeam | null;
  mergedAt: string;
  /** Seconds from the merge to `meta.asOf`. */
  ageSeconds: number;
}

/** An open PR ready for review that nobody but its author has reviewed, waiting longer than its team's pickup median. */
export interface AwaitingFirstReview {
  id: string;
  repository: string;
  number: number;
  title: string;
  url: string | null;
  author: string | null;
  team: OpenWorkTeam | null;
  /** When it became ready for review (docs/open-work.md: its opening on this version). */
  readyAt: string;
  /** Seconds from ready to `meta.asOf`: how long it has waited for a first review. */
  ageSeconds: number;
  /** The median pickup time of its team (`meta.pickup`) that it has waited longer than. */
  pickupMedianSeconds: number;
  /** The people asked who have not answered yet. */
  requested: string[];
}

/** A team's pickup median over the PRs it merged in the `meta.pickupWindowDays` days to `meta.asOf`. */
export interface PickupMedian {
  /** null: the projects no team owns. */
  team: OpenWorkTeam | null;
  p50Seconds: number;
  n: number;
}

export interface OpenWorkBody {
  data: {
    pullRequests: OpenPullRequest[];
    failedDeployments: FailedDeployment[];
    incidents: OpenIncident[];
    undeployedChanges: UndeployedChange[];
    awaitingFirstReview: AwaitingFirstReview[];
  };
  meta: {
    /** The moment the ages are counted to. */
    asOf: string;
    /** The team asked for, or null for the organisation. */
    team: OpenWorkTeam | null;
    /** Rows of each section in all; a section lists at most `limit` of them, oldest first. */
    totals: { pullRequests: number; failedDeployments: number; incidents: number; undeployedChanges: number; awaitingFirstReview: number };
    limit: number;
    /** Each team's pickup median (the teams in scope that have one), the bar of `awaitingFirstReview`. */
    pickup: PickupMedian[];
    pickupWindowDays: number;
  };
}

/** An open PR as the service reads it: the answer's row before its age is counted and dismissed reviews are left out. */
export interface OpenPullRequestRow extends Omit<OpenPullRequest, 'openedAt' | 'ageSeconds' | 'reviewers'> {
  draft: boolean;
  createdAt: Date;
  reviewers: { login: string; state: ReviewerState }[];
}

/** A failed deployment as the service reads it: the answer's row before its age is counted. */
export interface FailedDeploymentRow extends Omit<FailedDeployment, 'createdAt' | 'ageSeconds'> {
  createdAt: Date;
}

export interface OpenIncidentRow {
  id: string;
  project: string;
  key: string;
  title: string;
  url: string | null;
  createdAt: Date;
  team: OpenWorkTeam | null;
}

export interface Section<T> {
  rows: T[];
  total: number;
}

export interface UndeployedChangeRow extends Omit<UndeployedChange, 'mergedAt' | 'ageSeconds'> {
  mergedAt: Date;
}

export interface AwaitingFirstReviewRow extends Omit<AwaitingFirstReview, 'readyAt' | 'ageSeconds'> {
  readyAt: Date;
}

export interface OpenWorkResult {
  asOf: Date;
  team: OpenWorkTeam | null;
  pullRequests: Section<OpenPullRequestRow>;
  failedDeployments: Section<FailedDeploymentRow>;
  incidents: Section<OpenIncidentRow>;
  undeployedChanges: Section<UndeployedChangeRow>;
  awaitingFirstReview: Section<AwaitingFirstReviewRow>;
  pickup: PickupMedian[];
  pickupWindowDays: number;
}

const ageOf = (from: Date, asOf: Date) => Math.max(0, Math.floor((asOf.getTime() - from.getTime()) / 1000));

export function presentPullRequest(row: OpenPullRequestRow, asOf: Date): OpenPullRequest {
  return {
    id: row.id,
    repository: row.repository,
    number: row.number,
    title: row.title,
    url: row.url,
    author: row.author,
    team: row.team,
    openedAt: row.createdAt.toISOString(),
    ageSeconds: ageOf(row.createdAt, asOf),
    waitingState: row.waitingState,
    reviewers: row.reviewers.flatMap((r) => (r.state === 'dismissed' ? [] : [{ login: r.login, state: r.state }])),
  };
}

export function presentFailedDeployment(row: FailedDeploymentRow, asOf: Date): FailedDeployment {
  return {
    id: row.id,
    project: row.project,
    environment: row.environment,
    externalId: row.externalId,
    sha: row.sha,
    status: row.status,
    failure: row.failure,
    url: row.url,
    team: row.team,
    createdAt: row.createdAt.toISOString(),
    ageSeconds: ageOf(row.createdAt, asOf),
  };
}

export function presentIncident(row: OpenIncidentRow, asOf: Date): OpenIncident {
  return { id: row.id, project: row.project, key: row.key, title: row.title, url: row.url, team: row.team, openedAt: row.createdAt.toISOString(), ageSeconds: ageOf(row.createdAt, asOf) };
}

export function presentUndeployedChange(row: UndeployedChangeRow, asOf: Date): UndeployedChange {
  return {
    id: row.id, repository: row.repository, number: row.number, title: row.title, url: row.url, author: row.author, team: row.team,
    mergedAt: row.mergedAt.toISOString(), ageSeconds: ageOf(row.mergedAt, asOf),
  };
}

export function presentAwaitingFirstReview(row: AwaitingFirstReviewRow, asOf: Date): AwaitingFirstReview {
  return {
    id: row.id, repository: row.repository, number: row.number, title: row.title, url: row.url, author: row.author, team: row.team,
    readyAt: row.readyAt.toISOString(), ageSeconds: ageOf(row.readyAt, asOf), pickupMedianSeconds: row.pickupMedianSeconds, requested: row.requested,
  };
}

export function presentOpenWork(result: OpenWorkResult, limit: number): OpenWorkBody {
  const { asOf } = result;
  return {
    data: {
      pullRequests: result.pullRequests.rows.map((r) => presentPullRequest(r, asOf)),
      failedDeployments: result.failedDeployments.rows.map((r) => presentFailedDeployment(r, asOf)),
      incidents: result.incidents.rows.map((r) => presentIncident(r, asOf)),
      undeployedChanges: result.undeployedChanges.rows.map((r) => presentUndeployedChange(r, asOf)),
      awaitingFirstReview: result.awaitingFirstReview.rows.map((r) => presentAwaitingFirstReview(r, asOf)),
    },
    meta: {
      asOf: asOf.toISOString(),
      team: result.team,
      totals: {
        pullRequests: result.pullRequests.total, failedDeployments: result.failedDeployments.total, incidents: result.incidents.total,
        undeployedChanges: result.undeployedChanges.total, awaitingFirstReview: result.awaitingFirstReview.total,
      },
      limit,
      pickup: result.pickup,
      pickupWindowDays: result.pickupWindowDays,
    },
  };
}
