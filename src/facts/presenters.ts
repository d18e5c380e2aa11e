/**
 * The rows of a drill-through as the API, the CSV and MCP show them: per kind of fact, the cube
 * dimensions read and the row made of them, with the reason a deployment counts in words. The web
 * app imports these types (`import type`), so the server's presenter is the one response type.
 */

/** A cube cell and row (as src/cube/plan.ts): declared here so the web app's types need no server module. */
type Cell = string | number | boolean | null;
type Row = Record<string, Cell>;

/** The kinds of fact a drill-through lists: the fact cube the measure belongs to. */
export type FactKind = 'deployments' | 'pull_requests' | 'pr_phases' | 'change_lead_times' | 'issues' | 'incidents' | 'ai_sessions' | 'ai_users' | 'seat_holders' | 'idle_seats' | 'ai_activity' | 'ai_commits' | 'members' | 'survey_counts' | 'pull_request_reviews' | 'reviewers';

/** How a column's values read: times are ISO 8601 (UTC), durations seconds, links http(s) URLs or the web app's paths. */
export type FactColumnType = 'text' | 'number' | 'time' | 'seconds' | 'boolean' | 'url';
export interface FactColumn {
  key: string;
  title: string;
  type: FactColumnType;
  /**
   * Full detail: the web app shows it in the row's expansion, not as a column (the columns that
   * explain the number come first and fit a 1366 px screen); the CSV and the JSON carry every column.
   */
  detail?: true;
  /** The row key holding the URL of the row's source; the web app links this column's cell to it. */
  link?: string;
  /** An identifier the web app shortens (a sha to 7 characters); the full value is in the expansion and the CSV. */
  short?: true;
}

export interface DeploymentFact {
  id: string;
  project: string | null;
  environment: string | null;
  externalId: string | null;
  sha: string | null;
  status: string | null;
  createdAt: string | null;
  failed: boolean;
  reason: string | null;
  recoveredBy: string | null;
  recoverySeconds: number | null;
  /**
   * The deployment source that replaced this row (one source per period): a row listed apart,
   * stored and counted in no measure (`replaced=true`). Null on a counted row.
   */
  replacedBy: string | null;
  /** A rollback or a recovery deployment (deployments.rework_rate's numerator), and why. */
  rework: boolean;
  reworkBecause: string | null;
  /** The deployment's page at its source (code host or CI), when it sent one. */
  url: string | null;
}
/** What every pull-request row says (the PR and the lead-time lists). */
interface PullRequestBase {
  id: string;
  repository: string | null;
  number: number | null;
  title: string | null;
  /** The code-host username. */
  author: string | null;
  /** The author's name in the register (people table), else the username. */
  authorName: string | null;
  openedAt: string | null;
  mergedAt: string | null;
  /** The PR on the code host. */
  url: string | null;
}
export interface PullRequestFact extends PullRequestBase {
  cycleTimeSeconds: number | null;
  /** Level high or medium: what ai_assisted_pr_share counts. */
  aiAssisted: boolean;
  aiAttribution: AiAttribution | null;
  /** Why, in words: each signal of the level with its source (docs/ai-attribution.md). */
  aiEvidence: string | null;
  /** Additions + deletions: this PR's part of ccv_total. */
  changeVolume: number | null;
  /** Its size weight: this PR's part of ceu_total. */
  changeEffortUnits: number | null;
}
/** A merged PR with its four phases (docs/pr-phases.md), its size, and whether and why it was reverted. */
export interface PrPhasesFact extends PullRequestBase {
  readyAt: string | null;
  firstCommitAt: string | null;
  firstReviewAt: string | null;
  deployedAt: string | null;
  deployment: string | null;
  codingTimeSeconds: number | null;
  pickupTimeSeconds: number | null;
  reviewTimeSeconds: number | null;
  deployTimeSeconds: number | null;
  size: number | null;
  mergedWithoutReview: boolean;
  reverted: boolean;
  revertedBecause: string | null;
}
/** A review given (reviews_given): by someone other than the PR's author, not a bot. */
export interface ReviewFact {
  id: string;
  repository: string | null;
  number: number | null;
  title: string | null;
  reviewer: string | null;
  verdict: string | null;
  submittedAt: string | null;
}
/** A reviewer with the reviews they gave in the scope (reviewers, reviews_per_reviewer): a list, not a ranking. */
export interface ReviewerFact {
  id: string;
  reviewer: string;
  reviews: number;
}
/** METRICS.md "AI attribution": the highest level a PR's evidence reaches. */
export type AiAttribution = 'high' | 'medium' | 'low' | 'none';
export interface ChangeLeadTimeFact extends PullRequestBase {
  firstCommitAt: string | null;
  firstCommitKnown: boolean;
  deployment: string | null;
  deployedAt: string | null;
  leadTimeSeconds: number | null;
  aiAttribution: AiAttribution | null;
  aiEvidence: string | null;
}
/** What issue and incident rows both say (an incident is an issue of type incident). */
interface IssueBase {
  id: string;
  key: string | null;
  title: string | null;
  project: string | null;
  openedAt: string | null;
  closedAt: string | null;
  /** The issue in its tracker. */
  url: string | null;
}
export interface IssueFact extends IssueBase {
  type: string | null;
  leadTimeSeconds: number | null;
}
export interface IncidentFact extends IssueBase {
  type: 'incident';
  timeToRestoreSeconds: number | null;
  causedBy: string | null;
  causeDecidedBy: string | null;
}
/** An AI session (the ai_sessions list): who by key only (a person's id, or the uploading user's). */
export interface AiSessionFact {
  id: string;
  startedAt: string | null;
  endedAt: string | null;
  /** upload, telemetry, or a vendor report (claude_code_analytics, copilot, cursor: a person-day). */
  source: string | null;
  tool: string | null;
  model: string | null;
  user: string | null;
  /** The person's name in the register, else the uploader's (or telemetry's e-mail) marked "not in the register". */
  name: string | null;
  personMatched: boolean;
  /** The session's page in the web app. */
  url: string | null;
}
/** A person (or, unmatched, an uploading user) with AI sessions in the scope: what ai_active_users counts. */
export interface AiUserFact {
  id: string;
  /** The id again, as a column: the person's, or the uploading user's when none matched. */
  user: string;
  name: string | null;
  personMatched: boolean;
  sessions: number;
  /** Every source that said the person was active in the scope (upload, telemetry, a vendor's report), sorted, joined by ", ". */
  sources: string | null;
}
/** A seat idle in a month of the scope: what idle_seats counts. */
export interface IdleSeatFact {
  id: string;
  /** The id again, as a column. */
  seat: string;
  person: string | null;
  tool: string | null;
  lastActivityAt: string | null;
}
/**
 * A row of the ai_activity cube: a person's day with one tool (whatever its sources) or a merged
 * PR, with the amounts the AI sums add up (docs/ai-measures.md).
 */
