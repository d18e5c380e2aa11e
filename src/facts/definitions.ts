/**
 * Which facts each measure is computed from (issue 33, docs/drill-through.md). The list behind a
 * measure is the ungrouped rows of its count measure, filtered by the very flags that count
 * measure's `filters` read in schema/*.yml: the rule is the model's, parsed here, never written
 * again. A median or ratio lists the rows of its `n`; a ratio marks the rows of its numerator.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { SCHEMA_DIR } from '../cube/compiler.js';
import type { FactKind } from './presenters.js';

export type { FactKind };

/**
 * The count measure whose rows a measure lists and, for a ratio, the one whose rows it marks; `kind`
 * when the list is not the rows of the cube itself (the AI and survey counts, below).
 */
interface DrillSource {
  rows: string;
  marked?: string;
  kind?: FactKind;
  /** Row keys that explain this measure, shown first (issue 46 point 4: why it counts, the time it contributed). */
  lead?: string[];
  /** A median: its 90th percentile measure and the row key of the values both are taken over. */
  percentiles?: { p90: string; column: string };
  /** A sum over the listed rows: the row key carrying each row's part (`meta.sum` adds them up). */
  rowSum?: string;
}

const FAILED_LEAD = ['failed', 'reason'];
const FINISHED = { rows: 'deployments.finished_production_deploys', marked: 'deployments.failed_production_deploys', lead: FAILED_LEAD };
const MERGED = { rows: 'pull_requests.prs_merged' };
const AI_LEAD = ['aiAssisted', 'aiAttribution', 'aiEvidence'];

