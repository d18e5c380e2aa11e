/**
 * What is in flight now, for the organisation or one team (issue 33 point 3; docs/open-work.md):
 * open pull requests with their waiting state, failed production deployments not yet recovered,
 * open incidents. Which rows belong, and to which team, is the cube's answer (the same rules as
 * the numbers: `pull_requests.state`, `deployments.is_failed` and `recovered_deploys`,
 * `incidents.incidents_restored`, the team owning the project); the tables add what a row shows
 * (title, number, link). Everything runs as the principal's tenant (row-level security).
 */
import { and, eq, inArray, sql } from 'drizzle-orm';
import type pg from 'pg';
import type { Db } from '../db/client.js';
import { deployments, issues, projects, pullRequestReviewers, pullRequests, teams } from '../db/schema/index.js';
import { AppError } from '../errors.js';
import { cubeLoad } from '../cube/service.js';
import type { Row } from '../cube/plan.js';
import type { AwaitingFirstReviewRow, DeploymentFailure, FailedDeploymentRow, UndeployedChangeRow, OpenIncidentRow, OpenPullRequestRow, OpenWorkResult, OpenWorkTeam, ReviewerState, Section, WaitingState } from './presenters.js';

/** Rows per section, oldest first; `meta.totals` says how many there are in all. */
export const SECTION_LIMIT = 500;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * An open PR's waiting state: a draft; else changes requested while anyone's change request
 * stands; else waiting for review while anyone asked has not answered; else approved when someone
 * approved; else (no review yet) waiting for review. Comments and dismissed reviews are no verdict.
 */
export function waitingState(draft: boolean, reviewers: ReviewerState[]): WaitingState {
  if (draft) return 'draft';
  if (reviewers.includes('changes_requested')) return 'changes_requested';
  if (reviewers.includes('requested')) return 'waiting_for_review';
  if (reviewers.includes('approved')) return 'approved';
  return 'waiting_for_review';
}

/** A team of the tenant by id or slug; another tenant's team is not found, like a missing one. */
export async function resolveTeam(db: Db, ref: string): Promise<OpenWorkTeam> {
  const [team] = await db
    .select({ id: teams.id, slug: teams.slug, name: teams.name })
    .from(teams)
    .where(UUID.test(ref) ? eq(teams.id, ref.toLowerCase()) : eq(teams.slug, ref));
  if (!team) throw new AppError('not_found', `Team ${ref} not found`);
  return team;
}

const text = (row: Row, key: string) => (row[key] === null || row[key] === undefined ? null : String(row[key]));

/**
 * The ids (in the cube's order) and each row's team id of an ungrouped or per-id cube query, oldest
 * first by `time` (the cube's own time dimension: created_at, or merged_at for change lead times).
 */
async function fromCube(pool: pg.Pool, tenantId: string, cube: string, query: Record<string, unknown>, teamId: string | null, options: { time?: string; limit?: number } = {}) {
  const result = await cubeLoad(pool, { tenantId }, {
    ...query,
    dimensions: [`${cube}.id`, `${cube}.team_id`, ...((query.dimensions as string[] | undefined) ?? [])],
    filters: [...((query.filters as unknown[] | undefined) ?? []), ...(teamId ? [{ member: `${cube}.team_id`, operator: 'equals', values: [teamId] }] : [])],
    order: [[`${cube}.${options.time ?? 'created_at'}`, 'asc'], [`${cube}.id`, 'asc']],
    limit: options.limit ?? SECTION_LIMIT,
    total: true,
  });
  return { rows: result.data, total: result.total ?? result.data.length, idOf: (row: Row) => String(row[`${cube}.id`]), teamOf: (row: Row) => text(row, `${cube}.team_id`) };
}

async function teamsById(db: Db, ids: (string | null)[]): Promise<Map<string, OpenWorkTeam>> {
  const wanted = [...new Set(ids.filter((id): id is string => id !== null))];
  if (wanted.length === 0) return new Map();
  const rows = await db.select({ id: teams.id, slug: teams.slug, name: teams.name }).from(teams).where(inArray(teams.id, wanted));
  return new Map(rows.map((t) => [t.id, t]));
}

