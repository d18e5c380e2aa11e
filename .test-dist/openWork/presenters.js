const ageOf = (from, asOf) => Math.max(0, Math.floor((asOf.getTime() - from.getTime()) / 1e3));
function presentPullRequest(row, asOf) {
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
    reviewers: row.reviewers.flatMap((r) => r.state === "dismissed" ? [] : [{ login: r.login, state: r.state }])
  };
}
function presentFailedDeployment(row, asOf) {
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
    ageSeconds: ageOf(row.createdAt, asOf)
  };
}
function presentIncident(row, asOf) {
  return { id: row.id, project: row.project, key: row.key, title: row.title, url: row.url, team: row.team, openedAt: row.createdAt.toISOString(), ageSeconds: ageOf(row.createdAt, asOf) };
}
function presentOpenWork(result, limit) {
  const { asOf } = result;
  return {
    data: {
      pullRequests: result.pullRequests.rows.map((r) => presentPullRequest(r, asOf)),
      failedDeployments: result.failedDeployments.rows.map((r) => presentFailedDeployment(r, asOf)),
      incidents: result.incidents.rows.map((r) => presentIncident(r, asOf))
    },
    meta: {
      asOf: asOf.toISOString(),
      team: result.team,
      totals: { pullRequests: result.pullRequests.total, failedDeployments: result.failedDeployments.total, incidents: result.incidents.total },
      limit
    }
  };
}
export {
  presentFailedDeployment,
  presentIncident,
  presentOpenWork,
  presentPullRequest
};