export interface AiActivityFact {
  id: string;
  kind: string | null;
  day: string | null;
  user: string | null;
  tool: string | null;
  sources: string | null;
  aiLinesAdded: number;
  mergedPrLinesAdded: number;
  tokens: number;
  prsMerged: number;
  editsAccepted: number;
  editsOffered: number;
}
/** A person holding an AI-tool seat in the scope: what ai_seat_holders counts. */
export interface SeatHolderFact {
  id: string;
  /** The id again, as a column. */
  person: string;
  name: string | null;
  seats: number;
}
/** A commit an AI session names: what ai_commits counts (once, however many sessions or teams). */
export interface AiCommitFact {
  id: string;
  repository: string | null;
  sha: string | null;
  committedAt: string | null;
  /** The tools of every session naming the commit, sorted, joined by ", ". */
  tools: string | null;
  /** Every session naming the commit (ids, sorted, joined by ", "). */
  sessions: string | null;
  /** Their people by id (or the uploading user's when no person matched), sorted, joined by ", ". */
  people: string | null;
  /** The same people by name (the register's), in the same order. */
  peopleNames: string | null;
  /** The commit on the code host. */
  url: string | null;
  /** Every source linking the commit (upload, telemetry, cursor), sorted, joined by ", ". */
  sources: string | null;
}
/** A person currently a member (of the team, or of any team for the organisation): what headcount counts. */
export interface MemberFact {
  id: string;
  /** The id again, as a column. */
  person: string;
  name: string | null;
  /** How the memberships came: `register`, `manual` (added by hand), or both (`register, manual`, organisation-wide). */
  source: string;
  /** The person's memberships in the scope (1 for a team). */
  memberships: number;
}
/** A team's survey counts in a month: the survey cube's own row, counts only (never a response or an answer). */
export interface SurveyCountFact {
  id: string;
  team: string | null;
  month: string | null;
  invitations: number;
  responses: number;
}
export type FactRow = DeploymentFact | PullRequestFact | PrPhasesFact | ReviewFact | ReviewerFact | ChangeLeadTimeFact | IssueFact | IncidentFact | AiSessionFact | AiUserFact | SeatHolderFact | IdleSeatFact | AiActivityFact | AiCommitFact | MemberFact | SurveyCountFact;

/** `GET /api/facts` (JSON): one page of rows, newest first. */
export interface FactsPage {
  data: FactRow[];
  meta: {
    page: number;
    perPage: number;
    /** Rows of the whole list: the measure's n (a count's value). */
    total: number;
    /** Rows marked (a ratio's numerator: failed deployments, AI-assisted PRs); 0 when the list marks none. */
    marked: number;
    /** The row key that says a row is marked, or null. */
    markedColumn: string | null;
    /**
     * Rows of the scope stored but counted in no measure because another deployment source replaced
     * them (one source per period), listed with `replaced=true`; null for a list that has none by rule
     * (every list but the deployments of production deployments, finished and failed ones).
     */
    replaced: number | null;
    /** `counted`: the rows the number counts; `replaced`: the rows listed apart (`replaced=true`). */
    listing: 'counted' | 'replaced';
    /**
     * When the rows are counts (the survey lists: a team's month each), the row key the number adds
     * up and its sum over the whole list: the number the list was opened from. Null otherwise (the
     * number is `total`).
     */
    sum: { column: string; value: number } | null;
    measure: string;
    kind: FactKind;
    from: string;
    to: string;
    team: string | null;
    /** The team's name (the panel's title says it), null for the organisation. */
    teamName: string | null;
    columns: FactColumn[];
    /** `marked`: only the marked rows are listed (`?marked=true`); null: every row. */
    filter: 'marked' | null;
    /** Rows the pages run over: `total`, or `marked` under the filter. */
    matching: number;
    /** The order asked for (`?sort=<row key>&dir=`), null for the list's own (newest first). */
    sort: { column: string; dir: 'asc' | 'desc' } | null;
    /** A median's list: the median and the 90th percentile of the values listed (the cube's measures), in the scope. */
    percentiles: { column: string; p50: number | null; p90: number | null } | null;
  };
}

