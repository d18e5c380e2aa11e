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
import type { DeploymentFailure, FailedDeploymentRow, OpenIncidentRow, OpenPullRequestRow, OpenWorkResult, OpenWorkTeam, ReviewerState, Section, WaitingState } from './presenters.js';

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

/** The ids (in the cube's order) and each row's team id of an ungrouped or per-id cube query. */
async function fromCube(pool: pg.Pool, tenantId: string, cube: string, query: Record<string, unknown>, teamId: string | null) {
  const result = await cubeLoad(pool, { tenantId }, {
    ...query,
    dimensions: [`${cube}.id`, `${cube}.team_id`, ...((query.dimensions as string[] | undefined) ?? [])],
    filters: [...((query.filters as unknown[] | undefined) ?? []), ...(teamId ? [{ member: `${cube}.team_id`, operator: 'equals', values: [teamId] }] : [])],
    order: [[`${cube}.created_at`, 'asc'], [`${cube}.id`, 'asc']],
    limit: SECTION_LIMIT,
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

export async function openWork(pool: pg.Pool, db: Db, tenantId: string, teamRef: string | undefined): Promise<OpenWorkResult> {
  const team = teamRef ? await resolveTeam(db, teamRef) : null;
  const asOf = new Date();
  const [prs, deploys, incidents] = await Promise.all([
    openPullRequests(pool, db, tenantId, team?.id ?? null),
    failedDeployments(pool, db, tenantId, team?.id ?? null),
    openIncidents(pool, db, tenantId, team?.id ?? null),
  ]);
  return { asOf, team, pullRequests: prs, failedDeployments: deploys, incidents };
}
