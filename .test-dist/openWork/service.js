import { and, eq, inArray, sql } from "drizzle-orm";
import { deployments, issues, projects, pullRequestReviewers, pullRequests, teams } from "../db/schema/index.js";
import { AppError } from "../errors.js";
import { cubeLoad } from "../cube/service.js";
const SECTION_LIMIT = 500;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
function waitingState(draft, reviewers) {
  if (draft) return "draft";
  if (reviewers.includes("changes_requested")) return "changes_requested";
  if (reviewers.includes("requested")) return "waiting_for_review";
  if (reviewers.includes("approved")) return "approved";
  return "waiting_for_review";
}
async function resolveTeam(db, ref) {
  const [team] = await db.select({ id: teams.id, slug: teams.slug, name: teams.name }).from(teams).where(UUID.test(ref) ? eq(teams.id, ref.toLowerCase()) : eq(teams.slug, ref));
  if (!team) throw new AppError("not_found", `Team ${ref} not found`);
  return team;
}
const text = (row, key) => row[key] === null || row[key] === void 0 ? null : String(row[key]);
async function fromCube(pool, tenantId, cube, query, teamId) {
  const result = await cubeLoad(pool, { tenantId }, {
    ...query,
    dimensions: [`${cube}.id`, `${cube}.team_id`, ...query.dimensions ?? []],
    filters: [...query.filters ?? [], ...teamId ? [{ member: `${cube}.team_id`, operator: "equals", values: [teamId] }] : []],
    order: [[`${cube}.created_at`, "asc"], [`${cube}.id`, "asc"]],
    limit: SECTION_LIMIT,
    total: true
  });
  return { rows: result.data, total: result.total ?? result.data.length, idOf: (row) => String(row[`${cube}.id`]), teamOf: (row) => text(row, `${cube}.team_id`) };
}
async function teamsById(db, ids) {
  const wanted = [...new Set(ids.filter((id) => id !== null))];
  if (wanted.length === 0) return /* @__PURE__ */ new Map();
  const rows = await db.select({ id: teams.id, slug: teams.slug, name: teams.name }).from(teams).where(inArray(teams.id, wanted));
  return new Map(rows.map((t) => [t.id, t]));
}
async function openPullRequests(pool, db, tenantId, teamId) {
  const cube = await fromCube(pool, tenantId, "pull_requests", {
    dimensions: ["pull_requests.created_at"],
    filters: [{ member: "pull_requests.state", operator: "equals", values: ["open"] }],
    ungrouped: true
  }, teamId);
  const ids = cube.rows.map(cube.idOf);
  if (ids.length === 0) return { rows: [], total: cube.total };
  const details = await db.select({
    id: pullRequests.id,
    projectId: pullRequests.projectId,
    repository: projects.projectKey,
    number: pullRequests.number,
    title: pullRequests.title,
    url: pullRequests.url,
    author: pullRequests.authorUsername,
    draft: pullRequests.draft,
    createdAt: pullRequests.createdAt
  }).from(pullRequests).innerJoin(projects, eq(projects.id, pullRequests.projectId)).where(inArray(pullRequests.id, ids));
  const reviewerRows = await db.select({ projectId: pullRequestReviewers.projectId, number: pullRequestReviewers.pullRequestNumber, login: pullRequestReviewers.reviewer, state: pullRequestReviewers.state }).from(pullRequestReviewers).where(sql`(${pullRequestReviewers.projectId}, ${pullRequestReviewers.pullRequestNumber}) in (select ${pullRequests.projectId}, ${pullRequests.number} from ${pullRequests} where ${inArray(pullRequests.id, ids)})`).orderBy(pullRequestReviewers.reviewer);
  const reviewersOf = /* @__PURE__ */ new Map();
  for (const r of reviewerRows) {
    const key = `${r.projectId}#${r.number}`;
    reviewersOf.set(key, [...reviewersOf.get(key) ?? [], { login: r.login, state: r.state }]);
  }
  const byId = new Map(details.map((d) => [d.id, d]));
  const teamOf = await teamsById(db, cube.rows.map(cube.teamOf));
  const rows = cube.rows.flatMap((row) => {
    const d = byId.get(cube.idOf(row));
    if (!d) return [];
    const reviewers = (reviewersOf.get(`${d.projectId}#${d.number}`) ?? []).filter((r) => r.state !== "dismissed");
    const teamId2 = cube.teamOf(row);
    return [{
      id: d.id,
      repository: d.repository,
      number: d.number,
      title: d.title,
      url: d.url,
      author: d.author,
      draft: d.draft,
      createdAt: d.createdAt,
      team: teamId2 ? teamOf.get(teamId2) ?? null : null,
      reviewers,
      waitingState: waitingState(d.draft, reviewers.map((r) => r.state))
    }];
  });
  return { rows, total: cube.total };
}
async function failedDeployments(pool, db, tenantId, teamId) {
  const cube = await fromCube(pool, tenantId, "deployments", {
    dimensions: ["deployments.created_at", "deployments.status", "deployments.rolled_back"],
    measures: ["deployments.recovered_deploys"],
    filters: [{ member: "deployments.is_failed", operator: "equals", values: ["true"] }, { member: "deployments.recovered_deploys", operator: "equals", values: ["0"] }]
  }, teamId);
  const ids = cube.rows.map(cube.idOf);
  if (ids.length === 0) return { rows: [], total: cube.total };
  const details = await db.select({
    id: deployments.id,
    project: projects.projectKey,
    environment: deployments.environment,
    externalId: deployments.externalId,
    sha: deployments.sha,
    status: deployments.status,
    url: deployments.url,
    createdAt: deployments.createdAt
  }).from(deployments).innerJoin(projects, eq(projects.id, deployments.projectId)).where(inArray(deployments.id, ids));
  const byId = new Map(details.map((d) => [d.id, d]));
  const teamOf = await teamsById(db, cube.rows.map(cube.teamOf));
  const rows = cube.rows.flatMap((row) => {
    const d = byId.get(cube.idOf(row));
    if (!d) return [];
    const status = text(row, "deployments.status");
    const failure = status === "failure" || status === "error" ? "status" : row["deployments.rolled_back"] === true ? "rolled_back" : "caused_incident";
    const teamId2 = cube.teamOf(row);
    return [{ ...d, failure, team: teamId2 ? teamOf.get(teamId2) ?? null : null }];
  });
  return { rows, total: cube.total };
}
async function openIncidents(pool, db, tenantId, teamId) {
  const cube = await fromCube(pool, tenantId, "incidents", {
    dimensions: ["incidents.created_at"],
    measures: ["incidents.incidents_restored"],
    filters: [{ member: "incidents.incidents_restored", operator: "equals", values: ["0"] }]
  }, teamId);
  const ids = cube.rows.map(cube.idOf);
  if (ids.length === 0) return { rows: [], total: cube.total };
  const details = await db.select({
    id: issues.id,
    project: projects.projectKey,
    provider: issues.provider,
    externalId: issues.externalId,
    number: issues.number,
    title: issues.title,
    url: issues.url,
    createdAt: issues.createdAt
  }).from(issues).innerJoin(projects, eq(projects.id, issues.projectId)).where(and(inArray(issues.id, ids)));
  const byId = new Map(details.map((d) => [d.id, d]));
  const teamOf = await teamsById(db, cube.rows.map(cube.teamOf));
  const rows = cube.rows.flatMap((row) => {
    const d = byId.get(cube.idOf(row));
    if (!d) return [];
    const teamId2 = cube.teamOf(row);
    const key = d.provider === "codehost" ? `#${d.number}` : d.externalId;
    return [{ id: d.id, project: d.project, key, title: d.title, url: d.url, createdAt: d.createdAt, team: teamId2 ? teamOf.get(teamId2) ?? null : null }];
  });
  return { rows, total: cube.total };
}
async function openWork(pool, db, tenantId, teamRef) {
  const team = teamRef ? await resolveTeam(db, teamRef) : null;
  const asOf = /* @__PURE__ */ new Date();
  const [prs, deploys, incidents] = await Promise.all([
    openPullRequests(pool, db, tenantId, team?.id ?? null),
    failedDeployments(pool, db, tenantId, team?.id ?? null),
    openIncidents(pool, db, tenantId, team?.id ?? null)
  ]);
  return { asOf, team, pullRequests: prs, failedDeployments: deploys, incidents };
}
export {
  SECTION_LIMIT,
  openWork,
  resolveTeam,
  waitingState
};
