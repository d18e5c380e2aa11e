/**
 * The rows of a drill-through as the API, the CSV and MCP show them: per kind of fact, the cube
 * dimensions read and the row made of them, with the reason a deployment counts in words. The web
 * app imports these types (`import type`), so the server's presenter is the one response type.
 */

/** A cube cell and row (as src/cube/plan.ts): declared here so the web app's types need no server module. */
type Cell = string | number | boolean | null;
type Row = Record<string, Cell>;

/** The kinds of fact a drill-through lists: the fact cube the measure belongs to. */
export type FactKind = 'deployments' | 'pull_requests' | 'change_lead_times' | 'issues' | 'incidents' | 'ai_sessions' | 'ai_users' | 'seat_holders' | 'ai_commits' | 'members' | 'survey_counts';

/** How a column's values read: times are ISO 8601 (UTC), durations seconds. */
export type FactColumnType = 'text' | 'number' | 'time' | 'seconds' | 'boolean';
export interface FactColumn {
  key: string;
  title: string;
  type: FactColumnType;
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
}
/** What every pull-request row says (the PR and the lead-time lists). */
interface PullRequestBase {
  id: string;
  repository: string | null;
  number: number | null;
  title: string | null;
  author: string | null;
  openedAt: string | null;
  mergedAt: string | null;
}
/** METRICS.md "AI attribution": the highest level a PR's evidence reaches. */
export type AiAttribution = 'high' | 'medium' | 'low' | 'none';
export interface PullRequestFact extends PullRequestBase {
  cycleTimeSeconds: number | null;
  /** Level high or medium: what ai_assisted_pr_share counts. */
  aiAssisted: boolean;
  aiAttribution: AiAttribution | null;
  /** Why, in words: each signal of the level with its source (docs/ai-attribution.md). */
  aiEvidence: string | null;
}
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
  /** upload or telemetry. */
  source: string | null;
  tool: string | null;
  model: string | null;
  user: string | null;
  personMatched: boolean;
}
/** A person (or, unmatched, an uploading user) with AI sessions in the scope: what ai_active_users counts. */
export interface AiUserFact {
  id: string;
  /** The id again, as a column: the person's, or the uploading user's when none matched. */
  user: string;
  personMatched: boolean;
  sessions: number;
}
/** A person holding an AI-tool seat in the scope: what ai_seat_holders counts. */
export interface SeatHolderFact {
  id: string;
  /** The id again, as a column. */
  person: string;
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
}
/** A person currently a member (of the team, or of any team for the organisation): what headcount counts. */
export interface MemberFact {
  id: string;
  /** The id again, as a column. */
  person: string;
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
export type FactRow = DeploymentFact | PullRequestFact | ChangeLeadTimeFact | IssueFact | IncidentFact | AiSessionFact | AiUserFact | SeatHolderFact | AiCommitFact | MemberFact | SurveyCountFact;

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
    columns: FactColumn[];
  };
}

const text = (v: Cell | undefined): string | null => (v === null || v === undefined ? null : String(v));
const num = (v: Cell | undefined): number | null => (v === null || v === undefined ? null : Number(v));
const bool = (v: Cell | undefined): boolean => v === true || v === 'true';
/** Cube's time cell (`2026-02-05T00:00:00.000`, UTC) as ISO 8601. */
const time = (v: Cell | undefined): string | null => (v === null || v === undefined ? null : `${String(v)}Z`);
const day = (v: Cell | undefined): string => (v === null || v === undefined ? '?' : String(v).slice(0, 10));

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
  /** A grouped list (a distinct count or sum: one row per value counted) reads these measures too. */
  measures?: string[];
  /** A grouped list's order after nothing else: member and direction (then its key, ascending). */
  order?: [string, 'asc' | 'desc'][];
  /** Row key of a summed measure (a list of counts). */
  sumColumn?: Record<string, string>;
  columns: FactColumn[];
  present(get: (dimension: string) => Cell | undefined): FactRow;
  /** Row keys by marking flag member. */
  markedColumn?: Record<string, string>;
}

const LEVELS: readonly string[] = ['high', 'medium', 'low', 'none'];
const level = (v: Cell | undefined): AiAttribution | null => (typeof v === 'string' && LEVELS.includes(v) ? (v as AiAttribution) : null);
const AI_COLUMNS: FactColumn[] = [
  { key: 'aiAttribution', title: 'AI attribution', type: 'text' },
  { key: 'aiEvidence', title: 'AI evidence', type: 'text' },
];

const PR_COLUMNS: FactColumn[] = [
  { key: 'repository', title: 'Repository', type: 'text' },
  { key: 'number', title: 'Number', type: 'number' },
  { key: 'title', title: 'Title', type: 'text' },
  { key: 'author', title: 'Author', type: 'text' },
  { key: 'openedAt', title: 'Opened', type: 'time' },
  { key: 'mergedAt', title: 'Merged', type: 'time' },
];

