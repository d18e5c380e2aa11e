import { useQuery } from '@tanstack/react-query';
import { cubeQuery } from '../api/cube';
import { factQuery, TEAMS_QUERY, type Fact } from '../api/queries/common';
import { teamWindow } from '../api/queries/teams';
import { DataTable } from '../components/DataTable';
import { DrillPanel } from '../components/Drill';
import { MonthlyCharts, type Series } from '../components/MonthlyCharts';
import { PHASE_FACT, PHASE_TITLES, PhaseBars } from '../components/charts/PhaseBars';
import { allOf, Empty, Panel } from '../components/states';
import { NO_TEAMS } from '../lib/emptyReasons';
import { formatCount, formatSeconds } from '../lib/format';
import { useScope } from '../lib/scope';
import { ORGANISATION, withTeamRows } from '../lib/teamRows';
import { countCell, drillColumn, medianCell, teamNameColumn } from '../components/teamCells';
import { usePageTitle } from '../lib/usePageTitle';

const FACTS: Fact[] = [
  { time: 'pull_requests.merged_at', measures: ['pull_requests.prs_merged', 'pull_requests.pr_cycle_time_p50_seconds', 'pull_requests.ceu_total', 'pull_requests.ccv_total'] },
  { time: 'issues.closed_at', measures: ['issues.issues_closed', 'issues.issue_lead_time_p50_seconds'] },
];
const SERIES: Series[] = [
  { id: 'flow-prs', title: 'PRs merged', value: 'pull_requests.prs_merged', subject: 'pullRequests', format: formatCount },
  { id: 'flow-cycle', title: 'PR cycle time p50', value: 'pull_requests.pr_cycle_time_p50_seconds', n: 'pull_requests.prs_merged', subject: 'pullRequests', format: formatSeconds },
  { id: 'flow-issue-lead', title: 'Issue lead time p50', value: 'issues.issue_lead_time_p50_seconds', n: 'issues.issues_closed', subject: 'issues', format: formatSeconds },
  { id: 'flow-ceu', title: 'Change effort units (CEU)', value: 'pull_requests.ceu_total', n: 'pull_requests.prs_merged', subject: 'pullRequests', format: formatCount },
  { id: 'flow-ccv', title: 'Code change volume (CCV, lines)', value: 'pull_requests.ccv_total', n: 'pull_requests.prs_merged', subject: 'pullRequests', format: formatCount },
];

const DRILL_TITLES: Record<string, string> = {
  'pull_requests.prs_merged': 'PRs merged', 'pull_requests.pr_cycle_time_p50_seconds': 'PR cycle time p50', 'issues.issue_lead_time_p50_seconds': 'Issue lead time p50',
  'pull_requests.ceu_total': 'CEU', 'pull_requests.ccv_total': 'CCV', ...PHASE_TITLES,
};
const column = drillColumn(DRILL_TITLES);

const COLUMNS = [
  teamNameColumn,
  column('prs', 'pull_requests.prs_merged', countCell('pull_requests.prs_merged', null), true),
  column('cycle', 'pull_requests.pr_cycle_time_p50_seconds', medianCell('pull_requests.pr_cycle_time_p50_seconds', 'pull_requests.prs_merged', 'no PR merged')),
  column('lead', 'issues.issue_lead_time_p50_seconds', medianCell('issues.issue_lead_time_p50_seconds', 'issues.issues_closed', 'no issue closed')),
  column('ceu', 'pull_requests.ceu_total', countCell('pull_requests.ceu_total', null), true),
  column('ccv', 'pull_requests.ccv_total', countCell('pull_requests.ccv_total', null), true),
];

export function FlowPage() {
  usePageTitle('Flow');
  const scope = useScope();
  const trend = useQuery(cubeQuery(factQuery(FACTS, scope, scope, { byMonth: true })));
  const phases = useQuery(cubeQuery(factQuery([PHASE_FACT], scope, scope, { byMonth: true })));
  const teams = useQuery(cubeQuery(TEAMS_QUERY));
  const byTeam = useQuery(cubeQuery(teamWindow(scope, FACTS)));
  // The organisation's row is the cube's total, not a sum: it covers projects no team owns too.
  const total = useQuery({ ...cubeQuery({ ...teamWindow(scope, FACTS), dimensions: [] }), enabled: scope.team === undefined });
  return (
    <>
      <DrillPanel scope={scope} titles={DRILL_TITLES} />
      <h1>Flow</h1>
      <Panel id="flow-trend" title="By month" query={trend} height={400}>
        {() => <MonthlyCharts rows={trend.data!.data} times={FACTS.map((f) => f.time as string)} series={SERIES} scope={scope} drill />}
      </Panel>
      <Panel id="flow-phases" title="PR cycle in phases" query={phases} height={300}>
        {() => <PhaseBars id="flow-phase-bars" rows={phases.data!.data} scope={scope} />}
      </Panel>
      <Panel id="flow-teams" title="By team, over the window" query={scope.team === undefined ? allOf(teams, byTeam, total) : allOf(teams, byTeam)}>
        {() => {
          const rows = withTeamRows(teams.data!.data, byTeam.data!.data, scope.team);
          if (rows.length === 0) return <Empty reason={NO_TEAMS} />;
          const footer = scope.team === undefined ? [{ team: ORGANISATION, row: total.data!.data[0] }] : [];
          return (
            <>
              <DataTable caption="Flow measures by team for the window" columns={COLUMNS} rows={rows} rowKey={(r) => r.team.id} initialSort={{ key: 'team', desc: false }} footer={footer} />
              {footer.length > 0 && (
                <p className="muted" data-testid="flow-teams-total-note">
                  The organisation row is over every project: the teams' rows{rows.some((r) => r.team.noTeam) ? ' plus “No team”, the projects no team owns' : ''}.
                </p>
              )}
            </>
          );
        }}
      </Panel>
    </>
  );
}