async function openPullRequests(pool: pg.Pool, db: Db, tenantId: string, teamId: string | null): Promise<Section<OpenPullRequestRow>> {
  const cube = await fromCube(pool, tenantId, 'pull_requests', {
    dimensions: ['pull_requests.created_at'],
    filters: [{ member: 'pull_requests.state', operator: 'equals', values: ['open'] }],
    ungrouped: true,
  }, teamId);
  const ids = cube.rows.map(cube.idOf);
  if (ids.length === 0) return { rows: [], total: cube.total };
  const details = await db
    .select({
      id: pullRequests.id,
      projectId: pullRequests.projectId,
      repository: projects.projectKey,
      number: pullRequests.number,
      title: pullRequests.title,
      url: pullRequests.url,
      author: pullRequests.authorUsername,
      draft: pullRequests.draft,
      createdAt: pullRequests.createdAt,
    })
    .from(pullRequests)
    .innerJoin(projects, eq(projects.id, pullRequests.projectId))
    .where(inArray(pullRequests.id, ids));
  const reviewerRows = await db
    .select({ projectId: pullRequestReviewers.projectId, number: pullRequestReviewers.pullRequestNumber, login: pullRequestReviewers.reviewer, state: pullRequestReviewers.state })
    .from(pullRequestReviewers)
    .where(sql`(${pullRequestReviewers.projectId}, ${pullRequestReviewers.pullRequestNumber}) in (select ${pullRequests.projectId}, ${pullRequests.number} from ${pullRequests} where ${inArray(pullRequests.id, ids)})`)
    .orderBy(pullRequestReviewers.reviewer);
  const reviewersOf = new Map<string, { login: string; state: ReviewerState }[]>();
  for (const r of reviewerRows) {
    const key = `${r.projectId}#${r.number}`;
    reviewersOf.set(key, [...(reviewersOf.get(key) ?? []), { login: r.login, state: r.state }]);
  }
  const byId = new Map(details.map((d) => [d.id, d]));
  const teamOf = await teamsById(db, cube.rows.map(cube.teamOf));
  const rows = cube.rows.flatMap((row) => {
    const d = byId.get(cube.idOf(row));
    if (!d) return [];
    // A dismissed review and a comment are no verdict: only who stands where is shown.
    const reviewers = (reviewersOf.get(`${d.projectId}#${d.number}`) ?? []).filter((r) => r.state !== 'dismissed');
    const teamId = cube.teamOf(row);
    return [{
      id: d.id, repository: d.repository, number: d.number, title: d.title, url: d.url, author: d.author, draft: d.draft, createdAt: d.createdAt,
      team: teamId ? (teamOf.get(teamId) ?? null) : null,
      reviewers,
      waitingState: waitingState(d.draft, reviewers.map((r) => r.state)),
    }];
  });
  return { rows, total: cube.total };
}

/**
 * Failed production deployments (the cube's `is_failed`) that no later deployment recovered (the
 * cube's `recovered_deploys` of the row is 0). Why it failed is told by the flags of the same rule:
 * a failing status, else a later rollback, else (the rule's last case) the incident it caused.
 */