/** Every measure that opens onto its facts. */
export const DRILLS: Readonly<Record<string, DrillSource>> = Object.freeze({
  'deployments.production_deploys': { rows: 'deployments.production_deploys' },
  'deployments.production_deploys_per_day': { rows: 'deployments.production_deploys' },
  'deployments.production_deploys_per_week': { rows: 'deployments.production_deploys' },
  'deployments.finished_production_deploys': FINISHED,
  'deployments.change_failure_rate': FINISHED,
  'deployments.failed_production_deploys': { rows: 'deployments.failed_production_deploys', lead: ['reason'] },
  'deployments.recovered_deploys': { rows: 'deployments.recovered_deploys', lead: ['recoverySeconds', 'reason'] },
  'deployments.failed_deployment_recovery_time_p50_seconds': { rows: 'deployments.recovered_deploys', lead: ['recoverySeconds', 'reason'], percentiles: { p90: 'deployments.failed_deployment_recovery_time_p90_seconds', column: 'recoverySeconds' } },
  'pull_requests.prs_merged': MERGED,
  'pull_requests.pr_cycle_time_p50_seconds': { ...MERGED, percentiles: { p90: 'pull_requests.pr_cycle_time_p90_seconds', column: 'cycleTimeSeconds' } },
  // A sum's list carries each PR's part of it (the cube's measure read per row), so it adds up.
  'pull_requests.ccv_total': { ...MERGED, lead: ['changeVolume'], rowSum: 'changeVolume' },
  'pull_requests.ceu_total': { ...MERGED, lead: ['changeEffortUnits'], rowSum: 'changeEffortUnits' },
  'pull_requests.ai_assisted_prs_merged': { rows: 'pull_requests.ai_assisted_prs_merged', lead: AI_LEAD },
  'pull_requests.ai_assisted_pr_share': { rows: 'pull_requests.prs_merged', marked: 'pull_requests.ai_assisted_prs_merged', lead: AI_LEAD },
  // PR phases and reverts (docs/pr-phases.md): each PR with its four phase times and why it counts.
  'pull_requests.coding_time_p50_seconds': { rows: 'pull_requests.coding_time_count', kind: 'pr_phases', lead: ['codingTimeSeconds'] },
  'pull_requests.coding_time_count': { rows: 'pull_requests.coding_time_count', kind: 'pr_phases', lead: ['codingTimeSeconds'] },
  'pull_requests.pickup_time_p50_seconds': { rows: 'pull_requests.pickup_time_count', kind: 'pr_phases', lead: ['pickupTimeSeconds'] },
  'pull_requests.pickup_time_count': { rows: 'pull_requests.pickup_time_count', kind: 'pr_phases', lead: ['pickupTimeSeconds'] },
  'pull_requests.review_time_p50_seconds': { rows: 'pull_requests.review_time_count', kind: 'pr_phases', lead: ['reviewTimeSeconds'] },
  'pull_requests.review_time_count': { rows: 'pull_requests.review_time_count', kind: 'pr_phases', lead: ['reviewTimeSeconds'] },
  'pull_requests.deploy_time_p50_seconds': { rows: 'pull_requests.deploy_time_count', kind: 'pr_phases', lead: ['deployTimeSeconds'] },
  'pull_requests.deploy_time_count': { rows: 'pull_requests.deploy_time_count', kind: 'pr_phases', lead: ['deployTimeSeconds'] },
  'pull_requests.pr_size_p50': { rows: 'pull_requests.prs_merged', kind: 'pr_phases' },
  'pull_requests.merged_without_review_prs': { rows: 'pull_requests.merged_without_review_prs', kind: 'pr_phases' },
  'pull_requests.merged_without_review_share': { rows: 'pull_requests.prs_merged', marked: 'pull_requests.merged_without_review_prs', kind: 'pr_phases' },
  'pull_requests.reverted_prs': { rows: 'pull_requests.reverted_prs', kind: 'pr_phases' },
  'deployments.rework_deploys': { rows: 'deployments.rework_deploys', lead: ['rework', 'reworkBecause'] },
  'deployments.rework_rate': { rows: 'deployments.finished_production_deploys', marked: 'deployments.rework_deploys', lead: ['rework', 'reworkBecause'] },
  // Reviews given: each review; per reviewer, the reviewers (a distinct count), each with their reviews.
  'pull_request_reviews.reviews_given': { rows: 'pull_request_reviews.reviews_given' },
  'pull_request_reviews.reviewers': { rows: 'pull_request_reviews.reviewers', kind: 'reviewers' },
  'pull_request_reviews.reviews_per_reviewer': { rows: 'pull_request_reviews.reviewers', kind: 'reviewers' },
  'change_lead_times.deployed_changes': { rows: 'change_lead_times.deployed_changes' },
  'change_lead_times.lead_time_for_changes_p50_seconds': { rows: 'change_lead_times.deployed_changes', percentiles: { p90: 'change_lead_times.lead_time_for_changes_p90_seconds', column: 'leadTimeSeconds' } },
  'change_lead_times.undeployed_changes': { rows: 'change_lead_times.undeployed_changes' },
  'issues.issues_closed': { rows: 'issues.issues_closed' },
  'issues.issue_lead_time_p50_seconds': { rows: 'issues.issues_closed', percentiles: { p90: 'issues.issue_lead_time_p90_seconds', column: 'leadTimeSeconds' } },
  'incidents.incidents_opened': { rows: 'incidents.incidents_opened' },
  'incidents.incidents_restored': { rows: 'incidents.incidents_restored' },
  'incidents.mttr_p50_seconds': { rows: 'incidents.incidents_restored', percentiles: { p90: 'incidents.mttr_p90_seconds', column: 'timeToRestoreSeconds' } },
  // Distinct counts: one row per value the measure counts (a session; a person, or an unmatched
  // uploader; a seat holder), whatever the teams it counts for.
  'ai_sessions.ai_sessions': { rows: 'ai_sessions.ai_sessions' },
  'ai_sessions.ai_active_users': { rows: 'ai_sessions.ai_active_users', kind: 'ai_users' },
  'seats.ai_seat_holders': { rows: 'seats.ai_seat_holders', kind: 'seat_holders' },
  'seats.idle_seats': { rows: 'seats.idle_seats', kind: 'idle_seats' },
  // The AI sums (docs/ai-measures.md): a row per person-day-tool or merged PR, carrying every
  // amount; a sum's list adds up to it, a ratio's to its denominator (its n) with the numerator
  // beside it.
  'ai_activity.ai_lines_added': { rows: 'ai_activity.ai_lines_added' },
  'ai_activity.merged_pr_lines_added': { rows: 'ai_activity.merged_pr_lines_added' },
  'ai_activity.ai_added_line_share': { rows: 'ai_activity.merged_pr_lines_added' },
  'ai_activity.ai_tool_tokens': { rows: 'ai_activity.ai_tool_tokens' },
  'ai_activity.merged_prs': { rows: 'ai_activity.merged_prs' },
  'ai_activity.tokens_per_merged_pr': { rows: 'ai_activity.merged_prs' },
  'ai_activity.edits_accepted': { rows: 'ai_activity.edits_accepted' },
  'ai_activity.edits_offered': { rows: 'ai_activity.edits_offered' },
  'ai_activity.edit_acceptance_rate': { rows: 'ai_activity.edits_offered' },
  // A commit linked by two sessions, or counted for two teams, is one row (the commit id it counts).
  'ai_commits.ai_commits': { rows: 'ai_commits.ai_commits' },
  // The team's current members, by person id (a person once in the organisation's list); not windowed.
  'memberships.headcount': { rows: 'memberships.headcount', kind: 'members' },
  // Survey counts: the cube's own rows, a team and a month each, with their counts (docs/surveys.md:
  // a response is never listed, nor an answer; the experience score has no drill-through).
  'survey_responses.invitations': { rows: 'survey_responses.invitations', kind: 'survey_counts' },
  'survey_responses.responses': { rows: 'survey_responses.responses', kind: 'survey_counts' },
  'survey_responses.survey_response_rate': { rows: 'survey_responses.invitations', kind: 'survey_counts' },
});

