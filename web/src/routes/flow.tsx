import { useQuery } from '@tanstack/react-query';
import { cubeQuery, num, type CubeRow } from '../api/cube';
import { factQuery, TEAMS_QUERY, type Fact } from '../api/queries/common';
import { teamWindow } from '../api/queries/teams';
import { DataTable, type Column } from '../components/DataTable';
import { Median } from '../components/Median';
import { MonthlyCharts, type Series } from '../components/MonthlyCharts';
import { both, Empty, Panel } from '../components/states';
import { NO_TEAMS } from '../lib/emptyReasons';
import { formatCount, formatSeconds } from '../lib/format';
import { useScope } from '../lib/scope';
import { withTeamRows, type TeamRef } from '../lib/teamRows';
import { usePageTitle } from '../lib/usePageTitle';

const FACTS: Fact[] = [
  { time: 'pull_requests.merged_at', measures: ['pull_requests.prs_merged', 'pull_requests.pr_cycle_time_p50_seconds', 'pull_requests.ceu_total', 'pull_requests.ccv_total'] },
  { time: 'issues.closed_at', measures: ['issues.issues_closed', 'issues.issue_lead_time_p50_seconds'] },
];
const SERIES: Series[] = [
  { id: 'flow-prs', title: 'PRs merged', value: 'pull_requests.prs_merged', subject: 'pullRequests', format: formatCount },
  { id: 'flow-cycle', title: 'PR cycle time p50', value: 'pull_requests.pr_cycle_time_p50_seconds', n: 'pull_requests.prs_merged', subject: 'pullRequests', format: formatSeconds },
  { id: 'flow-issue-lead', title: 'Issue lead time p50', value: 'issues.issue_lead_time_p50_seconds', n: 'issues.issues_closed', subject: 'issues', format: formatSeconds },
  { id: 'flow-ceu', title: 'Change effort units (CEU)', value: 'pull_requests.ceu_total', subject: 'pullRequests', format: formatCount },
  { id: 'flow-ccv', title: 'Code change volume (CCV, lines)', value: 'pull_requests.ccv_total', subject: 'pullRequests', format: formatCount },
];

type Row = { team: TeamRef; row: CubeRow | undefined };
const cnt = (k: string) => (r: Row) => (num(r.row, k) === null ? <span className="muted">none</span> : formatCount(num(r.row, k) as number));
const med = (k: string, n: string, none: string) => (r: Row) => (num(r.row, k) === null ? <span className="muted">{none}</span> : <Median seconds={num(r.row, k)} n={num(r.row, n)} />);
const COLUMNS: Column<Row>[] = [
  { key: 'team', header: 'Team', sortValue: (r) => r.team.name.toLowerCase(), cell: (r) => r.team.name },
  { key: 'prs', header: 'PRs merged', numeric: true, sortValue: (r) => num(r.row, 'pull_requests.prs_merged'), cell: cnt('pull_requests.prs_merged') },
  { key: 'cycle', header: 'PR cycle time p50', numeric: true, sortValue: (r) => num(r.row, 'pull_requests.pr_cycle_time_p50_seconds'), cell: med('pull_requests.pr_cycle_time_p50_seconds', 'pull_requests.prs_merged', 'no PR merged') },
  { key: 'lead', header: 'Issue lead time p50', numeric: true, sortValue: (r) => num(r.row, 'issues.issue_lead_time_p50_seconds'), cell: med('issues.issue_lead_time_p50_seconds', 'issues.issues_closed', 'no issue closed') },
  { key: 'ceu', header: 'CEU', numeric: true, sortValue: (r) => num(r.row, 'pull_requests.ceu_total'), cell: cnt('pull_requests.ceu_total') },
  { key: 'ccv', header: 'CCV', numeric: true, sortValue: (r) => num(r.row, 'pull_requests.ccv_total'), cell: cnt('pull_requests.ccv_total') },
];

export function FlowPage() {
  usePageTitle('Flow');
  const scope = useScope();
  const trend = useQuery(cubeQuery(factQuery(FACTS, scope, scope, { byMonth: true })));
  const teams = useQuery(cubeQuery(TEAMS_QUERY));
  const byTeam = useQuery(cubeQuery(teamWindow(scope, FACTS)));
  return (
    <>
      <h1>Flow</h1>
      <Panel id="flow-trend" title="By month" query={trend} height={400}>
        {() => <MonthlyCharts rows={trend.data!.data} times={FACTS.map((f) => f.time as string)} series={SERIES} scope={scope} />}
      </Panel>
      <Panel id="flow-teams" title="By team, over the window" query={both(teams, byTeam)}>
        {() => {
          const rows = withTeamRows(teams.data!.data, byTeam.data!.data).filter((r) => !scope.team || r.team.id === scope.team);
          return rows.length === 0 ? <Empty reason={NO_TEAMS} /> : <DataTable caption="Flow measures by team for the window" columns={COLUMNS} rows={rows} rowKey={(r) => r.team.id} initialSort={{ key: 'team', desc: false }} />;
        }}
      </Panel>
    </>
  );
}