async function failedDeployments(pool: pg.Pool, db: Db, tenantId: string, teamId: string | null): Promise<Section<FailedDeploymentRow>> {
  const cube = await fromCube(pool, tenantId, 'deployments', {
    dimensions: ['deployments.created_at', 'deployments.status', 'deployments.rolled_back'],
    measures: ['deployments.recovered_deploys'],
    filters: [{ member: 'deployments.is_failed', operator: 'equals', values: ['true'] }, { member: 'deployments.recovered_deploys', operator: 'equals', values: ['0'] }],
  }, teamId);
  const ids = cube.rows.map(cube.idOf);
  if (ids.length === 0) return { rows: [], total: cube.total };
  const details = await db
    .select({
      id: deployments.id, project: projects.projectKey, environment: deployments.environment, externalId: deployments.externalId,
      sha: deployments.sha, status: deployments.status, url: deployments.url, createdAt: deployments.createdAt,
    })
    .from(deployments)
    .innerJoin(projects, eq(projects.id, deployments.projectId))
    .where(inArray(deployments.id, ids));
  const byId = new Map(details.map((d) => [d.id, d]));
  const teamOf = await teamsById(db, cube.rows.map(cube.teamOf));
  const rows = cube.rows.flatMap((row) => {
    const d = byId.get(cube.idOf(row));
    if (!d) return [];
    const status = text(row, 'deployments.status');
    const failure: DeploymentFailure = status === 'failure' || status === 'error' ? 'status' : row['deployments.rolled_back'] === true ? 'rolled_back' : 'caused_incident';
    const teamId = cube.teamOf(row);
    return [{ ...d, failure, team: teamId ? (teamOf.get(teamId) ?? null) : null }];
  });
  return { rows, total: cube.total };
}

/** Incidents the cube does not count as restored (`incidents_restored` of the row is 0). */
async function openIncidents(pool: pg.Pool, db: Db, tenantId: string, teamId: string | null): Promise<Section<OpenIncidentRow>> {
  const cube = await fromCube(pool, tenantId, 'incidents', {
    dimensions: ['incidents.created_at'],
    measures: ['incidents.incidents_restored'],
    filters: [{ member: 'incidents.incidents_restored', operator: 'equals', values: ['0'] }],
  }, teamId);
  const ids = cube.rows.map(cube.idOf);
  if (ids.length === 0) return { rows: [], total: cube.total };
  const details = await db
    .select({
      id: issues.id, project: projects.projectKey, provider: issues.provider, externalId: issues.externalId, number: issues.number,
      title: issues.title, url: issues.url, createdAt: issues.createdAt,
    })
    .from(issues)
    .innerJoin(projects, eq(projects.id, issues.projectId))
    .where(and(inArray(issues.id, ids)));
  const byId = new Map(details.map((d) => [d.id, d]));
  const teamOf = await teamsById(db, cube.rows.map(cube.teamOf));
  const rows = cube.rows.flatMap((row) => {
    const d = byId.get(cube.idOf(row));
    if (!d) return [];
    const teamId = cube.teamOf(row);
    // The code host's issue is known by its number; a tracker's by its own key (externalId).
    const key = d.provider === 'codehost' ? `#${d.number}` : d.externalId;
    return [{ id: d.id, project: d.project, key, title: d.title, url: d.url, createdAt: d.createdAt, team: teamId ? (teamOf.get(teamId) ?? null) : null }];
  });
  return { rows, total: cube.total };
}

/**
 * Merged pull requests not yet shipped (issue 47 point 5): the cube's change lead times that are
 * not deployed (`is_deployed = false`: no successful production deployment of the project created
 * at or after the merge), of the projects that have a deployment source (`projects.deployment_sources`:
 * a project that never sent a deployment cannot say what is deployed). Oldest merge first; the age
 * is the time since the merge.
 */
