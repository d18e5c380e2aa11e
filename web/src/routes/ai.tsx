import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { cubeQuery, num } from '../api/cube';
import { factQuery, TEAMS_QUERY, type Fact } from '../api/queries/common';
import { teamWindow } from '../api/queries/teams';
import { ScatterPlot } from '../components/charts/ScatterPlot';
import { DataTable } from '../components/DataTable';
import { DrillPanel } from '../components/Drill';
import { MonthlyCharts, type Series } from '../components/MonthlyCharts';
import { allOf, Empty, Panel } from '../components/states';
import { NO_TEAMS } from '../lib/emptyReasons';
import { formatCount, formatRatio, formatSeconds } from '../lib/format';
import { keepScope, useScope } from '../lib/scope';
import { ORGANISATION, withTeamRows } from '../lib/teamRows';
import { countCell, drillColumn, medianCell, ratioCell, teamNameColumn } from '../components/teamCells';
import { usePageTitle } from '../lib/usePageTitle';

const FACTS: Fact[] = [
  { time: 'seats.month', measures: ['seats.ai_seat_holders', 'seats.idle_seats'] },
  { time: 'ai_sessions.started_at', measures: ['ai_sessions.ai_active_users', 'ai_sessions.ai_sessions'] },
  { time: 'ai_commits.committed_at', measures: ['ai_commits.ai_commits'] },
  { time: 'ai_activity.happened_at', measures: ['ai_activity.ai_added_line_share', 'ai_activity.merged_pr_lines_added', 'ai_activity.tokens_per_merged_pr', 'ai_activity.merged_prs', 'ai_activity.edit_acceptance_rate', 'ai_activity.edits_offered'] },
  { time: 'pull_requests.merged_at', measures: ['pull_requests.ai_assisted_pr_share', 'pull_requests.prs_merged'] },
];
const SERIES: Series[] = [
  { id: 'ai-seats', title: 'Seat holders', value: 'seats.ai_seat_holders', subject: 'seats', format: formatCount },
  { id: 'ai-active', title: 'Active users', value: 'ai_sessions.ai_active_users', subject: 'aiSessions', format: formatCount },
  { id: 'ai-sessions', title: 'AI sessions', value: 'ai_sessions.ai_sessions', subject: 'aiSessions', format: formatCount },
  { id: 'ai-commits', title: 'AI commits', value: 'ai_commits.ai_commits', subject: 'aiCommits', format: formatCount },
  { id: 'ai-idle-seats', title: 'Idle seats', value: 'seats.idle_seats', subject: 'seats', format: formatCount },
  { id: 'ai-line-share', title: 'AI-added line share', value: 'ai_activity.ai_added_line_share', n: 'ai_activity.merged_pr_lines_added', subject: 'aiLines', format: formatRatio },
  { id: 'ai-tokens-per-pr', title: 'Tokens per merged PR', value: 'ai_activity.tokens_per_merged_pr', n: 'ai_activity.merged_prs', subject: 'pullRequests', format: formatCount },
  { id: 'ai-acceptance', title: 'Edit acceptance rate', value: 'ai_activity.edit_acceptance_rate', n: 'ai_activity.edits_offered', subject: 'aiEdits', format: formatRatio },
  { id: 'ai-share', title: 'AI-assisted PR share', value: 'pull_requests.ai_assisted_pr_share', n: 'pull_requests.prs_merged', subject: 'pullRequests', format: formatRatio },
];
const TEAM_FACTS: Fact[] = [
  { time: 'pull_requests.merged_at', measures: ['pull_requests.ai_assisted_pr_share', 'pull_requests.pr_cycle_time_p50_seconds', 'pull_requests.prs_merged'] },
  { time: 'ai_sessions.started_at', measures: ['ai_sessions.ai_active_users', 'ai_sessions.ai_sessions'] },
  { time: 'seats.month', measures: ['seats.ai_seat_holders', 'seats.idle_seats'] },
  { time: 'ai_activity.happened_at', measures: ['ai_activity.ai_added_line_share', 'ai_activity.tokens_per_merged_pr', 'ai_activity.merged_prs', 'ai_activity.edit_acceptance_rate', 'ai_activity.merged_pr_lines_added', 'ai_activity.edits_offered'] },
];

