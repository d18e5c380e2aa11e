function presentSurvey(survey, teams) {
  const invitations = teams.reduce((n, t) => n + t.invitations, 0);
  const responses = teams.reduce((n, t) => n + t.responses, 0);
  return {
    id: survey.id,
    title: survey.title,
    opensOn: survey.opensOn,
    closesOn: survey.closesOn,
    status: survey.status,
    closedAt: survey.closedAt?.toISOString() ?? null,
    createdAt: survey.createdAt.toISOString(),
    counts: { invitations, responses },
    teams: teams.map((t) => ({ id: t.teamId, slug: t.slug, name: t.name, invitations: t.invitations, responses: t.responses }))
  };
}
export {
  presentSurvey
};
