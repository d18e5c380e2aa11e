import type { ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useParams } from '@tanstack/react-router';
import type { BaselineColumn, BaselineMonth as MetricRow } from '../api/contract';
import { apiQuery, cubeQuery, num, teamFilter } from '../api/cube';
import { factQuery, type Fact } from '../api/queries/common';
import { MonthlyCharts, type Series } from '../components/MonthlyCharts';
import { PHASE_FACT, PHASE_TITLES, PhaseBars } from '../components/charts/PhaseBars';
import { DataTable, type Column } from '../components/DataTable';
import { DrillLink, DrillPanel } from '../components/Drill';
import { Median } from '../components/Median';
import { Empty, ErrorNote, Panel } from '../components/states';
import { emptyReason, FEWER_THAN_3, type Subject } from '../lib/emptyReasons';
import { formatCount, formatMonth, formatRatio, formatScore, formatSeconds } from '../lib/format';
import { useScope } from '../lib/scope';
import { usePageTitle } from '../lib/usePageTitle';
import { dateRange } from '../lib/window';
import { doraTiles } from '../api/queries/dora';
import { Band } from '../components/DoraBand';
import { deployRate } from '../lib/deployRate';
import { doraRating, type DoraRating } from '../../../src/shared/doraBands';
import type { CubeRow } from '../api/cube';

/** The team's DORA measures over the window, each with its band (issue 47), in the order of the Overview. */
const DORA_ROWS: { key: Exclude<keyof DoraRating, 'overall' | 'measured'>; title: string; member: string; n?: string; kind: 'rate' | 'seconds' | 'ratio'; empty: string }[] = [
  { key: 'deploymentFrequency', title: 'Deployment frequency', member: 'deployments.production_deploys_per_day', kind: 'rate', empty: 'no deployment source in the window' },
  { key: 'leadTime', title: 'Lead time for changes', member: 'change_lead_times.lead_time_for_changes_p50_seconds', n: 'change_lead_times.deployed_changes', kind: 'seconds', empty: 'no deployed change' },
  { key: 'changeFailureRate', title: 'Change failure rate', member: 'deployments.change_failure_rate', n: 'deployments.finished_production_deploys', kind: 'ratio', empty: 'no finished production deployment' },
  { key: 'recoveryTime', title: 'Failed deployment recovery time', member: 'deployments.failed_deployment_recovery_time_p50_seconds', n: 'deployments.recovered_deploys', kind: 'seconds', empty: 'no failure recovered' },
  { key: 'timeToRestore', title: 'Time to restore service', member: 'incidents.mttr_p50_seconds', n: 'incidents.incidents_restored', kind: 'seconds', empty: 'no incident closed' },
];

function doraValue(d: (typeof DORA_ROWS)[number], row: CubeRow | undefined, windowStart: string): ReactNode {
  const v = num(row, d.member);
  if (d.kind === 'rate') {
    const r = deployRate(row, windowStart);
    return r.rate === null ? null : <>{r.rate}<span className="n"> · {r.countText}{r.since ? ` · ${r.since}` : ''}</span></>;
  }
  if (v === null) return null;
  if (d.kind === 'seconds') return <Median seconds={v} n={num(row, d.n as string)} />;
  return <>{formatRatio(v)}<span className="n"> · n = {num(row, d.n as string) ?? 0}</span></>;
}