export const DRILL_MEASURES = Object.keys(DRILLS);

/** A boolean dimension and the value a counted row has. */
export interface Flag {
  member: string;
  value: boolean;
}

export interface Drill {
  measure: string;
  kind: FactKind;
  /**
   * The time dimension that puts a row in the window (the rows measure's `meta.time_dimension`);
   * null for a cube without one (memberships: the current state, whatever the window).
   */
  time: string | null;
  /** Every row of the list has these. */
  flags: Flag[];
  /** A marked row has these too (a ratio's numerator); empty when the list marks none. */
  marked: Flag[];
  /**
   * A distinct count's key: the dimension reading the column the measure counts (`count_distinct`);
   * the list is one row per value of it. Null for a count (one row per fact).
   */
  key: string | null;
  /** A sum's measure: the list's rows carry it, and it adds up to the number. Null otherwise. */
  sum: string | null;
  /**
   * Rows stored but counted in no measure, listed apart (one source per period: the deployments a
   * project's current source replaced). `flag` is the member the rows measure's filter requires
   * false (`NOT {CUBE}.is_replaced`): the same flags with it true are those rows; `reason` the
   * dimension that says why (`deployments.replaced_by`). Null when the list has no such rows.
   */
  uncounted: { flag: string; reason: string } | null;
  /** Row keys shown first: the ones that explain this measure. */
  lead: string[];
  /** A median's 90th percentile measure and the row key its values are in; null for any other measure. */
  percentiles: { p90: string; column: string } | null;
  /** An ungrouped list whose measure is a sum of a row key (ccv_total: changeVolume); null otherwise. */
  rowSum: string | null;
}

interface ModelMeasure {
  name: string;
  type: string;
  sql?: string;
  filters?: { sql: string }[];
  meta?: { time_dimension?: string };
}
interface ModelDimension {
  name: string;
  sql?: string;
  type: string;
  /** `uncounted_because`: a flag whose rows are stored and counted nowhere, and the dimension saying why. */
  meta?: { uncounted_because?: string };
}
interface ModelCube {
  name: string;
  dimensions?: ModelDimension[];
  measures?: ModelMeasure[];
}

const TERM = /^(NOT )?\{CUBE\}\.([a-z_][a-z0-9_]*)$/;