/** Issues and incidents share their first columns (an incident is an issue of type incident). */
const ISSUE_COLUMNS: FactColumn[] = [
  { key: 'key', title: 'Key', type: 'text' },
  { key: 'title', title: 'Title', type: 'text' },
  { key: 'type', title: 'Type', type: 'text' },
  { key: 'project', title: 'Project', type: 'text' },
  { key: 'openedAt', title: 'Opened', type: 'time' },
  { key: 'closedAt', title: 'Closed', type: 'time' },
];
const issueFields = (get: (dimension: string) => Cell | undefined) => ({
  id: String(get('id')),
  key: text(get('external_id')),
  title: text(get('title')),
  project: text(get('project_key')),
  openedAt: time(get('created_at')),
  closedAt: time(get('closed_at')),
});

export const KINDS: Readonly<Record<FactKind, KindSpec>> = {
  deployments: {
    cube: 'deployments',
    dimensions: ['id', 'project_key', 'environment', 'external_id', 'sha', 'status', 'created_at', 'is_failed', 'rolled_back', 'rolled_back_by', 'rolled_back_at', 'caused_incident', 'caused_incident_key', 'recovered_by', 'recovery_seconds'],
    columns: [
      { key: 'project', title: 'Project', type: 'text' },
      { key: 'environment', title: 'Environment', type: 'text' },
      { key: 'externalId', title: 'External id', type: 'text' },
      { key: 'sha', title: 'Sha', type: 'text' },
      { key: 'status', title: 'Status', type: 'text' },
      { key: 'createdAt', title: 'Created', type: 'time' },
      { key: 'failed', title: 'Failed', type: 'boolean' },
      { key: 'reason', title: 'Why it counts', type: 'text' },
      { key: 'recoveredBy', title: 'Recovered by', type: 'text' },
      { key: 'recoverySeconds', title: 'Recovery time', type: 'seconds' },
    ],
    markedColumn: { 'deployments.is_failed': 'failed' },
    present: (get) => {
      const failed = bool(get('is_failed'));
      return {
        id: String(get('id')),
        project: text(get('project_key')),
        environment: text(get('environment')),
        externalId: text(get('external_id')),
        sha: text(get('sha')),
        status: text(get('status')),
        createdAt: time(get('created_at')),
        failed,
        reason: deploymentReason({
          failed, status: text(get('status')), rolledBack: bool(get('rolled_back')), rolledBackBy: text(get('rolled_back_by')), rolledBackAt: get('rolled_back_at'),
          causedIncident: bool(get('caused_incident')), causedIncidentKey: text(get('caused_incident_key')), recoveredBy: text(get('recovered_by')), recoverySeconds: num(get('recovery_seconds')),
        }),
        recoveredBy: text(get('recovered_by')),
        recoverySeconds: num(get('recovery_seconds')),
      };
    },
  },
  pull_requests: {
    cube: 'pull_requests',
    dimensions: ['id', 'project_key', 'number', 'title', 'author_username', 'created_at', 'merged_at', 'cycle_time_seconds', 'ai_assisted', 'ai_attribution', 'ai_attribution_evidence'],
    columns: [
      ...PR_COLUMNS,
      { key: 'cycleTimeSeconds', title: 'Cycle time', type: 'seconds' },
      { key: 'aiAssisted', title: 'AI-assisted', type: 'boolean' },
      ...AI_COLUMNS,
    ],
    markedColumn: { 'pull_requests.ai_assisted': 'aiAssisted' },
    present: (get) => ({
      id: String(get('id')),
      repository: text(get('project_key')),
      number: num(get('number')),
      title: text(get('title')),
      author: text(get('author_username')),
      openedAt: time(get('created_at')),
      mergedAt: time(get('merged_at')),
      cycleTimeSeconds: num(get('cycle_time_seconds')),
      aiAssisted: bool(get('ai_assisted')),
      aiAttribution: level(get('ai_attribution')),
      aiEvidence: text(get('ai_attribution_evidence')),
    }),
  },
  change_lead_times: {
    cube: 'change_lead_times',
    dimensions: ['id', 'project_key', 'number', 'title', 'author_username', 'opened_at', 'merged_at', 'first_commit_at', 'first_commit_known', 'deployment_external_id', 'deployed_at', 'lead_time_seconds', 'ai_attribution', 'ai_attribution_evidence'],
    columns: [
      ...PR_COLUMNS,
      { key: 'firstCommitAt', title: 'First commit', type: 'time' },
      { key: 'firstCommitKnown', title: 'First commit known', type: 'boolean' },
      { key: 'deployment', title: 'Shipped by', type: 'text' },
      { key: 'deployedAt', title: 'Deployed', type: 'time' },
      { key: 'leadTimeSeconds', title: 'Lead time', type: 'seconds' },
      ...AI_COLUMNS,
    ],
    present: (get) => ({
      id: String(get('id')),
      repository: text(get('project_key')),
      number: num(get('number')),
      title: text(get('title')),
      author: text(get('author_username')),
      openedAt: time(get('opened_at')),
      mergedAt: time(get('merged_at')),
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
      ...ISSUE_COLUMNS,
      { key: 'leadTimeSeconds', title: 'Lead time', type: 'seconds' },
    ],
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
      ...ISSUE_COLUMNS,
      { key: 'timeToRestoreSeconds', title: 'Time to restore', type: 'seconds' },
      { key: 'causedBy', title: 'Caused by deployment', type: 'text' },
      { key: 'causeDecidedBy', title: 'Cause decided by', type: 'text' },
    ],
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
      { key: 'startedAt', title: 'Started', type: 'time' },
      { key: 'endedAt', title: 'Ended', type: 'time' },
      { key: 'source', title: 'Source', type: 'text' },
      { key: 'tool', title: 'Tool', type: 'text' },
      { key: 'model', title: 'Model', type: 'text' },
      { key: 'user', title: 'Person (or uploader) id', type: 'text' },
      { key: 'personMatched', title: 'Matched a person', type: 'boolean' },
    ],
    present: (get) => ({
      id: String(get('id')),
      startedAt: time(get('started_at')),
      endedAt: time(get('ended_at')),
      source: text(get('source')),
      tool: text(get('tool')),
      model: text(get('model')),
      user: text(get('user_key')),
      personMatched: bool(get('person_matched')),
    }),
  },
  ai_users: {
    cube: 'ai_sessions',
    dimensions: ['user_key', 'person_matched'],
    measures: ['ai_sessions.ai_sessions'],
    order: [['ai_sessions.ai_sessions', 'desc']],
    columns: [
      { key: 'user', title: 'Person (or uploader) id', type: 'text' },
      { key: 'personMatched', title: 'Matched a person', type: 'boolean' },
      { key: 'sessions', title: 'AI sessions', type: 'number' },
    ],
    present: (get) => ({ id: String(get('user_key')), user: String(get('user_key')), personMatched: bool(get('person_matched')), sessions: num(get('ai_sessions')) ?? 0 }),
  },
  seat_holders: {
    cube: 'seats',
    dimensions: ['person_id'],
    measures: ['seats.seats_held'],
    order: [['seats.seats_held', 'desc']],
    columns: [{ key: 'person', title: 'Person id', type: 'text' }, { key: 'seats', title: 'Seats held', type: 'number' }],
    present: (get) => ({ id: String(get('person_id')), person: String(get('person_id')), seats: num(get('seats_held')) ?? 0 }),
  },
  ai_commits: {
    cube: 'ai_commits',
    dimensions: ['id', 'project_key', 'sha', 'committed_at', 'ai_tools', 'ai_session_ids', 'ai_user_keys'],
    measures: [],
    order: [['ai_commits.committed_at', 'desc']],
    columns: [
      { key: 'repository', title: 'Repository', type: 'text' },
      { key: 'sha', title: 'Sha', type: 'text' },
      { key: 'committedAt', title: 'Committed', type: 'time' },
      { key: 'tools', title: 'AI tools', type: 'text' },
      { key: 'sessions', title: 'AI sessions', type: 'text' },
      { key: 'people', title: 'Person (or uploader) ids', type: 'text' },
    ],
    present: (get) => ({
      id: String(get('id')),
      repository: text(get('project_key')),
      sha: text(get('sha')),
      committedAt: time(get('committed_at')),
      tools: text(get('ai_tools')),
      sessions: text(get('ai_session_ids')),
      people: text(get('ai_user_keys')),
    }),
  },
  members: {
    cube: 'memberships',
    dimensions: ['person_id'],
    measures: ['memberships.register_headcount', 'memberships.manual_headcount'],
    columns: [
      { key: 'person', title: 'Person id', type: 'text' },
      { key: 'source', title: 'Membership from', type: 'text' },
      { key: 'memberships', title: 'Memberships', type: 'number' },
    ],
    present: (get) => {
      const register = num(get('register_headcount')) ?? 0;
      const manual = num(get('manual_headcount')) ?? 0;
      return {
        id: String(get('person_id')),
        person: String(get('person_id')),
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
      { key: 'team', title: 'Team', type: 'text' },
      { key: 'month', title: 'Month', type: 'text' },
      { key: 'invitations', title: 'Invitations', type: 'number' },
      { key: 'responses', title: 'Responses', type: 'number' },
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

/** A cube row of the kind's dimensions as the kind's fact. */
export function presentFact(kind: FactKind, row: Row): FactRow {
  return KINDS[kind].present((d) => row[memberOf(kind, d)]);
}

/** The CSV cells of a fact, in the kind's column order (id first): empty for null. */
export function csvCells(kind: FactKind, fact: FactRow): (string | number)[] {
  const record = fact as unknown as Record<string, string | number | boolean | null>;
  return ['id', ...KINDS[kind].columns.map((c) => c.key)].map((key) => {
    const v = record[key];
    return v === null || v === undefined ? '' : typeof v === 'boolean' ? String(v) : v;
  });
}