async function undeployedChanges(pool: pg.Pool, db: Db, tenantId: string, teamId: string | null): Promise<Section<UndeployedChangeRow>> {
  const sources = await cubeLoad(pool, { tenantId }, {
    dimensions: ['projects.id'],
    measures: ['projects.deployment_sources'],
    filters: [{ member: 'projects.deployment_sources', operator: 'gt', values: ['0'] }, ...(teamId ? [{ member: 'projects.owning_team_id', operator: 'equals', values: [teamId] }] : [])],
    limit: 50_000,
  });
  const projectIds = sources.data.map((r) => String(r['projects.id']));
  if (projectIds.length === 0) return { rows: [], total: 0 };
  const cube = await fromCube(pool, tenantId, 'change_lead_times', {
    dimensions: ['change_lead_times.merged_at'],
    measures: ['change_lead_times.undeployed_changes'],
    filters: [{ member: 'change_lead_times.is_deployed', operator: 'equals', values: ['false'] }, { member: 'projects.id', operator: 'equals', values: projectIds }],
  }, teamId, { time: 'merged_at' });
  const ids = cube.rows.map(cube.idOf);
  if (ids.length === 0) return { rows: [], total: cube.total };
  const details = await db
    .select({ id: pullRequests.id, repository: projects.projectKey, number: pullRequests.number, title: pullRequests.title, url: pullRequests.url, author: pullRequests.authorUsername, mergedAt: pullRequests.mergedAt })
    .from(pullRequests)
    .innerJoin(projects, eq(projects.id, pullRequests.projectId))
    .where(inArray(pullRequests.id, ids));
  const byId = new Map(details.map((d) => [d.id, d]));
  const teamOf = await teamsById(db, cube.rows.map(cube.teamOf));
  const rows = cube.rows.flatMap((row) => {
    const d = byId.get(cube.idOf(row));
    if (!d || !d.mergedAt) return [];
    const rowTeam = cube.teamOf(row);
    return [{ ...d, mergedAt: d.mergedAt, team: rowTeam ? (teamOf.get(rowTeam) ?? null) : null }];
  });
  return { rows, total: cube.total };
}

/** The days of merged PRs a team's pickup median is taken over, to `asOf`. */
export const PICKUP_WINDOW_DAYS = 90;

/**
 * Each team's median pickup time over the PRs it merged in the PICKUP_WINDOW_DAYS days to `asOf`:
 * the cube's `pull_requests.pickup_time_p50_seconds` and its n `pickup_time_count` by `team_id`
 * (METRICS.md "PR phases", docs/pr-phases.md), so the rule is written once. The window is the
 * merges at or after `asOf` − 90 days and before `asOf` (the cube's range is inclusive: its end is
 * the millisecond before). A team with no reviewed merge in the window has no median (no row).
 */
export async function teamPickupMedians(pool: pg.Pool, tenantId: string, asOf: Date, teamId: string | null): Promise<Map<string | null, { p50Seconds: number; n: number }>> {
  const from = new Date(asOf.getTime() - PICKUP_WINDOW_DAYS * 86_400_000);
  const result = await cubeLoad(pool, { tenantId }, {
    measures: ['pull_requests.pickup_time_p50_seconds', 'pull_requests.pickup_time_count'],
    dimensions: ['pull_requests.team_id'],
    timeDimensions: [{ dimension: 'pull_requests.merged_at', dateRange: [from.toISOString(), new Date(asOf.getTime() - 1).toISOString()] }],
    filters: [
      { member: 'pull_requests.pickup_time_count', operator: 'gt', values: ['0'] },
      ...(teamId ? [{ member: 'pull_requests.team_id', operator: 'equals', values: [teamId] }] : []),
    ],
    timezone: 'UTC',
    limit: 50_000,
  });
  return new Map(result.data.map((r) => [text(r, 'pull_requests.team_id'), { p50Seconds: Number(r['pull_requests.pickup_time_p50_seconds']), n: Number(r['pull_requests.pickup_time_count']) }]));
}

/**
 * Open pull requests ready for review (not drafts) that no one but their author has reviewed
 * (a review as in teamPickupMedians; a request alone is no review, nor a dismissed one), waiting
 * since ready for longer than their team's pickup median. Which PRs are open, and whose, is the
 * cube's (`pull_requests.state`, `team_id`); a team without a pickup median lists none.
 */