/** The charts read the cube by month for this team, like Overview and Flow (the table below is the export's rows). */
const CHART_FACTS: Fact[] = [
  { time: 'pull_requests.merged_at', measures: ['pull_requests.prs_merged', 'pull_requests.pr_cycle_time_p50_seconds', 'pull_requests.ai_assisted_pr_share'] },
  { time: 'deployments.created_at', measures: ['deployments.production_deploys', 'deployments.change_failure_rate', 'deployments.finished_production_deploys'] },
];
const CHARTS: Series[] = [
  { id: 'team-prs_merged', title: 'PRs merged', value: 'pull_requests.prs_merged', format: formatCount, subject: 'pullRequests' },
  { id: 'team-pr_cycle_time_p50_seconds', title: 'PR cycle time p50', value: 'pull_requests.pr_cycle_time_p50_seconds', n: 'pull_requests.prs_merged', format: formatSeconds, subject: 'pullRequests' },
  { id: 'team-production_deploys', title: 'Production deployments', value: 'deployments.production_deploys', format: formatCount, subject: 'deployments' },
  { id: 'team-change_failure_rate', title: 'Change failure rate', value: 'deployments.change_failure_rate', n: 'deployments.finished_production_deploys', format: formatRatio, subject: 'finishedDeployments' },
  { id: 'team-ai_assisted_pr_share', title: 'AI-assisted PR share', value: 'pull_requests.ai_assisted_pr_share', n: 'pull_requests.prs_merged', format: formatRatio, subject: 'pullRequests' },
];

/** The drill-through panel's title for each measure a cell of the months table opens. */
const DRILL_TITLES: Record<string, string> = {
  'pull_requests.prs_merged': 'PRs merged', 'pull_requests.pr_cycle_time_p50_seconds': 'PR cycle time p50', 'issues.issues_closed': 'Issues closed (incidents included)',
  'issues.issue_lead_time_p50_seconds': 'Issue lead time p50', 'deployments.production_deploys': 'Production deploys', 'deployments.change_failure_rate': 'Change failure rate',
  'incidents.mttr_p50_seconds': 'Time to restore p50', 'pull_requests.ceu_total': 'Change effort (CEU)', 'pull_requests.ai_assisted_pr_share': 'AI-assisted PR share',
};

