import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { cubeQuery, num } from '../api/cube';
import { TEAMS_QUERY } from '../api/queries/common';
import { orgWindow, teamWindow } from '../api/queries/teams';
import { DataTable, type Column } from '../components/DataTable';
import { countCell, medianCell, ratioCell, teamColumn } from '../components/teamCells';
import { allOf, Empty, Panel } from '../components/states';
import { NO_TEAMS } from '../lib/emptyReasons';
import { formatRatio, formatScore } from '../lib/format';
import { useScope, type TableSort } from '../lib/scope';
import { deployRate } from '../lib/deployRate';
import { withTeamRows, type TeamRow } from '../lib/teamRows';
import { dateRange } from '../lib/window';
import { usePageTitle } from '../lib/usePageTitle';

const ORG = 'organisation';

export function TeamsPage() {
  usePageTitle('Teams');
  const scope = useScope();
  const navigate = useNavigate();
  const teams = useQuery(cubeQuery(TEAMS_QUERY));
  // Every fact of every team in one query, and the same without the team dimension.
  const metrics = useQuery(cubeQuery(teamWindow(scope)));
  // The organisation's row is the cube's total, not a sum: it covers projects no team owns too.
  const totals = useQuery(cubeQuery(orgWindow(scope)));
  const [windowStart] = dateRange(scope);
  const keep = { from: scope.from, to: scope.to };
  const { sort, dir } = useSearch({ strict: false }) as TableSort;
  // Replaces the entry: Back leaves the page rather than stepping through its sorts.
  const sortBy = (s: { key: string; desc: boolean }) =>
    void navigate({ to: '.', search: ((prev: Record<string, unknown>) => ({ ...prev, sort: s.key, dir: s.desc ? 'desc' : 'asc' })) as never, replace: true });

  const columns: Column<TeamRow>[] = [
    {
      key: 'name', header: 'Team', sortValue: (r) => r.team.name.toLowerCase(),
      cell: (r) => (r.team.id === ORG ? r.team.name : r.team.noTeam ? <span title="Projects no team owns">{r.team.name}</span> : <Link to="/teams/$teamId" params={{ teamId: r.team.id }} search={keep as never}>{r.team.name}</Link>),
    },
    teamColumn('headcount', 'Headcount', 'memberships.headcount', countCell('memberships.headcount', 'no members')),
    teamColumn('prs', 'PRs merged', 'pull_requests.prs_merged', countCell('pull_requests.prs_merged', 'none merged')),
    teamColumn('cycle', 'PR cycle time p50', 'pull_requests.pr_cycle_time_p50_seconds', medianCell('pull_requests.pr_cycle_time_p50_seconds', 'pull_requests.prs_merged', 'no PR merged')),
    teamColumn('issues', 'Issues closed', 'issues.issues_closed', countCell('issues.issues_closed', 'none closed')),
    teamColumn('issue-lead', 'Issue lead time p50', 'issues.issue_lead_time_p50_seconds', medianCell('issues.issue_lead_time_p50_seconds', 'issues.issues_closed', 'no issue closed')),
    teamColumn('deploys', 'Production deploys', 'deployments.production_deploys', countCell('deployments.production_deploys', 'none')),
    teamColumn('frequency', 'Deployment frequency', 'deployments.production_deploys_per_day', (r) => {
      const rate = deployRate(r.row, windowStart);
      if (rate.rate === null) return <span className="muted">no deployment source</span>;
      return <>{rate.rate}{rate.since && <span className="n"> · {rate.since}</span>}</>;
    }),
    teamColumn('cfr', 'Change failure rate', 'deployments.change_failure_rate', (r) =>
      num(r.row, 'deployments.change_failure_rate') === null ? <span className="muted">no finished production deployment</span> : <>{formatRatio(num(r.row, 'deployments.change_failure_rate') as number)}<span className="n"> · n = {num(r.row, 'deployments.finished_production_deploys')}</span></>),
    teamColumn('mttr', 'Time to restore p50', 'incidents.mttr_p50_seconds', medianCell('incidents.mttr_p50_seconds', 'incidents.incidents_restored', 'no incident closed')),
    teamColumn('ai-share', 'AI-assisted PR share', 'pull_requests.ai_assisted_pr_share', ratioCell('pull_requests.ai_assisted_pr_share', 'no PR merged')),
    teamColumn('ai-users', 'AI active users', 'ai_sessions.ai_active_users', countCell('ai_sessions.ai_active_users', 'none')),
    teamColumn('score', 'Experience score', 'survey_responses.team_experience_score', (r) => {
      const v = num(r.row, 'survey_responses.team_experience_score');
      if (v !== null) return formatScore(v);
      return <span className="muted">{(num(r.row, 'survey_responses.responses') ?? 0) > 0 ? 'fewer than 3 responses' : 'no survey response'}</span>;
    }),
  ];

  return (
    <>
      <h1>Teams</h1>
      <Panel id="teams-table" title="Enabled teams, measures for the window" query={allOf(teams, metrics, totals)} height={300}>
        {() => {
          const rows = withTeamRows(teams.data!.data, metrics.data!.data);
          if (rows.length === 0) return <Empty reason={NO_TEAMS} />;
          return (
            <>
            <DataTable
              caption="One row per enabled team; select a team to open it. Sort by any column."
              columns={columns}
              rows={rows}
              rowKey={(r) => r.team.id}
              initialSort={{ key: 'name', desc: false }}
              sort={sort ? { key: sort, desc: dir === undefined ? undefined : dir === 'desc' } : undefined}
              onSortChange={sortBy}
              onRowOpen={(r) => { if (!r.team.noTeam) void navigate({ to: '/teams/$teamId', params: { teamId: r.team.id }, search: keep as never }); }}
              footer={[{ team: { id: ORG, name: 'Organisation', slug: '' }, row: totals.data!.data[0] }]}
            />
            <p className="muted" data-testid="teams-total-note">
              The organisation row is over every project: the teams' rows{rows.some((r) => r.team.noTeam) ? ' plus “No team”, the projects no team owns' : ''}. A person on two teams counts in both.
            </p>
            </>
          );
        }}
      </Panel>
    </>
  );
}