async function awaitingFirstReview(pool: pg.Pool, db: Db, tenantId: string, teamId: string | null, asOf: Date, medians: Map<string | null, { p50Seconds: number; n: number }>): Promise<Section<AwaitingFirstReviewRow>> {
  if (medians.size === 0) return { rows: [], total: 0 };
  const cube = await fromCube(pool, tenantId, 'pull_requests', {
    dimensions: ['pull_requests.created_at'],
    filters: [{ member: 'pull_requests.state', operator: 'equals', values: ['open'] }],
    ungrouped: true,
  }, teamId, { limit: 50_000 });
  const ids = cube.rows.map(cube.idOf);
  if (ids.length === 0) return { rows: [], total: 0 };
  const candidates = await db.execute<{ id: string; repository: string; number: number; title: string; url: string | null; author: string | null; created_at: Date | string; requested: string[] }>(sql`
    SELECT pr.id, p.project_key AS repository, pr.number, pr.title, pr.url, pr.author_username AS author, pr.created_at,
           COALESCE((SELECT array_agg(r.reviewer ORDER BY r.reviewer) FROM ${pullRequestReviewers} r
                     WHERE r.project_id = pr.project_id AND r.pull_request_number = pr.number AND r.state = 'requested'), '{}') AS requested
    FROM ${pullRequests} pr JOIN ${projects} p ON p.id = pr.project_id
    WHERE pr.tenant_id = ${tenantId} AND pr.id = ANY(${`{${ids.join(',')}}`}::uuid[]) AND NOT pr.draft
      AND NOT EXISTS (SELECT 1 FROM ${pullRequestReviewers} r
                      WHERE r.project_id = pr.project_id AND r.pull_request_number = pr.number
                        AND r.state IN ('approved', 'changes_requested', 'commented')
                        AND r.reviewer <> COALESCE(pr.author_username, '') AND r.reviewer NOT LIKE '%[bot]')`);
  const byId = new Map(candidates.rows.map((c) => [c.id, c]));
  const waiting = cube.rows.flatMap((row) => {
    const c = byId.get(cube.idOf(row));
    const median = medians.get(cube.teamOf(row));
    if (!c || !median) return [];
    const readyAt = new Date(c.created_at);
    return asOf.getTime() - readyAt.getTime() > median.p50Seconds * 1000 ? [{ row, c, readyAt, median }] : [];
  });
  const shown = waiting.slice(0, SECTION_LIMIT);
  const teamOf = await teamsById(db, shown.map((w) => cube.teamOf(w.row)));
  const rows = shown.map(({ row, c, readyAt, median }) => {
    const rowTeam = cube.teamOf(row);
    return {
      id: c.id, repository: c.repository, number: c.number, title: c.title, url: c.url, author: c.author,
      team: rowTeam ? (teamOf.get(rowTeam) ?? null) : null, readyAt, pickupMedianSeconds: median.p50Seconds, requested: c.requested,
    };
  });
  return { rows, total: waiting.length };
}

export async function openWork(pool: pg.Pool, db: Db, tenantId: string, teamRef: string | undefined): Promise<OpenWorkResult> {
  const team = teamRef ? await resolveTeam(db, teamRef) : null;
  const asOf = new Date();
  const medians = await teamPickupMedians(pool, tenantId, asOf, team?.id ?? null);
  const [prs, deploys, incidents, undeployed, awaiting] = await Promise.all([
    openPullRequests(pool, db, tenantId, team?.id ?? null),
    failedDeployments(pool, db, tenantId, team?.id ?? null),
    openIncidents(pool, db, tenantId, team?.id ?? null),
    undeployedChanges(pool, db, tenantId, team?.id ?? null),
    awaitingFirstReview(pool, db, tenantId, team?.id ?? null, asOf, medians),
  ]);
  const teamOf = await teamsById(db, [...medians.keys()]);
  const pickup = [...medians.entries()]
    .map(([id, m]) => ({ team: id ? (teamOf.get(id) ?? null) : null, p50Seconds: m.p50Seconds, n: m.n }))
    .sort((a, b) => (a.team?.name ?? '\uffff').localeCompare(b.team?.name ?? '\uffff'));
  return { asOf, team, pullRequests: prs, failedDeployments: deploys, incidents, undeployedChanges: undeployed, awaitingFirstReview: awaiting, pickup, pickupWindowDays: PICKUP_WINDOW_DAYS };
}