const text = (v: Cell | undefined): string | null => (v === null || v === undefined ? null : String(v));
const num = (v: Cell | undefined): number | null => (v === null || v === undefined ? null : Number(v));
const bool = (v: Cell | undefined): boolean => v === true || v === 'true';
/** Cube's time cell (`2026-02-05T00:00:00.000`, UTC) as ISO 8601. */
const time = (v: Cell | undefined): string | null => (v === null || v === undefined ? null : `${String(v)}Z`);
const day = (v: Cell | undefined): string => (v === null || v === undefined ? '?' : String(v).slice(0, 10));

/** The deployment sources by name (projects.deployment_source), as the settings page says them. */
const SOURCE_NAMES: Record<string, string> = { webhook: 'the webhook API', deployments: 'code-host deployments', workflow_runs: 'workflow runs', releases: 'releases' };

/** 21600 → "6 h", 12600 → "3.5 h". */
export function hours(seconds: number | null): string {
  return seconds === null ? '?' : `${Number((seconds / 3600).toFixed(1))} h`;
}

/** Why a deployment counts: each rule that made it fail, and its recovery. */
export function deploymentReason(r: { failed: boolean; status: string | null; rolledBack: boolean; rolledBackBy: string | null; rolledBackAt: Cell | undefined; causedIncident: boolean; causedIncidentKey: string | null; recoveredBy: string | null; recoverySeconds: number | null }): string | null {
  const reasons: string[] = [];
  if (r.failed) {
    if (r.status === 'failure' || r.status === 'error') reasons.push(`failed: status ${r.status}`);
    if (r.rolledBack) reasons.push(`failed: rolled back by ${r.rolledBackBy ?? '?'} on ${day(r.rolledBackAt)}`);
    if (r.causedIncident) reasons.push(`failed: caused incident ${r.causedIncidentKey ?? '?'}`);
  }
  if (r.recoveredBy !== null) reasons.push(`recovered by ${r.recoveredBy} after ${hours(r.recoverySeconds)}`);
  return reasons.length > 0 ? reasons.join('; ') : null;
}

const CAUSE_RULES: Record<string, string> = {
  named: 'named by the incident (causedByDeployment)',
  recent: 'latest successful production deployment in the 24 h before',
};

interface KindSpec {
  /** The cube the kind's rows come from. */
  cube: string;
  /** Dimensions read (without the cube prefix for the kind's cube; another cube's as `cube.member`). */
  dimensions: string[];
  /** Measures an ungrouped list reads per row (a sum's value of the row: `ccv_total` is the PR's change volume). */
  rowMeasures?: string[];
  /** A grouped list (a distinct count or sum: one row per value counted) reads these measures too. */
  measures?: string[];
  /** A grouped list's order after nothing else: member and direction (then its key, ascending). */
  order?: [string, 'asc' | 'desc'][];
  /** Row key of a summed measure (a list of counts). */
  sumColumn?: Record<string, string>;
  /** Columns in their order when the list is opened from no measure of its own (the first ones explain the number). */
  columns: FactColumn[];
  /** An ungrouped list sorts on these row keys by the cube member that holds their value (no full read). */
  sortBy?: Record<string, string>;
  present(get: (dimension: string) => Cell | undefined): FactRow;
  /** Row keys by marking flag member. */
  markedColumn?: Record<string, string>;
  /**
   * The columns a list of rows stored but counted nowhere (`replaced=true`) shows, in order; the
   * others are detail there. Such a row is told by its source's id and why it does not count, not
   * by the measure's lead.
   */
  replacedLead?: readonly string[];
}

const col = (key: string, title: string, type: FactColumnType, more: Partial<FactColumn> = {}): FactColumn => ({ key, title, type, ...more });
const detail = { detail: true } as const;

const LEVELS: readonly string[] = ['high', 'medium', 'low', 'none'];
const level = (v: Cell | undefined): AiAttribution | null => (typeof v === 'string' && LEVELS.includes(v) ? (v as AiAttribution) : null);
/** The PR's AI attribution (docs/ai-attribution.md), detail columns of the PR lists. */
const AI_DETAIL: FactColumn[] = [
  col('aiAttribution', 'AI attribution', 'text', detail),
  col('aiEvidence', 'AI evidence', 'text', detail),
];

