import { useQuery } from '@tanstack/react-query';
import { cubeQuery, num, teamFilter, type CubeRow } from '../api/cube';
import { TEAMS_QUERY } from '../api/queries/common';
import { DataTable, type Column } from '../components/DataTable';
import { MonthlyCharts, type Series } from '../components/MonthlyCharts';
import { allOf, Empty, Panel } from '../components/states';
import { FEWER_THAN_3 } from '../lib/emptyReasons';
import { formatCount, formatMonth, formatRatio, formatScore } from '../lib/format';
import { useScope } from '../lib/scope';
import { usePageTitle } from '../lib/usePageTitle';
import { dateRange } from '../lib/window';

const MEASURES = ['survey_responses.survey_response_rate', 'survey_responses.team_experience_score', 'survey_responses.responses', 'survey_responses.invitations'];
const SERIES: Series[] = [
  { id: 'survey-rate', title: 'Response rate', value: 'survey_responses.survey_response_rate', n: 'survey_responses.invitations', subject: 'surveys', format: formatRatio },
  { id: 'survey-score', title: 'Experience score (0–100)', value: 'survey_responses.team_experience_score', n: 'survey_responses.responses', subject: 'surveyScore', format: formatScore },
];

type Row = CubeRow & { teamName: string };

/** The score cell: a value, or why there is none; below 3 responses the rule is named, never a zero. */
function scoreCell(r: CubeRow) {
  const v = num(r, 'survey_responses.team_experience_score');
  if (v !== null) return formatScore(v);
  const responses = num(r, 'survey_responses.responses') ?? 0;
  return <span className="muted" data-testid="fewer-than-3">{responses > 0 ? FEWER_THAN_3 : 'No response yet.'}</span>;
}

const COLUMNS: Column<Row>[] = [
  { key: 'team', header: 'Team', sortValue: (r) => r.teamName.toLowerCase(), cell: (r) => r.teamName },
  { key: 'month', header: 'Month', sortValue: (r) => String(r['survey_responses.month.month']), cell: (r) => formatMonth(String(r['survey_responses.month.month'])) },
  { key: 'rate', header: 'Response rate', numeric: true, sortValue: (r) => num(r, 'survey_responses.survey_response_rate'), cell: (r) => (num(r, 'survey_responses.survey_response_rate') === null ? <span className="muted">no invitation</span> : formatRatio(num(r, 'survey_responses.survey_response_rate') as number)) },
  { key: 'responses', header: 'Responses', numeric: true, sortValue: (r) => num(r, 'survey_responses.responses'), cell: (r) => formatCount(num(r, 'survey_responses.responses') ?? 0) },
  { key: 'score', header: 'Experience score', numeric: true, sortValue: (r) => num(r, 'survey_responses.team_experience_score'), cell: scoreCell },
];

export function SurveysPage() {
  usePageTitle('Perception');
  const scope = useScope();
  const time = { dimension: 'survey_responses.month', granularity: 'month' as const, dateRange: dateRange(scope) };
  const trend = useQuery(cubeQuery({ measures: MEASURES, timeDimensions: [time], filters: teamFilter(scope.team) }));
  const byTeam = useQuery(cubeQuery({ measures: MEASURES, dimensions: ['teams.id'], timeDimensions: [time], filters: teamFilter(scope.team), limit: 10_000 }));
  const teams = useQuery(cubeQuery(TEAMS_QUERY));
  return (
    <>
      <h1>Perception</h1>
      <p className="muted">Experience scores are shown only from 3 responses of a team in a month, so that answers stay anonymous.</p>
      <Panel id="survey-trend" title="By month" query={trend} height={240}>
        {() => <MonthlyCharts rows={trend.data!.data} times={['survey_responses.month']} series={SERIES} scope={scope} />}
      </Panel>
      <Panel id="survey-teams" title="By team and month" query={allOf(teams, byTeam)}>
        {() => {
          const names = new Map(teams.data!.data.map((t) => [String(t['teams.id']), String(t['teams.name'])]));
          const rows: Row[] = byTeam.data!.data.filter((r) => names.has(String(r['teams.id']))).map((r) => ({ ...r, teamName: names.get(String(r['teams.id'])) as string }));
          if (rows.length === 0) return <Empty reason={{ text: 'No survey was open in the window.', fix: { label: 'How surveys work', href: '/app/help#surveys' } }} />;
          return <DataTable caption="Survey response rate and experience score by team and month" columns={COLUMNS} rows={rows} rowKey={(r) => `${r['teams.id']}|${r['survey_responses.month.month']}`} initialSort={{ key: 'team', desc: false }} />;
        }}
      </Panel>
    </>
  );
}