const DRILL_TITLES: Record<string, string> = {
  'pull_requests.ai_assisted_pr_share': 'AI-assisted PR share', 'pull_requests.pr_cycle_time_p50_seconds': 'PR cycle time p50',
  'ai_sessions.ai_active_users': 'AI active users', 'ai_sessions.ai_sessions': 'AI sessions', 'seats.ai_seat_holders': 'Seat holders',
  'ai_commits.ai_commits': 'AI commits', 'seats.idle_seats': 'Idle seats',
  'ai_activity.ai_added_line_share': 'AI-added line share', 'ai_activity.tokens_per_merged_pr': 'Tokens per merged PR',
  'ai_activity.edit_acceptance_rate': 'Edit acceptance rate',
};
const column = drillColumn(DRILL_TITLES);

const COLUMNS = [
  teamNameColumn,
  column('share', 'pull_requests.ai_assisted_pr_share', ratioCell('pull_requests.ai_assisted_pr_share', 'no PR merged')),
  column('cycle', 'pull_requests.pr_cycle_time_p50_seconds', medianCell('pull_requests.pr_cycle_time_p50_seconds', 'pull_requests.prs_merged', 'no PR merged')),
  column('users', 'ai_sessions.ai_active_users', countCell('ai_sessions.ai_active_users', null), true),
  column('sessions', 'ai_sessions.ai_sessions', countCell('ai_sessions.ai_sessions', null), true),
  column('seats', 'seats.ai_seat_holders', countCell('seats.ai_seat_holders', 'none')),
  column('idle', 'seats.idle_seats', countCell('seats.idle_seats', 'none')),
  column('lines', 'ai_activity.ai_added_line_share', ratioCell('ai_activity.ai_added_line_share', 'no merged PR added a line')),
  column('tokens', 'ai_activity.tokens_per_merged_pr', countCell('ai_activity.tokens_per_merged_pr', 'no PR merged')),
  column('acceptance', 'ai_activity.edit_acceptance_rate', ratioCell('ai_activity.edit_acceptance_rate', 'no edit offered')),
];

export function AiPage() {
  usePageTitle('AI adoption');
  const scope = useScope();
  const trend = useQuery(cubeQuery(factQuery(FACTS, scope, scope, { byMonth: true })));
  const teams = useQuery(cubeQuery(TEAMS_QUERY));
  const byTeam = useQuery(cubeQuery(teamWindow(scope, TEAM_FACTS)));
  // The organisation's row is the cube's total, not a sum: it covers projects no team owns and people on no team.
  const total = useQuery({ ...cubeQuery({ ...teamWindow(scope, TEAM_FACTS), dimensions: [] }), enabled: scope.team === undefined });
  return (
    <>
      <DrillPanel scope={scope} titles={DRILL_TITLES} />
      <h1>AI adoption</h1>
      <p><Link to="/ai/sessions" search={keepScope}>The sessions</Link>, each with its summary and quality assessment.</p>
      <Panel id="ai-trend" title="By month" query={trend} height={400}>
        {() => <MonthlyCharts rows={trend.data!.data} times={FACTS.map((f) => f.time as string)} series={SERIES} scope={scope} drill />}
      </Panel>
      <Panel id="ai-teams" title="Adoption against PR cycle time, per team" query={scope.team === undefined ? allOf(teams, byTeam, total) : allOf(teams, byTeam)}>
        {() => {
          const rows = withTeamRows(teams.data!.data, byTeam.data!.data, scope.team);
          if (rows.length === 0) return <Empty reason={NO_TEAMS} />;
          const footer = scope.team === undefined ? [{ team: ORGANISATION, row: total.data!.data[0] }] : [];
          const points = rows.flatMap((r) => {
            const x = num(r.row, 'pull_requests.ai_assisted_pr_share');
            const y = num(r.row, 'pull_requests.pr_cycle_time_p50_seconds');
            return x === null || y === null ? [] : [{ label: r.team.name, x, y }];
          });
          return (
            <>
              <ScatterPlot title="AI-assisted PR share (x) against PR cycle time p50 (y), one dot per team" points={points} formatX={formatRatio} formatY={formatSeconds} xName="AI-assisted PR share" yName="PR cycle time p50" emptyText="No team merged a pull request in the window." />
              <DataTable caption="AI adoption and PR cycle time by team for the window" columns={COLUMNS} rows={rows} rowKey={(r) => r.team.id} initialSort={{ key: 'team', desc: false }} footer={footer} />
              {footer.length > 0 && (
                <p className="muted" data-testid="ai-teams-total-note">
                  The organisation row is over every project and person: the teams' rows{rows.some((r) => r.team.noTeam) ? ' plus “No team”, the projects no team owns and the people on no team' : ''}. A person on two teams counts in both.
                </p>
              )}
            </>
          );
        }}
      </Panel>
    </>
  );
}