function modelOf(cube: string, dir: string): ModelCube {
  const doc = parse(readFileSync(`${dir}/${cube}.yml`, 'utf8')) as { cubes: ModelCube[] };
  const model = doc.cubes.find((c) => c.name === cube);
  if (!model) throw new Error(`schema/${cube}.yml has no cube ${cube}`);
  return model;
}

/**
 * The flags of a count measure's filters: each filter a conjunction of `{CUBE}.<column>` or
 * `NOT {CUBE}.<column>` where a boolean dimension of the cube reads that column. A filter of any
 * other form fails loudly (test/facts/drill.test.ts runs every drill): the list would otherwise
 * need a second, hand-written rule.
 */
export function flagsOf(measure: string, dir = SCHEMA_DIR): { time: string | null; flags: Flag[]; key: string | null; sum: string | null; uncounted: Drill['uncounted'] } {
  const [cube, name] = measure.split('.') as [string, string];
  const model = modelOf(cube, dir);
  const m = model.measures?.find((x) => x.name === name);
  if (!m) throw new Error(`${measure} is not in schema/${cube}.yml`);
  // A cube with a time dimension must say which one windows the measure; one without (memberships)
  // is the current state, listed whatever the window.
  const time = m.meta?.time_dimension ?? null;
  if (!time && model.dimensions?.some((d) => d.type === 'time')) throw new Error(`${measure} has no meta.time_dimension`);
  let uncounted: Drill['uncounted'] = null;
  const flags = (m.filters ?? []).flatMap((f) =>
    f.sql.split(/\sAND\s/).map((term) => {
      const match = TERM.exec(term.trim());
      const dimension = match && model.dimensions?.find((d) => d.sql === match[2] && d.type === 'boolean');
      if (!match || !dimension) throw new Error(`${measure}: filter term "${term}" is not a boolean dimension of ${cube}`);
      const flag = { member: `${cube}.${dimension.name}`, value: match[1] === undefined };
      const reason = dimension.meta?.uncounted_because;
      if (reason !== undefined) {
        if (flag.value || !model.dimensions?.some((d) => `${cube}.${d.name}` === reason)) throw new Error(`${measure}: ${flag.member} marks uncounted rows: a filter must say NOT ${term.trim()}, and ${reason} must be a dimension of ${cube}`);
        uncounted = { flag: flag.member, reason };
      }
      return flag;
    }),
  );
  // A distinct count lists the values it counts: the dimension that reads its column.
  let key: string | null = null;
  if (m.type === 'count_distinct') {
    const dimension = model.dimensions?.find((d) => d.sql === m.sql);
    if (!dimension) throw new Error(`${measure}: no dimension of ${cube} reads ${m.sql ?? 'its column'}, the column it counts`);
    key = `${cube}.${dimension.name}`;
  } else if (m.type !== 'count' && m.type !== 'sum') {
    throw new Error(`${measure} is a ${m.type}: only a count, a distinct count or a sum lists its facts`);
  }
  return { time, flags, key, sum: m.type === 'sum' ? measure : null, uncounted };
}

const cache = new Map<string, Drill>();

/** The drill of a measure, or null when it has none. */
export function drillOf(measure: string): Drill | null {
  if (!Object.hasOwn(DRILLS, measure)) return null;
  const hit = cache.get(measure);
  if (hit) return hit;
  const source = DRILLS[measure] as DrillSource;
  const { time, flags, key, sum, uncounted } = flagsOf(source.rows);
  const marked = source.marked ? flagsOf(source.marked).flags.filter((f) => !flags.some((g) => g.member === f.member && g.value === f.value)) : [];
  const drill: Drill = {
    measure, kind: source.kind ?? (measure.slice(0, measure.indexOf('.')) as FactKind), time, flags, marked, key, sum,
    uncounted, lead: source.lead ?? [], percentiles: source.percentiles ?? null, rowSum: source.rowSum ?? null,
  };
  cache.set(measure, drill);
  return drill;
}
