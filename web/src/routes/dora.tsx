import { useQuery } from '@tanstack/react-query';
import { cubeQuery, num, type CubeRow } from '../api/cube';
import { doraTiles, doraTotals, doraTrend, DORA_TIMES, unownedDeploys } from '../api/queries/dora';
import { MonthlyCharts } from '../components/MonthlyCharts';
import { Median } from '../components/Median';
import { DrillPanel } from '../components/Drill';
import { ErrorNote } from '../components/states';
import { Tile } from '../components/Tile';
import { doraRating, doraTier, isDoraMeasure } from '../../../src/shared/doraBands';
import { deployRate, medianProjectRate } from '../lib/deployRate';
import { Band } from '../components/DoraBand';
import { emptyReason, needsDeploymentSource, type Subject } from '../lib/emptyReasons';
import { formatCount, formatRatio, formatSeconds } from '../lib/format';
import { useScope } from '../lib/scope';
import { usePageTitle } from '../lib/usePageTitle';
import { dateRange, dayCount, previousWindow } from '../lib/window';
import { OssProxy } from './benchmarks/OssProxy';

interface Measure {
  id: string;
  title: string;
  value: string;
  n?: string;
  subject: Subject;
  kind: 'count' | 'ratio' | 'seconds';
  lowerIsBetter: boolean;
}

const MEASURES: Measure[] = [
  { id: 'deployment-frequency', title: 'Deployment frequency', value: 'deployments.production_deploys', subject: 'deployments', kind: 'count', lowerIsBetter: false },
  { id: 'lead-time', title: 'Lead time for changes', value: 'change_lead_times.lead_time_for_changes_p50_seconds', n: 'change_lead_times.deployed_changes', subject: 'leadTime', kind: 'seconds', lowerIsBetter: true },
  { id: 'change-failure-rate', title: 'Change failure rate', value: 'deployments.change_failure_rate', n: 'deployments.finished_production_deploys', subject: 'finishedDeployments', kind: 'ratio', lowerIsBetter: true },
  { id: 'time-to-restore', title: 'Time to restore service', value: 'incidents.mttr_p50_seconds', n: 'incidents.incidents_restored', subject: 'incidents', kind: 'seconds', lowerIsBetter: true },
  { id: 'recovery-time', title: 'Failed deployment recovery time', value: 'deployments.failed_deployment_recovery_time_p50_seconds', n: 'deployments.recovered_deploys', subject: 'recoveries', kind: 'seconds', lowerIsBetter: true },
];

/** The panel's title for each measure a tile opens. */
const DRILL_TITLES: Record<string, string> = Object.fromEntries(MEASURES.map((m) => [m.value, m.title]));

const formatters = { count: formatCount, ratio: formatRatio, seconds: formatSeconds } as const;

function show(m: Measure, row: CubeRow | undefined, windowStart: string): string {
  if (m.id === 'deployment-frequency') {
    const r = deployRate(row, windowStart);
    return [r.rate, r.countText, r.since].filter(Boolean).join(' · ');
  }
  const v = num(row, m.value);
  if (v === null) return 'no value';
  const text = formatters[m.kind](v);
  return m.n ? `${text} · n = ${num(row, m.n) ?? 0}` : text;
}

