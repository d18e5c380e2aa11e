import { useQueries, useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { cubeQuery, num } from '../api/cube';
import { TEAMS_QUERY } from '../api/queries/common';
import { teamWindowQueries } from '../api/queries/teams';
import { DataTable, type Column } from '../components/DataTable';
import { Median } from '../components/Median';
import { both, Empty, Panel } from '../components/states';
import { NO_TEAMS } from '../lib/emptyReasons';
import { formatCount, formatRatio, formatScore } from '../lib/format';
import { useScope } from '../lib/scope';
import { withTeamRows, type TeamRef } from '../lib/teamRows';
import { usePageTitle } from '../lib/usePageTitle';
import type { CubeRow } from '../api/cube';

type Row = { team: TeamRef; row: CubeRow | undefined };

const count = (key: string, none: string) => (r: Row) => {
  const v = num(r.row, key);
  return v === null ? <span className="muted">{none}</span> : formatCount(v);
};
const median = (key: string, n: string, none: string) => (r: Row) =>
  num(r.row, key) === null ? <span className="muted">{none}</span> : <Median seconds={num(r.row, key)} n={num(r.row, n)} />;

export function TeamsPage() {
  usePageTitle('Teams');
  const scope = useScope();
  const navigate = useNavigate();
  const teams = useQuery(cubeQuery(TEAMS_QUERY));
  const metrics = useQueries({
    queries: teamWindowQueries(scope).map((q) => cubeQuery(q)),
    combine: (results) => ({
      isPending: results.some((r) => r.isPending),
      isError: results.some((r) => r.isError),
      isFetching: results.some((r) => r.isFetching),
      error: results.find((r) => r.isError)?.error ?? null,
      dataUpdatedAt: Math.min(...results.map((r) => r.dataUpdatedAt)),
      refetch: () => results.forEach((r) => void r.refetch()),
      data: results.every((r) => r.data) ? { data: results.flatMap((r) => r.data!.data) } : undefined,
    }),
  });
  const keep = { from: scope.from, to: scope.to };

  const columns: Column<Row>[] = [
    {
      key: 'name', header: 'Team', sortValue: (r) => r.team.name.toLowerCase(),
      cell: (r) => (<Link to="/teams/$teamId" params={{ teamId: r.team.id }} search={keep as never}>{r.team.name}</Link>),
    },
    { key: 'headcount', header: 'Headcount', numeric: true, sortValue: (r) => num(r.row, 'memberships.headcount'), cell: count('memberships.headcount', 'no members') },
    { key: 'prs', header: 'PRs merged', numeric: true, sortValue: (r) => num(r.row, 'pull_requests.prs_merged'), cell: count('pull_requests.prs_merged', 'none merged') },
    { key: 'cycle', header: 'PR cycle time p50', numeric: true, sortValue: (r) => num(r.row, 'pull_requests.pr_cycle_time_p50_seconds'), cell: median('pull_requests.pr_cycle_time_p50_seconds', 'pull_requests.prs_merged', 'no PR merged') },
    { key: 'issues', header: 'Issues closed', numeric: true, sortValue: (r) => num(r.row, 'issues.issues_closed'), cell: count('issues.issues_closed', 'none closed') },
    { key: 'issue-lead', header: 'Issue lead time p50', numeric: true, sortValue: (r) => num(r.row, 'issues.issue_lead_time_p50_seconds'), cell: median('issues.issue_lead_time_p50_seconds', 'issues.issues_closed', 'no issue closed') },
    { key: 'deploys', header: 'Production deploys', numeric: true, sortValue: (r) => num(r.row, 'deployments.production_deploys'), cell: count('deployments.production_deploys', 'none') },
    {
      key: 'cfr', header: 'Change failure rate', numeric: true, sortValue: (r) => num(r.row, 'deployments.change_failure_rate'),
      cell: (r) => (num(r.row, 'deployments.change_failure_rate') === null ? <span className="muted">no finished production deployment</span> : <>{formatRatio(num(r.row, 'deployments.change_failure_rate') as number)}<span className="n"> · n = {num(r.row, 'deployments.finished_production_deploys')}</span></>),
    },
    { key: 'mttr', header: 'Time to restore p50', numeric: true, sortValue: (r) => num(r.row, 'incidents.mttr_p50_seconds'), cell: median('incidents.mttr_p50_seconds', 'incidents.incidents_restored', 'no incident closed') },
    {
      key: 'ai-share', header: 'AI-assisted PR share', numeric: true, sortValue: (r) => num(r.row, 'pull_requests.ai_assisted_pr_share'),
      cell: (r) => (num(r.row, 'pull_requests.ai_assisted_pr_share') === null ? <span className="muted">no PR merged</span> : formatRatio(num(r.row, 'pull_requests.ai_assisted_pr_share') as number)),
    },
    { key: 'ai-users', header: 'AI active users', numeric: true, sortValue: (r) => num(r.row, 'ai_sessions.ai_active_users'), cell: count('ai_sessions.ai_active_users', 'none') },
    {
      key: 'score', header: 'Experience score', numeric: true, sortValue: (r) => num(r.row, 'survey_responses.team_experience_score'),
      cell: (r) => {
        const v = num(r.row, 'survey_responses.team_experience_score');
        const responses = num(r.row, 'survey_responses.responses') ?? 0;
        if (v !== null) return formatScore(v);
        return <span className="muted">{responses > 0 ? 'fewer than 3 responses' : 'no survey response'}</span>;
      },
    },
  ];

  return (
    <>
      <h1>Teams</h1>
      <Panel id="teams-table" title="Enabled teams, measures for the window" query={both(teams, metrics)} height={300}>
        {() => {
          const rows = withTeamRows(teams.data!.data, metrics.data!.data);
          if (rows.length === 0) return <Empty reason={NO_TEAMS} />;
          return (
            <DataTable
              caption="One row per enabled team; select a team to open it. Sort by any column."
              columns={columns}
              rows={rows}
              rowKey={(r) => r.team.id}
              initialSort={{ key: 'name', desc: false }}
              onRowOpen={(r) => void navigate({ to: '/teams/$teamId', params: { teamId: r.team.id }, search: keep as never })}
            />
          );
        }}
      </Panel>
    </>
  );
}