/** What pull-request rows say besides their own measure's columns, full detail last. */
const PR_DETAIL: FactColumn[] = [
  col('repository', 'Repository', 'text', detail),
  col('number', 'Number', 'number', detail),
  col('author', 'Author (code-host username)', 'text', detail),
  col('openedAt', 'Opened', 'time', detail),
  col('url', 'Link', 'url', detail),
];
const PR_SORT = { repository: 'project_key', number: 'number', title: 'title', author: 'author_username', mergedAt: 'merged_at' };

/** Issues and incidents share their detail columns (an incident is an issue of type incident). */
const ISSUE_DETAIL: FactColumn[] = [
  col('project', 'Project', 'text', detail),
  col('openedAt', 'Opened', 'time', detail),
  col('url', 'Link', 'url', detail),
];
const ISSUE_SORT = { key: 'external_id', title: 'title', project: 'project_key', openedAt: 'created_at', closedAt: 'closed_at' };
const issueFields = (get: (dimension: string) => Cell | undefined) => ({
  id: String(get('id')),
  key: text(get('external_id')),
  title: text(get('title')),
  project: text(get('project_key')),
  openedAt: time(get('created_at')),
  closedAt: time(get('closed_at')),
  url: null,
});

export const KINDS: Readonly<Record<FactKind, KindSpec>> = {
  deployments: {
    cube: 'deployments',
    dimensions: ['id', 'project_key', 'environment', 'external_id', 'sha', 'status', 'created_at', 'is_failed', 'rolled_back', 'rolled_back_by', 'rolled_back_at', 'caused_incident', 'caused_incident_key', 'recovered_by', 'recovery_seconds', 'replaced_by', 'is_rework', 'rework_because'],
    columns: [
      col('createdAt', 'Created', 'time'),
      col('failed', 'Failed', 'boolean'),
      col('reason', 'Why it counts', 'text'),
      col('recoverySeconds', 'Recovery time', 'seconds'),
      col('sha', 'Sha', 'text', { short: true, link: 'url' }),
      col('project', 'Project', 'text'),
      col('environment', 'Environment', 'text', detail),
      col('externalId', 'External id', 'text', detail),
      col('status', 'Status', 'text', detail),
      col('recoveredBy', 'Recovered by', 'text', detail),
      col('rework', 'Rework', 'boolean', detail),
      col('reworkBecause', 'Rework because', 'text', detail),
      col('replacedBy', 'Replaced by', 'text', detail),
      col('url', 'Link', 'url', detail),
    ],
    sortBy: { createdAt: 'created_at', failed: 'is_failed', recoverySeconds: 'recovery_seconds', sha: 'sha', project: 'project_key', environment: 'environment', externalId: 'external_id', status: 'status', recoveredBy: 'recovered_by', rework: 'is_rework', replacedBy: 'replaced_by' },
    markedColumn: { 'deployments.any_source_failed': 'failed', 'deployments.is_rework': 'rework' },
    replacedLead: ['externalId', 'reason', 'createdAt', 'sha', 'project', 'environment', 'status', 'replacedBy'],
    present: (get) => {
      const failed = bool(get('is_failed'));
      const replacedBy = text(get('replaced_by'));
      return {
        id: String(get('id')),
        project: text(get('project_key')),
        environment: text(get('environment')),
        externalId: text(get('external_id')),
        sha: text(get('sha')),
        status: text(get('status')),
        createdAt: time(get('created_at')),
        failed,
        // A replaced row counts nowhere: why it does not is its reason.
        reason: replacedBy !== null ? `replaced by ${SOURCE_NAMES[replacedBy] ?? replacedBy}` : deploymentReason({
          failed, status: text(get('status')), rolledBack: bool(get('rolled_back')), rolledBackBy: text(get('rolled_back_by')), rolledBackAt: get('rolled_back_at'),
          causedIncident: bool(get('caused_incident')), causedIncidentKey: text(get('caused_incident_key')), recoveredBy: text(get('recovered_by')), recoverySeconds: num(get('recovery_seconds')),
        }),
        recoveredBy: text(get('recovered_by')),
        recoverySeconds: num(get('recovery_seconds')),
        replacedBy,
        rework: bool(get('is_rework')),
        reworkBecause: text(get('rework_because')),
        url: null,
      };
    },
  },
  pull_requests: {
    cube: 'pull_requests',
    dimensions: ['id', 'project_key', 'number', 'title', 'author_username', 'created_at', 'merged_at', 'cycle_time_seconds', 'ai_assisted', 'ai_attribution', 'ai_attribution_evidence'],
    rowMeasures: ['ccv_total', 'ceu_total'],
    columns: [
      col('cycleTimeSeconds', 'Cycle time', 'seconds'),
      col('title', 'Title', 'text', { link: 'url' }),
      col('authorName', 'Author', 'text'),
      col('mergedAt', 'Merged', 'time'),
      col('aiAssisted', 'AI-assisted', 'boolean', detail),
      ...AI_DETAIL,
      col('changeVolume', 'Lines changed', 'number', detail),
      col('changeEffortUnits', 'Effort units', 'number', detail),
      ...PR_DETAIL,
    ],
    sortBy: { ...PR_SORT, openedAt: 'created_at', cycleTimeSeconds: 'cycle_time_seconds', aiAssisted: 'ai_assisted', changeVolume: 'ccv_total', changeEffortUnits: 'ceu_total' },
    markedColumn: { 'pull_requests.ai_assisted': 'aiAssisted' },
    present: (get) => {
      return {
        id: String(get('id')),
        repository: text(get('project_key')),
        number: num(get('number')),
        title: text(get('title')),
        author: text(get('author_username')),
        authorName: text(get('author_username')),
        openedAt: time(get('created_at')),
        mergedAt: time(get('merged_at')),
        url: null,
        cycleTimeSeconds: num(get('cycle_time_seconds')),
        aiAssisted: bool(get('ai_assisted')),
        aiAttribution: level(get('ai_attribution')),
        aiEvidence: text(get('ai_attribution_evidence')),
        changeVolume: num(get('ccv_total')),
        changeEffortUnits: num(get('ceu_total')),
      };
    },
  },
  pr_phases: {
    cube: 'pull_requests',
    dimensions: ['id', 'project_key', 'number', 'title', 'author_username', 'created_at', 'merged_at', 'ready_at', 'first_commit_at', 'first_review_at', 'deployed_at',
      'deployment_external_id', 'coding_time_seconds', 'pickup_time_seconds', 'review_time_seconds', 'deploy_time_seconds', 'pr_size', 'merged_without_review', 'is_reverted', 'reverted_because'],
    columns: [
      col('codingTimeSeconds', 'Coding', 'seconds'),
      col('pickupTimeSeconds', 'Pickup', 'seconds'),
      col('reviewTimeSeconds', 'Review', 'seconds'),
      col('deployTimeSeconds', 'Deploy', 'seconds'),
      col('title', 'Title', 'text', { link: 'url' }),
      col('authorName', 'Author', 'text'),
      col('mergedAt', 'Merged', 'time'),
      col('size', 'Size (lines)', 'number', detail),
      col('mergedWithoutReview', 'Merged without review', 'boolean', detail),
      col('reverted', 'Reverted', 'boolean', detail),
      col('revertedBecause', 'Reverted because', 'text', detail),
      col('readyAt', 'Ready for review', 'time', detail),
      col('firstCommitAt', 'First commit', 'time', detail),
      col('firstReviewAt', 'First review', 'time', detail),
      col('deployedAt', 'Deployed', 'time', detail),
      col('deployment', 'Shipped by', 'text', detail),
      ...PR_DETAIL,
    ],
    sortBy: { ...PR_SORT, openedAt: 'created_at', codingTimeSeconds: 'coding_time_seconds', pickupTimeSeconds: 'pickup_time_seconds', reviewTimeSeconds: 'review_time_seconds', deployTimeSeconds: 'deploy_time_seconds', size: 'pr_size', mergedWithoutReview: 'merged_without_review', reverted: 'is_reverted' },
    markedColumn: { 'pull_requests.merged_without_review': 'mergedWithoutReview', 'pull_requests.is_reverted': 'reverted' },
    present: (get) => ({
      id: String(get('id')),
      repository: text(get('project_key')),
      number: num(get('number')),
      title: text(get('title')),
      author: text(get('author_username')),
      authorName: text(get('author_username')),
      openedAt: time(get('created_at')),
      mergedAt: time(get('merged_at')),
      url: null,
      readyAt: time(get('ready_at')),
      firstCommitAt: time(get('first_commit_at')),
      firstReviewAt: time(get('first_review_at')),
      deployedAt: time(get('deployed_at')),
      deployment: text(get('deployment_external_id')),
      codingTimeSeconds: num(get('coding_time_seconds')),
      pickupTimeSeconds: num(get('pickup_time_seconds')),
      reviewTimeSeconds: num(get('review_time_seconds')),
      deployTimeSeconds: num(get('deploy_time_seconds')),
      size: num(get('pr_size')),
      mergedWithoutReview: bool(get('merged_without_review')),
      reverted: bool(get('is_reverted')),
      revertedBecause: text(get('reverted_because')),
    }),
  },
  pull_request_reviews: {
    cube: 'pull_request_reviews',
    dimensions: ['id', 'project_key', 'number', 'title', 'reviewer', 'state', 'submitted_at'],
    columns: [
      { key: 'repository', title: 'Repository', type: 'text' },
      { key: 'number', title: 'PR', type: 'number' },
      { key: 'title', title: 'Title', type: 'text' },
      { key: 'reviewer', title: 'Reviewer', type: 'text' },
      { key: 'verdict', title: 'Verdict', type: 'text' },
      { key: 'submittedAt', title: 'Submitted', type: 'time' },
    ],
    present: (get) => ({
      id: String(get('id')),
      repository: text(get('project_key')),
      number: num(get('number')),
      title: text(get('title')),
      reviewer: text(get('reviewer')),
      verdict: text(get('state')),
      submittedAt: time(get('submitted_at')),
    }),
  },
  reviewers: {
    cube: 'pull_request_reviews',
    dimensions: ['reviewer'],
    measures: ['pull_request_reviews.reviews_given'],
    // By name, not by count: a list of the people behind the number, never a ranking.
    order: [],
    columns: [{ key: 'reviewer', title: 'Reviewer', type: 'text' }, { key: 'reviews', title: 'Reviews given', type: 'number' }],
    present: (get) => ({ id: String(get('reviewer')), reviewer: String(get('reviewer')), reviews: num(get('reviews_given')) ?? 0 }),
  },
  change_lead_times: {
    cube: 'change_lead_times',
    dimensions: ['id', 'project_key', 'number', 'title', 'author_username', 'opened_at', 'merged_at', 'first_commit_at', 'first_commit_known', 'deployment_external_id', 'deployed_at', 'lead_time_seconds', 'ai_attribution', 'ai_attribution_evidence'],
    columns: [
      col('leadTimeSeconds', 'Lead time', 'seconds'),
      col('title', 'Title', 'text', { link: 'url' }),
      col('authorName', 'Author', 'text'),
      col('deployedAt', 'Deployed', 'time'),
      col('deployment', 'Shipped by', 'text'),
      col('mergedAt', 'Merged', 'time', detail),
      col('firstCommitAt', 'First commit', 'time', detail),
      col('firstCommitKnown', 'First commit known', 'boolean', detail),
      ...AI_DETAIL,
      ...PR_DETAIL,
    ],
    sortBy: { ...PR_SORT, openedAt: 'opened_at', leadTimeSeconds: 'lead_time_seconds', deployedAt: 'deployed_at', deployment: 'deployment_external_id', firstCommitAt: 'first_commit_at', firstCommitKnown: 'first_commit_known' },
    present: (get) => ({
      id: String(get('id')),
      repository: text(get('project_key')),
      number: num(get('number')),
      title: text(get('title')),
      author: text(get('author_username')),
      authorName: text(get('author_username')),
      openedAt: time(get('opened_at')),
      mergedAt: time(get('merged_at')),
      url: null,
      firstCommitAt: time(get('first_commit_at')),
      firstCommitKnown: bool(get('first_commit_known')),
      deployment: text(get('deployment_external_id')),
      deployedAt: time(get('deployed_at')),
      leadTimeSeconds: num(get('lead_time_seconds')),
      aiAttribution: level(get('ai_attribution')),
      aiEvidence: text(get('ai_attribution_evidence')),
    }),
  },
  issues: {
    cube: 'issues',
    dimensions: ['id', 'external_id', 'title', 'type', 'project_key', 'created_at', 'closed_at', 'lead_time_seconds'],
    columns: [
      col('leadTimeSeconds', 'Lead time', 'seconds'),
      col('key', 'Key', 'text', { link: 'url' }),
      col('title', 'Title', 'text'),
      col('type', 'Type', 'text'),
      col('closedAt', 'Closed', 'time'),
      ...ISSUE_DETAIL,
    ],
    sortBy: { ...ISSUE_SORT, type: 'type', leadTimeSeconds: 'lead_time_seconds' },
    present: (get) => ({
      ...issueFields(get),
      type: text(get('type')),
      leadTimeSeconds: num(get('lead_time_seconds')),
    }),
  },
  incidents: {
    cube: 'incidents',
    dimensions: ['id', 'external_id', 'title', 'project_key', 'created_at', 'closed_at', 'restore_seconds', 'caused_by_external_id', 'cause_rule'],
    columns: [
      col('timeToRestoreSeconds', 'Time to restore', 'seconds'),
      col('key', 'Key', 'text', { link: 'url' }),
      col('title', 'Title', 'text'),
      col('causedBy', 'Caused by deployment', 'text'),
      col('closedAt', 'Closed', 'time'),
      col('causeDecidedBy', 'Cause decided by', 'text', detail),
      col('type', 'Type', 'text', detail),
      ...ISSUE_DETAIL,
    ],
    sortBy: { ...ISSUE_SORT, timeToRestoreSeconds: 'restore_seconds', causedBy: 'caused_by_external_id' },
    present: (get) => ({
      ...issueFields(get),
      type: 'incident',
      timeToRestoreSeconds: num(get('restore_seconds')),
      causedBy: text(get('caused_by_external_id')),
      causeDecidedBy: CAUSE_RULES[String(get('cause_rule'))] ?? null,
    }),
  },
  ai_sessions: {
    cube: 'ai_sessions',
    dimensions: ['id', 'started_at', 'ended_at', 'source', 'tool', 'model', 'user_key', 'person_matched'],
    measures: [],
    order: [['ai_sessions.started_at', 'desc']],
    columns: [
      col('startedAt', 'Started', 'time', { link: 'url' }),
      col('name', 'Person', 'text'),
      col('tool', 'Tool', 'text'),
      col('model', 'Model', 'text'),
      col('source', 'Source', 'text'),
      col('endedAt', 'Ended', 'time', detail),
      col('user', 'Person (or uploader) id', 'text', detail),
      col('personMatched', 'Matched a person', 'boolean', detail),
      col('url', 'Link', 'url', detail),
    ],
    present: (get) => ({
      id: String(get('id')),
      startedAt: time(get('started_at')),
      endedAt: time(get('ended_at')),
      source: text(get('source')),
      tool: text(get('tool')),
      model: text(get('model')),
      user: text(get('user_key')),
      name: text(get('user_key')),
      personMatched: bool(get('person_matched')),
      url: null,
    }),
  },
  ai_users: {
    cube: 'ai_sessions',
    dimensions: ['user_key', 'person_matched'],
    // sources: a measure (the sources of the person's rows in the scope), so a person active
    // through an upload and a vendor report is one row naming both.
    measures: ['ai_sessions.ai_sessions', 'ai_sessions.sources'],
    order: [['ai_sessions.ai_sessions', 'desc']],
    columns: [
      col('name', 'Person', 'text'),
      col('sessions', 'AI sessions', 'number'),
      col('personMatched', 'Matched a person', 'boolean'),
      col('sources', 'Sources', 'text'),
      col('user', 'Person (or uploader) id', 'text', detail),
    ],
    present: (get) => ({ id: String(get('user_key')), user: String(get('user_key')), name: String(get('user_key')), personMatched: bool(get('person_matched')), sessions: num(get('ai_sessions')) ?? 0, sources: text(get('sources')) }),
  },
  idle_seats: {
    cube: 'seats',
    dimensions: ['seat_id', 'person_id', 'tool', 'last_activity_at'],
    measures: [],
    order: [],
    columns: [
      { key: 'seat', title: 'Seat id', type: 'text' },
      { key: 'person', title: 'Person id', type: 'text' },
      { key: 'tool', title: 'Tool', type: 'text' },
      { key: 'lastActivityAt', title: 'Last activity (vendor)', type: 'time' },
    ],
    present: (get) => ({ id: String(get('seat_id')), seat: String(get('seat_id')), person: text(get('person_id')), tool: text(get('tool')), lastActivityAt: time(get('last_activity_at')) }),
  },
  ai_activity: {
    cube: 'ai_activity',
    dimensions: ['id', 'kind', 'happened_at', 'user_key', 'tool', 'sources'],
    measures: ['ai_activity.ai_lines_added', 'ai_activity.merged_pr_lines_added', 'ai_activity.ai_tool_tokens', 'ai_activity.merged_prs', 'ai_activity.edits_accepted', 'ai_activity.edits_offered'],
    order: [['ai_activity.happened_at', 'desc']],
    sumColumn: {
      'ai_activity.ai_lines_added': 'aiLinesAdded', 'ai_activity.merged_pr_lines_added': 'mergedPrLinesAdded', 'ai_activity.ai_tool_tokens': 'tokens',
      'ai_activity.merged_prs': 'prsMerged', 'ai_activity.edits_accepted': 'editsAccepted', 'ai_activity.edits_offered': 'editsOffered',
    },
    columns: [
      { key: 'kind', title: 'Row', type: 'text' },
      { key: 'day', title: 'Day or merged', type: 'time' },
      { key: 'user', title: 'Person (or reported e-mail) id', type: 'text' },
      { key: 'tool', title: 'Tool', type: 'text' },
      { key: 'sources', title: 'Sources', type: 'text' },
      { key: 'aiLinesAdded', title: 'AI-written added lines', type: 'number' },
      { key: 'mergedPrLinesAdded', title: 'Lines added by the merged PR', type: 'number' },
      { key: 'tokens', title: 'Tokens', type: 'number' },
      { key: 'prsMerged', title: 'PRs merged', type: 'number' },
      { key: 'editsAccepted', title: 'Edits accepted', type: 'number' },
      { key: 'editsOffered', title: 'Edits offered', type: 'number' },
    ],
    present: (get) => ({
      id: String(get('id')),
      kind: text(get('kind')),
      day: time(get('happened_at')),
      user: text(get('user_key')),
      tool: text(get('tool')),
      sources: text(get('sources')),
      aiLinesAdded: num(get('ai_lines_added')) ?? 0,
      mergedPrLinesAdded: num(get('merged_pr_lines_added')) ?? 0,
      tokens: num(get('ai_tool_tokens')) ?? 0,
      prsMerged: num(get('merged_prs')) ?? 0,
      editsAccepted: num(get('edits_accepted')) ?? 0,
      editsOffered: num(get('edits_offered')) ?? 0,
    }),
  },
  seat_holders: {
    cube: 'seats',
    dimensions: ['person_id'],
    measures: ['seats.seats_held'],
    order: [['seats.seats_held', 'desc']],
    columns: [col('name', 'Person', 'text'), col('seats', 'Seats held', 'number'), col('person', 'Person id', 'text', detail)],
    present: (get) => ({ id: String(get('person_id')), person: String(get('person_id')), name: String(get('person_id')), seats: num(get('seats_held')) ?? 0 }),
  },
  ai_commits: {
    cube: 'ai_commits',
    dimensions: ['id', 'project_key', 'sha', 'committed_at', 'ai_tools', 'ai_session_ids', 'ai_user_keys', 'sources'],
    measures: [],
    order: [['ai_commits.committed_at', 'desc']],
    columns: [
      col('committedAt', 'Committed', 'time'),
      col('sha', 'Sha', 'text', { short: true, link: 'url' }),
      col('repository', 'Repository', 'text'),
      col('tools', 'AI tools', 'text'),
      col('peopleNames', 'People', 'text'),
      col('sessions', 'AI sessions', 'text', detail),
      col('people', 'Person (or uploader) ids', 'text', detail),
      col('sources', 'Sources', 'text', detail),
      col('url', 'Link', 'url', detail),
    ],
    present: (get) => ({
      id: String(get('id')),
      repository: text(get('project_key')),
      sha: text(get('sha')),
      committedAt: time(get('committed_at')),
      tools: text(get('ai_tools')),
      sessions: text(get('ai_session_ids')),
      people: text(get('ai_user_keys')),
      peopleNames: text(get('ai_user_keys')),
      url: null,
      sources: text(get('sources')),
    }),
  },
  members: {
    cube: 'memberships',
    dimensions: ['person_id'],
    measures: ['memberships.register_headcount', 'memberships.manual_headcount'],
    columns: [
      col('name', 'Person', 'text'),
      col('source', 'Membership from', 'text'),
      col('memberships', 'Memberships', 'number'),
      col('person', 'Person id', 'text', detail),
    ],
    present: (get) => {
      const register = num(get('register_headcount')) ?? 0;
      const manual = num(get('manual_headcount')) ?? 0;
      return {
        id: String(get('person_id')),
        person: String(get('person_id')),
        name: String(get('person_id')),
        source: [register > 0 && 'register', manual > 0 && 'manual'].filter(Boolean).join(', '),
        memberships: register + manual,
      };
    },
  },
  survey_counts: {
    cube: 'survey_responses',
    dimensions: ['team_id', 'teams.name', 'month'],
    measures: ['survey_responses.invitations', 'survey_responses.responses'],
    order: [['survey_responses.month', 'desc'], ['teams.name', 'asc']],
    sumColumn: { 'survey_responses.invitations': 'invitations', 'survey_responses.responses': 'responses' },
    columns: [
      col('team', 'Team', 'text'),
      col('month', 'Month', 'text'),
      col('invitations', 'Invitations', 'number'),
      col('responses', 'Responses', 'number'),
    ],
    present: (get) => ({
      id: `${String(get('team_id'))}:${String(get('month')).slice(0, 7)}`,
      team: text(get('teams.name')),
      month: get('month') === null || get('month') === undefined ? null : String(get('month')).slice(0, 7),
      invitations: num(get('invitations')) ?? 0,
      responses: num(get('responses')) ?? 0,
    }),
  },
};