export function TeamPage() {
  const { teamId } = useParams({ strict: false }) as { teamId: string };
  const scope = useScope();
  const team = useQuery(apiQuery('GET /api/teams/:id', { params: { id: teamId } }));
  const slug = team.data?.data.slug;
  const metrics = useQuery({
    ...apiQuery('GET /api/exports/team-baseline', { query: { format: 'json', team: slug, from: scope.from, to: scope.to } }),
    enabled: slug !== undefined,
  });
  const trend = useQuery(cubeQuery(factQuery(CHART_FACTS, { ...scope, team: teamId }, scope, { byMonth: true })));
  const phases = useQuery(cubeQuery(factQuery([PHASE_FACT], { ...scope, team: teamId }, scope, { byMonth: true })));
  // mttr's n is not an export column: it comes from its cube beside the baseline rows.
  const restored = useQuery(cubeQuery({ measures: ['incidents.incidents_restored'], timeDimensions: [{ dimension: 'incidents.closed_at', granularity: 'month', dateRange: dateRange(scope) }], filters: teamFilter(teamId) }));
  // The team's DORA measures over the window and whether it ever sent a deployment (the Overview's tiles query, for this team).
  const dora = useQuery(cubeQuery(doraTiles({ ...scope, team: teamId })));
  usePageTitle(team.data ? `Team ${team.data.data.name}` : 'Team');

  if (team.isError) {
    return (
      <>
        <h1>Team</h1>
        <ErrorNote error={team.error} onRetry={() => void team.refetch()} />
      </>
    );
  }
  const t = team.data?.data;
  // A row's month is always `YYYY-MM` (BaselineMonth); the export's row type allows any cell.
  const rows = (metrics.data?.rows ?? []) as MetricRow[];
  const first = rows[0];
  const restoredBy = new Map((restored.data?.data ?? []).map((r) => [String(r['incidents.closed_at.month']).slice(0, 7), num(r, 'incidents.incidents_restored')]));
  const csv = slug ? `/api/exports/team-baseline?${new URLSearchParams({ from: scope.from, to: scope.to, format: 'csv', team: slug })}` : undefined;

  const m = (r: MetricRow, k: BaselineColumn) => { const v = r[k]; return typeof v === 'number' ? v : null; };
  // Each number opens the facts it was computed from, for its month and this team.
  const drill = (measure: string, title: string, r: MetricRow, content: ReactNode) => (
    <DrillLink measure={measure} title={title} month={r.month}>
      {content}
    </DrillLink>
  );
  const columns: Column<MetricRow>[] = [
    { key: 'month', header: 'Month', sortValue: (r) => r.month, cell: (r) => formatMonth(r.month) },
    { key: 'prs', header: 'PRs merged', numeric: true, cell: (r) => drill('pull_requests.prs_merged', 'PRs merged', r, formatCount(m(r, 'prs_merged') ?? 0)) },
    { key: 'cycle', header: 'PR cycle time p50', numeric: true, cell: (r) => (m(r, 'pr_cycle_time_p50_seconds') === null ? <span className="muted">no PR merged</span> : drill('pull_requests.pr_cycle_time_p50_seconds', 'PR cycle time p50', r, <Median seconds={m(r, 'pr_cycle_time_p50_seconds')} n={m(r, 'prs_merged')} />)) },
    { key: 'issues', header: 'Issues closed (incidents included)', numeric: true, cell: (r) => drill('issues.issues_closed', 'Issues closed (incidents included)', r, formatCount(m(r, 'issues_closed') ?? 0)) },
    { key: 'lead', header: 'Issue lead time p50', numeric: true, cell: (r) => (m(r, 'issue_lead_time_p50_seconds') === null ? <span className="muted">no issue closed</span> : drill('issues.issue_lead_time_p50_seconds', 'Issue lead time p50', r, <Median seconds={m(r, 'issue_lead_time_p50_seconds')} n={m(r, 'issues_closed')} />)) },
    { key: 'deploys', header: 'Production deploys', numeric: true, cell: (r) => drill('deployments.production_deploys', 'Production deploys', r, formatCount(m(r, 'production_deploys') ?? 0)) },
    { key: 'cfr', header: 'Change failure rate', numeric: true, cell: (r) => (m(r, 'change_failure_rate') === null ? <span className="muted">{emptyReason('finishedDeployments', { month: r.month }).text}</span> : drill('deployments.change_failure_rate', 'Change failure rate', r, formatRatio(m(r, 'change_failure_rate') as number))) },
    { key: 'mttr', header: 'Time to restore p50', numeric: true, cell: (r) => (m(r, 'mttr_p50_seconds') === null ? <span className="muted">no incident closed</span> : drill('incidents.mttr_p50_seconds', 'Time to restore p50', r, <Median seconds={m(r, 'mttr_p50_seconds')} n={restoredBy.get(r.month) ?? null} />)) },
    { key: 'ceu', header: 'Change effort (CEU)', numeric: true, cell: (r) => drill('pull_requests.ceu_total', 'Change effort (CEU)', r, formatCount(m(r, 'ceu_total') ?? 0)) },
    { key: 'ai', header: 'AI-assisted PR share', numeric: true, cell: (r) => (m(r, 'ai_assisted_pr_share') === null ? <span className="muted">no PR merged</span> : drill('pull_requests.ai_assisted_pr_share', 'AI-assisted PR share', r, formatRatio(m(r, 'ai_assisted_pr_share') as number))) },
    { key: 'ai-users', header: 'AI active users', numeric: true, cell: (r) => formatCount(m(r, 'ai_active_users') ?? 0) },
    { key: 'rate', header: 'Survey response rate', numeric: true, cell: (r) => (m(r, 'survey_response_rate') === null ? <span className="muted">no survey invitation</span> : formatRatio(m(r, 'survey_response_rate') as number)) },
    { key: 'score', header: 'Experience score', numeric: true, cell: (r) => (m(r, 'team_experience_score') !== null ? formatScore(m(r, 'team_experience_score') as number) : <span className="muted">{m(r, 'survey_response_rate') !== null && (m(r, 'survey_response_rate') as number) > 0 ? FEWER_THAN_3 : 'no survey response'}</span>) },
  ];

  return (
    <>
      <DrillPanel scope={{ ...scope, team: teamId }} titles={DRILL_TITLES} />
      <h1>{t ? `Team ${t.name}` : 'Team'}</h1>
      {t && (
        <section className="panel" aria-labelledby="team-facts">
          <h2 id="team-facts">About the team</h2>
          <dl className="facts">
            <dt>Slug</dt>
            <dd>{t.slug}</dd>
            <dt>Projects</dt>
            <dd data-testid="team-projects">{t.projects.length === 0 ? <span className="muted">No project owned: webhook and code-host data count for a team once it owns the project.</span> : t.projects.join(', ')}</dd>
            <dt>Headcount</dt>
            <dd data-testid="team-headcount">
              {first ? (
                <>
                  {formatCount(Number(first.headcount))} ({formatCount(Number(first.internal_headcount))} internal, {formatCount(Number(first.external_headcount))} external
                  {first.headcount_by_supplier && Object.keys(first.headcount_by_supplier as object).length > 0
                    ? `: ${Object.entries(first.headcount_by_supplier as Record<string, number>).map(([s, n]) => `${s} ${n}`).join(', ')}`
                    : ''}
                  )
                </>
              ) : (
                '…'
              )}
            </dd>
          </dl>
          {csv && (
            <p>
              <a href={csv} download data-testid="team-csv">
                Download this team's baseline (CSV)
              </a>
            </p>
          )}
        </section>
      )}
      <Panel id="team-phases" title="PR cycle in phases" query={phases} height={300}>
        {() => <PhaseBars id="team-phase-bars" rows={phases.data!.data} scope={{ ...scope, team: teamId }} />}
      </Panel>
      <Panel id="team-dora" title="DORA measures of the window" query={dora} height={160}>
        {() => {
          const row = dora.data!.data[0];
          const [windowStart] = dateRange(scope);
          const rating = doraRating((member) => num(row, member), false);
          return (
            <>
              <p data-testid="team-dora-overall">
                Overall DORA band: {rating.overall ? <Band tier={rating.overall} prefix="" testId="team-dora-overall-tier" /> : <span className="muted">none (no DORA measure has a value)</span>}
                {rating.overall && <span className="muted"> · the lowest of the {rating.measured} of 4 DORA 2023 measures with a value (time to restore is banded, not counted)</span>}
              </p>
              <div className="table-wrap">
              <table data-testid="team-dora">
                <caption>The team's DORA measures over the window, each with its DORA 2023 band; select a number to list its facts.</caption>
                <thead><tr><th scope="col">Measure</th><th scope="col" className="num">Value</th><th scope="col">Band</th></tr></thead>
                <tbody>
                  {DORA_ROWS.map((d) => {
                    const shown = doraValue(d, row, windowStart);
                    return (
                      <tr key={d.key} data-testid={`team-dora-${d.key}`}>
                        <th scope="row">{d.title}</th>
                        <td className="num">{shown === null ? <span className="muted">{d.empty}</span> : <DrillLink measure={d.member} title={d.title}>{shown}</DrillLink>}</td>
                        <td>{rating[d.key] ? <Band tier={rating[d.key]} prefix="" /> : <span className="muted">—</span>}</td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
              </div>
            </>
          );
        }}
      </Panel>
      <Panel id="team-months" title="Months of the window" query={{ ...metrics, isPending: metrics.isPending || team.isPending }} height={300}>
        {() =>
          rows.length === 0 ? (
            <Empty reason={{ text: 'This team is not enabled in the register, so it has no baseline rows.' }} />
          ) : (
            <>
              {trend.isError ? <ErrorNote error={trend.error} onRetry={() => void trend.refetch()} /> : trend.data ? (
                <MonthlyCharts rows={trend.data.data} times={CHART_FACTS.map((f) => f.time as string)} series={CHARTS} scope={{ ...scope, team: teamId }} drill />
              ) : (
                <div className="skeleton" role="status" style={{ minHeight: 220 }} aria-busy="true" aria-label="Loading the monthly trend" />
              )}
              <DataTable caption="The team's baseline rows, one per month" columns={columns} rows={rows} rowKey={(r) => r.month} />
            </>
          )
        }
      </Panel>
    </>
  );
}