export function DoraPage() {
  usePageTitle('Overview (DORA)');
  const scope = useScope();
  const prev = previousWindow(scope);
  // The window's values first: the previous window and the trend are asked for once they are in,
  // so that on a large tenant the tiles do not wait behind queries of the same weight (docs/web.md).
  // The window's totals and whether the scope ever sent a deployment, in one request.
  const current = useQuery(cubeQuery(doraTiles(scope)));
  const previous = useQuery({ ...cubeQuery(doraTotals(scope, prev)), enabled: current.data !== undefined });
  const trend = useQuery({ ...cubeQuery(doraTrend(scope)), enabled: current.data !== undefined });
  // Said under the organisation's total: those deployments are in no team's row (docs/web.md).
  const unowned = useQuery({ ...cubeQuery(unownedDeploys(scope)), enabled: !scope.team && current.data !== undefined });
  const hasDeploymentSource = current.data ? (num(current.data.data[0], 'projects.deployment_sources') ?? 0) > 0 : undefined;
  const now = current.data?.data[0];
  const before = previous.data?.data[0];
  const days = dayCount(scope);

  const tierOf = (m: Measure, v: number | null) => (isDoraMeasure(m.value) ? doraTier(m.value, v, days) : null);
  const [windowStart] = dateRange(scope);
  const prevStart = dateRange(prev)[0];
  const rate = deployRate(now, windowStart);
  const unownedCount = scope.team ? null : num(unowned.data?.data[0], 'deployments.production_deploys');
  // The scope's rating (issue 47): a team by its own rate, the organisation by its median project's.
  // Without a deployment source the cube's deployment measures are empty, so they have no band.
  const rating = current.data ? doraRating((member) => num(now, member), !scope.team) : null;
  const median = scope.team ? null : medianProjectRate(now);


  return (
    <>
      <DrillPanel scope={scope} titles={DRILL_TITLES} />
      <h1>Overview: DORA measures</h1>
      {(current.isError || previous.isError) && <ErrorNote error={current.error ?? previous.error} onRetry={() => { void current.refetch(); void previous.refetch(); }} />}
      {rating && (
        <p data-testid="dora-overall">
          Overall DORA band{scope.team ? '' : ' of the organisation'}: {rating.overall ? <Band tier={rating.overall} prefix="" testId="dora-overall-tier" /> : <span className="muted">none (no DORA measure has a value)</span>}
          {rating.overall && <span className="muted"> · the lowest of the {rating.measured} of 4 DORA 2023 measures with a value (deployment frequency, lead time for changes, change failure rate, failed deployment recovery time)</span>}
        </p>
      )}
      <div className="tiles">
        {MEASURES.map((m) => {
          const v = num(now, m.value);
          const loading = !current.data;
          // Without a deployment source every deployment measure is empty, whatever it counts: no made-up zeros.
          const noSource = needsDeploymentSource(m.subject) && hasDeploymentSource === false;
          if (m.id === 'deployment-frequency') {
            const before_ = deployRate(before, prevStart);
            return (
              <Tile
                key={m.id}
                id={m.id}
                title={m.title}
                facts={m.value}
                current={noSource ? null : rate.perDay}
                previous={noSource || !previous.data ? null : before_.perDay}
                previousText={loading || !previous.data ? '…' : noSource ? 'no deployment source' : show(m, before, prevStart)}
                tier={loading || noSource ? null : rating?.deploymentFrequency ?? null}
                empty={loading ? null : noSource || v === null ? emptyReason(m.subject, scope, { hasDeploymentSource }) : null}
                value={loading ? '…' : (
                  <>
                    <span data-testid="deployment-frequency-rate">{rate.rate ?? 'no deployment source in the window'}</span>
                    {/* The count wraps as a whole, its "·" with it, never the dot alone at a line's end. */}
                    <span className="n"> <span className="together">· <span data-testid="deployment-frequency-count">{formatCount(rate.count)}</span> {rate.count === 1 ? 'deployment' : 'deployments'}</span></span>
                  </>
                )}
                note={
                  <>
                    {rate.since && <p className="muted" data-testid="deployment-frequency-since">Rate over the days {rate.since}, this scope's first deployment</p>}
                    {!!unownedCount && <p className="muted" data-testid="deployment-frequency-unowned">Includes {formatCount(unownedCount)} from projects no team owns</p>}
                    {median?.rate && !noSource && (
                      <p className="muted" data-testid="deployment-frequency-median">
                        Rated from the median project's rate, {median.rate} (n = {median.projects} {median.projects === 1 ? 'project' : 'projects'}), not the organisation's total
                      </p>
                    )}
                  </>
                }
              />
            );
          }
          return (
            <Tile
              key={m.id}
              id={m.id}
              title={m.title}
              facts={m.value}
              lowerIsBetter={m.lowerIsBetter}
              current={noSource ? null : v}
              previous={noSource || !previous.data ? null : num(before, m.value)}
              previousText={loading || !previous.data ? '…' : noSource ? 'no deployment source' : show(m, before, prevStart)}
              tier={loading || noSource ? null : tierOf(m, v)}
              empty={loading ? null : noSource || v === null ? emptyReason(m.subject, scope, { hasDeploymentSource }) : null}
              value={
                loading ? '…' : m.kind === 'seconds' ? <Median seconds={v} n={num(now, m.n as string)} /> : m.kind === 'ratio' ? (
                  <>
                    {formatRatio(v as number)}
                    <span className="n"> · n = {num(now, m.n as string) ?? 0}</span>
                  </>
                ) : (
                  formatCount(v as number)
                )
              }
            />
          );
        })}
      </div>
      {/* Asked for once the tiles have their values, like the previous window and the trend: its ten
          queries would otherwise share the database with the tiles' (bench:web, docs/web.md). */}
      {current.data ? (
        <OssProxy scope={scope} hasDeploymentSource={hasDeploymentSource} />
      ) : (
        <div className="skeleton" role="status" style={{ minHeight: 160 }} aria-busy="true" aria-label="Loading the open-source benchmark" />
      )}
      <h2 className="section">Monthly trend</h2>
      {trend.isError && <ErrorNote error={trend.error} onRetry={() => void trend.refetch()} />}
      {trend.data ? (
        <MonthlyCharts rows={trend.data.data} times={DORA_TIMES} scope={scope} context={{ hasDeploymentSource }} drill
          series={MEASURES.map((m) => ({ id: `${m.id}-trend`, title: m.title, value: m.value, n: m.n, subject: m.subject, format: formatters[m.kind] }))} />
      ) : (
        !trend.isError && <div className="skeleton" role="status" style={{ minHeight: 220 }} aria-busy="true" aria-label="Loading the monthly trend" />
      )}
    </>
  );
}