/** A kind's member: its cube's unless named `cube.member`. */
export const memberOf = (kind: FactKind, name: string): string => (name.includes('.') ? name : `${KINDS[kind].cube}.${name}`);

/**
 * The columns of a list opened from a measure: the kind's, with the ones that explain that measure
 * (`lead`: a rate's marking column and its reason, a median's value, a sum's value) moved first and
 * shown as columns.
 */
export function columnsFor(kind: FactKind, lead: readonly string[] = [], leadOnly = false): FactColumn[] {
  const all = KINDS[kind].columns;
  const first = lead.map((key) => all.find((c) => c.key === key)).filter((c): c is FactColumn => c !== undefined).map(({ detail: _, ...c }) => c);
  const rest = all.filter((c) => !lead.includes(c.key));
  return [...first, ...(leadOnly ? rest.map((c) => ({ ...c, detail: true as const })) : rest)];
}

/** The columns of a list: the measure's lead first; for its replaced rows (`replaced=true`) the kind's replacedLead, the rest detail. */
export function listColumns(kind: FactKind, lead: readonly string[], replaced: boolean): FactColumn[] {
  const replacedLead = KINDS[kind].replacedLead;
  return replaced && replacedLead ? columnsFor(kind, replacedLead, true) : columnsFor(kind, lead);
}

/** A cube row of the kind's dimensions as the kind's fact, its keys in the columns' order (id first). */
export function presentFact(kind: FactKind, row: Row, columns: FactColumn[] = KINDS[kind].columns): FactRow {
  const raw = KINDS[kind].present((d) => row[memberOf(kind, d)]) as unknown as Record<string, unknown>;
  return Object.fromEntries(['id', ...columns.map((c) => c.key)].map((key) => [key, raw[key] ?? null])) as unknown as FactRow;
}

/** The CSV cells of a fact, in its columns' order (id first): empty for null. */
export function csvCells(columns: FactColumn[], fact: FactRow): (string | number)[] {
  const record = fact as unknown as Record<string, string | number | boolean | null>;
  return ['id', ...columns.map((c) => c.key)].map((key) => {
    const v = record[key];
    return v === null || v === undefined ? '' : typeof v === 'boolean' ? String(v) : v;
  });
}
