import type { ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { cubeQuery, num, type CubeRow } from '../api/cube';
import { TEAMS_QUERY } from '../api/queries/common';
import { orgWindow, teamWindow } from '../api/queries/teams';
import { DataTable, type Column } from '../components/DataTable';
import { DrillLink, DrillPanel } from '../components/Drill';
import { Median } from '../components/Median';
import { allOf, Empty, Panel } from '../components/states';
import { changeWords, teamsMedian, type Direction } from '../lib/compare';
import { NO_TEAMS } from '../lib/emptyReasons';
import { formatCount, formatDay, formatRatio, formatScore, formatSeconds } from '../lib/format';
import { useScope, type TableSort } from '../lib/scope';
import { deployRate, medianProjectRate } from '../lib/deployRate';
import { Band } from '../components/DoraBand';
import { doraRating, TIERS, type DoraRating } from '../../../src/shared/doraBands';
import { ORGANISATION, withTeamRows, type TeamRow } from '../lib/teamRows';
import { dateRange, previousWindow } from '../lib/window';
import { usePageTitle } from '../lib/usePageTitle';

const muted = (text: string) => <span className="muted">{text}</span>;

/**
 * One measure of the table: its cell, the value it sorts and compares on, how a value reads in the
 * comparison lines, which way is better, and the measure whose facts the number opens.
 */
interface Measure {
  key: string;
  header: string;
  /** The value sorted on and compared (the previous window, the teams' median). */
  member: string;
  /** The members the teams' median is taken of, to read with `show` (default: `member`). */
  members?: string[];
  show: (row: CubeRow | undefined) => string | null;
  direction: Direction;
  /** The measure whose facts the number opens (headcount: the current members); null: none. */
  drill: string | null;
  /**
   * A count whose missing value is a measured 0 for this row (nothing merged, closed or deployed in
   * the window: "0", not a word), unless the row has no data to count from (no deployment source).
   */
  zero?: (row: CubeRow | undefined) => boolean;
  /** A row whose number opens nothing (a withheld experience score: the survey anonymity rules). */
  opens?: (row: CubeRow | undefined) => boolean;
  cell: (r: TeamRow) => ReactNode;
  /** The DORA band shown under the number (the scope's rating, src/shared/doraBands.ts). */
  band?: Exclude<keyof DoraRating, 'overall' | 'measured'>;
}

/** A row's DORA rating: a team's by its own values, the organisation's frequency by its median project. */
const ratingOf = (r: TeamRow): DoraRating | null => (r.team.noTeam ? null : doraRating((member) => num(r.row, member), r.team.id === ORGANISATION.id));

const value = (member: string, format: (v: number) => string) => (row: CubeRow | undefined) => {
  const v = num(row, member);
  return v === null ? null : format(v);
};
/** A measure's value in a row: the cube's, or 0 for a count with nothing in the window (issue 46 point 5: 0 is shown as 0). */
const valueOf = (m: Pick<Measure, 'member' | 'zero'>, row: CubeRow | undefined) => num(row, m.member) ?? (m.zero?.(row) ? 0 : null);
const always = () => true;
const countOf = (member: string, empty: string, zero: (row: CubeRow | undefined) => boolean = always) => (r: TeamRow) => {
  const v = valueOf({ member, zero }, r.row);
  return v === null ? muted(empty) : formatCount(v);
};
const medianOf = (member: string, n: string, empty: string) => (r: TeamRow) => (num(r.row, member) === null ? muted(empty) : <Median seconds={num(r.row, member)} n={num(r.row, n)} />);

function measures(windowStart: string): Measure[] {
  const rate = (row: CubeRow | undefined) => deployRate(row, windowStart).rate;
  // A scope with a deployment source has a rate (0 per week when nothing deployed); without one its count is no data.
  const deploySource = (row: CubeRow | undefined) => num(row, 'deployments.production_deploys_per_day') !== null;
  return [
    { key: 'headcount', header: 'Headcount', member: 'memberships.headcount', show: value('memberships.headcount', formatCount), direction: null, drill: 'memberships.headcount', zero: always, cell: countOf('memberships.headcount', 'no members') },
    { key: 'prs', header: 'PRs merged', member: 'pull_requests.prs_merged', show: value('pull_requests.prs_merged', formatCount), direction: 'higher', drill: 'pull_requests.prs_merged', zero: always, cell: countOf('pull_requests.prs_merged', 'none merged') },
    { key: 'cycle', header: 'PR cycle time p50', member: 'pull_requests.pr_cycle_time_p50_seconds', show: value('pull_requests.pr_cycle_time_p50_seconds', formatSeconds), direction: 'lower', drill: 'pull_requests.pr_cycle_time_p50_seconds', cell: medianOf('pull_requests.pr_cycle_time_p50_seconds', 'pull_requests.prs_merged', 'no PR merged') },
    { key: 'issues', header: 'Issues closed (incidents included)', member: 'issues.issues_closed', show: value('issues.issues_closed', formatCount), direction: 'higher', drill: 'issues.issues_closed', zero: always, cell: countOf('issues.issues_closed', 'none closed') },
    { key: 'issue-lead', header: 'Issue lead time p50', member: 'issues.issue_lead_time_p50_seconds', show: value('issues.issue_lead_time_p50_seconds', formatSeconds), direction: 'lower', drill: 'issues.issue_lead_time_p50_seconds', cell: medianOf('issues.issue_lead_time_p50_seconds', 'issues.issues_closed', 'no issue closed') },
    {
      key: 'lead-time', header: 'Lead time for changes p50', member: 'change_lead_times.lead_time_for_changes_p50_seconds', show: value('change_lead_times.lead_time_for_changes_p50_seconds', formatSeconds), direction: 'lower',
      drill: 'change_lead_times.lead_time_for_changes_p50_seconds', band: 'leadTime', cell: medianOf('change_lead_times.lead_time_for_changes_p50_seconds', 'change_lead_times.deployed_changes', 'no deployed change'),
    },
    { key: 'deploys', header: 'Production deploys', member: 'deployments.production_deploys', show: value('deployments.production_deploys', formatCount), direction: 'higher', drill: 'deployments.production_deploys', zero: deploySource, cell: countOf('deployments.production_deploys', 'no deployment source', deploySource) },
    {
      key: 'frequency', header: 'Deployment frequency', member: 'deployments.production_deploys_per_day', members: ['deployments.production_deploys_per_day', 'deployments.production_deploys_per_week'],
      show: rate, direction: 'higher', drill: 'deployments.production_deploys_per_day', band: 'deploymentFrequency',
      cell: (r) => {
        const d = deployRate(r.row, windowStart);
        if (d.rate === null) return muted('no deployment source');
        return <>{d.rate}{d.since && <span className="n"> · {d.since}</span>}</>;
      },
    },
    {
      key: 'cfr', header: 'Change failure rate', member: 'deployments.change_failure_rate', show: value('deployments.change_failure_rate', formatRatio), direction: 'lower', drill: 'deployments.change_failure_rate', band: 'changeFailureRate',
      cell: (r) => (num(r.row, 'deployments.change_failure_rate') === null ? muted('no finished production deployment') : <>{formatRatio(num(r.row, 'deployments.change_failure_rate') as number)}<span className="n"> · n = {num(r.row, 'deployments.finished_production_deploys')}</span></>),
    },
    {
      key: 'recovery', header: 'Failed deployment recovery p50', member: 'deployments.failed_deployment_recovery_time_p50_seconds', show: value('deployments.failed_deployment_recovery_time_p50_seconds', formatSeconds), direction: 'lower',
      drill: 'deployments.failed_deployment_recovery_time_p50_seconds', band: 'recoveryTime', cell: medianOf('deployments.failed_deployment_recovery_time_p50_seconds', 'deployments.recovered_deploys', 'no failure recovered'),
    },
    { key: 'mttr', header: 'Time to restore p50', member: 'incidents.mttr_p50_seconds', show: value('incidents.mttr_p50_seconds', formatSeconds), direction: 'lower', drill: 'incidents.mttr_p50_seconds', band: 'timeToRestore', cell: medianOf('incidents.mttr_p50_seconds', 'incidents.incidents_restored', 'no incident closed') },
    // More AI use is not better or worse in itself: the change is named up or down only.
    { key: 'ai-share', header: 'AI-assisted PR share', member: 'pull_requests.ai_assisted_pr_share', show: value('pull_requests.ai_assisted_pr_share', formatRatio), direction: null, drill: 'pull_requests.ai_assisted_pr_share', cell: (r) => (num(r.row, 'pull_requests.ai_assisted_pr_share') === null ? muted('no PR merged') : formatRatio(num(r.row, 'pull_requests.ai_assisted_pr_share') as number)) },
    { key: 'ai-users', header: 'AI active users', member: 'ai_sessions.ai_active_users', show: value('ai_sessions.ai_active_users', formatCount), direction: null, drill: 'ai_sessions.ai_active_users', zero: always, cell: countOf('ai_sessions.ai_active_users', 'none') },
    {
      // The score is the answers': its number opens the survey counts it is over (its n), never an
      // answer; a withheld score (fewer than 3 responses) opens nothing.
      key: 'score', header: 'Experience score', member: 'survey_responses.team_experience_score', show: value('survey_responses.team_experience_score', formatScore), direction: 'higher', drill: 'survey_responses.responses',
      opens: (row) => num(row, 'survey_responses.team_experience_score') !== null,
      cell: (r) => {
        const v = num(r.row, 'survey_responses.team_experience_score');
        if (v !== null) return <>{formatScore(v)}<span className="n"> · n = {num(r.row, 'survey_responses.responses')}</span></>;
        return muted((num(r.row, 'survey_responses.responses') ?? 0) > 0 ? 'fewer than 3 responses' : 'no survey response');
      },
    },
  ];
}

const DRILL_TITLES: Record<string, string> = {
  'memberships.headcount': 'Headcount', 'pull_requests.prs_merged': 'PRs merged', 'pull_requests.pr_cycle_time_p50_seconds': 'PR cycle time p50', 'issues.issues_closed': 'Issues closed (incidents included)',
  'issues.issue_lead_time_p50_seconds': 'Issue lead time p50', 'deployments.production_deploys': 'Production deploys',
  'change_lead_times.lead_time_for_changes_p50_seconds': 'Lead time for changes p50', 'deployments.failed_deployment_recovery_time_p50_seconds': 'Failed deployment recovery p50', 'deployments.production_deploys_per_day': 'Deployment frequency',
  'deployments.change_failure_rate': 'Change failure rate', 'incidents.mttr_p50_seconds': 'Time to restore p50', 'pull_requests.ai_assisted_pr_share': 'AI-assisted PR share',
  'ai_sessions.ai_active_users': 'AI active users', 'survey_responses.responses': 'Survey responses (the experience score\'s n)',
};

export function TeamsPage() {
  usePageTitle('Teams');
  const scope = useScope();
  const navigate = useNavigate();
  const teams = useQuery(cubeQuery(TEAMS_QUERY));
  // Every fact of every team in one query, and the same without the team dimension.
  const metrics = useQuery(cubeQuery(teamWindow(scope)));
  // The organisation's row is the cube's total, not a sum: it covers projects no team owns too.
  const totals = useQuery(cubeQuery(orgWindow(scope)));
  // The window of equal length just before, every team in one query (the comparison lines).
  const previous = previousWindow(scope);
  const before = useQuery(cubeQuery(teamWindow({ ...scope, ...previous })));
  const [windowStart] = dateRange(scope);
  const [previousStart, previousEnd] = dateRange(previous);
  // A days window goes along as days (the team's page then counts the same days), else as months.
  const keep = scope.days ? { days: scope.days } : { from: scope.from, to: scope.to };
  const { sort, dir } = useSearch({ strict: false }) as TableSort;
  // Replaces the entry: Back leaves the page rather than stepping through its sorts.
  const sortBy = (s: { key: string; desc: boolean }) =>
    void navigate({ to: '.', search: ((prev: Record<string, unknown>) => ({ ...prev, sort: s.key, dir: s.desc ? 'desc' : 'asc' })) as never, replace: true });

  const table = (rows: TeamRow[], beforeRows: CubeRow[]) => {
    const previousOf = new Map(beforeRows.map((r) => [String(r['teams.id']), r]));
    const list = measures(windowStart);
    // The teams' median of each measure (the register's teams with a value; not "No team").
    const teamRows = rows.filter((r) => !r.team.noTeam);
    const medianRow: CubeRow = {};
    // A team's count of nothing in the window is its 0, and counts in the median like any other.
    for (const m of list) for (const member of m.members ?? [m.member]) medianRow[member] = teamsMedian(teamRows.map((r) => (member === m.member ? valueOf(m, r.row) : num(r.row, member))));
    const previousShow = (m: Measure, row: CubeRow | undefined) => {
      if (m.key === 'frequency') return deployRate(row, previousStart).rate;
      const v = valueOf(m, row);
      return v === null ? null : m.show({ [m.member]: v });
    };

    const column = (m: Measure): Column<TeamRow> => ({
      key: m.key, header: m.header, numeric: true, sortValue: (r) => valueOf(m, r.row),
      cell: (r) => {
        const org = r.team.id === ORGANISATION.id;
        const v = valueOf(m, r.row);
        const main = m.cell(r);
        const opens = m.drill !== null && !r.team.noTeam && v !== null && (m.opens?.(r.row) ?? true);
        const linked = opens ? (
          <DrillLink measure={m.drill!} title={m.header} team={org ? undefined : { id: r.team.id, name: r.team.name }}>{main}</DrillLink>
        ) : main;
        const tier = m.band ? (ratingOf(r)?.[m.band] ?? null) : null;
        const shown = <>{linked}{tier && <span className="cmp"><Band tier={tier} testId={`band-${m.key}-${r.team.slug || r.team.id}`} /></span>}</>;
        // The organisation's frequency is banded from its median project: said under its total rate.
        const median = org && m.key === 'frequency' ? medianProjectRate(r.row) : null;
        const teamsMedian = m.show(medianRow);
        const medianLine = <span className="cmp" data-testid={`median-${m.key}`}>teams' median {teamsMedian ?? 'none'}</span>;
        if (org) {
          return (
            <>
              {shown}
              {median?.rate && <span className="cmp" data-testid="org-median-project-rate">median project {median.rate} · n = {median.projects}</span>}
              {medianLine}
            </>
          );
        }
        const prevRow = previousOf.get(r.team.noTeam ? 'null' : r.team.id);
        const prev = previousShow(m, prevRow);
        const words = changeWords(v, valueOf(m, prevRow), m.direction, (x) => String(m.key === 'frequency' ? deployRate({ ...prevRow, [m.member]: x }, previousStart).rate : m.show({ [m.member]: x })));
        const above = v === null || medianRow[m.member] === null || v === medianRow[m.member] ? null : v > (medianRow[m.member] as number) ? 'above' : 'below';
        return (
          <>
            {shown}
            {/* Memberships have no history (docs/register.md): headcount has no "before". */}
            {m.key !== 'headcount' && <span className="cmp" data-testid={`previous-${m.key}-${r.team.slug || r.team.id}`}>before {prev ?? 'none'}{words && <> · <span className={`change ${words.split(', ')[1] ?? ''}`}>{words}</span></>}</span>}
            {!r.team.noTeam && <span className="cmp" data-testid={`vs-median-${m.key}-${r.team.slug}`}>{above ? `${above} the teams' median ${teamsMedian}` : teamsMedian === null || v === null ? `teams' median ${teamsMedian ?? 'none'}` : "at the teams' median"}</span>}
          </>
        );
      },
    });
    const columns: Column<TeamRow>[] = [
      {
        key: 'name', header: 'Team', sortValue: (r) => r.team.name.toLowerCase(),
        cell: (r) => (r.team.id === ORGANISATION.id ? r.team.name : r.team.noTeam ? <span title="Projects no team owns">{r.team.name}</span> : <Link to="/teams/$teamId" params={{ teamId: r.team.id }} search={keep as never}>{r.team.name}</Link>),
      },
      {
        // The overall band: the lowest of DORA's four keys that have a value (src/shared/doraBands.ts).
        key: 'dora', header: 'DORA band', sortValue: (r) => { const o = ratingOf(r)?.overall; return o ? TIERS.indexOf(o) : null; },
        cell: (r) => {
          const rating = ratingOf(r);
          if (!rating) return muted('not rated');
          if (!rating.overall) return muted('no DORA measure');
          return <><Band tier={rating.overall} prefix="" testId={`band-overall-${r.team.slug || r.team.id}`} /><span className="cmp">over {rating.measured} of 4 measures</span></>;
        },
      },
      ...list.map(column),
    ];
    return { columns, medianRow };
  };

  return (
    <>
      <DrillPanel scope={scope} titles={DRILL_TITLES} />
      <h1>Teams</h1>
      <Panel id="teams-table" title="Enabled teams, measures for the window" query={allOf(teams, metrics, totals, before)} height={300}>
        {() => {
          const rows = withTeamRows(teams.data!.data, metrics.data!.data);
          if (rows.length === 0) return <Empty reason={NO_TEAMS} />;
          const { columns } = table(rows, before.data!.data);
          return (
            <>
            <p className="muted" data-testid="teams-compare-note">
              Under each number: the previous window of equal length ({formatDay(previousStart)} to {formatDay(previousEnd)}), the change named better or worse where the measure has a direction (AI use and headcount have none), and where the team stands against the teams' median (the median of the teams that have a value). Select a number to list the facts it was computed from.
            </p>
            <DataTable
              caption="One row per enabled team; select a team to open it. Sort by any column."
              columns={columns}
              rows={rows}
              rowKey={(r) => r.team.id}
              initialSort={{ key: 'name', desc: false }}
              sort={sort ? { key: sort, desc: dir === undefined ? undefined : dir === 'desc' } : undefined}
              onSortChange={sortBy}
              onRowOpen={(r) => { if (!r.team.noTeam) void navigate({ to: '/teams/$teamId', params: { teamId: r.team.id }, search: keep as never }); }}
              footer={[{ team: ORGANISATION, row: totals.data!.data[0] }]}
            />
            <p className="muted" data-testid="teams-total-note">
              The organisation row is over every project: the teams' rows{rows.some((r) => r.team.noTeam) ? ' plus “No team”, the projects no team owns' : ''}. A person on two teams counts in both; the organisation's headcount counts them once.
            </p>
            <p className="muted" data-testid="teams-dora-note">
              DORA bands (DORA 2023): each measure's band under its number; a team's overall band is the lowest of deployment frequency, lead time for changes, change failure rate and failed deployment recovery time that have a value (time to restore is banded, not counted twice). A team's deployment frequency is rated from its own rate; the organisation's from its median project's rate, not the total, which grows with the number of repositories.
            </p>
            </>
          );
        }}
      </Panel>
    </>
  );
}
