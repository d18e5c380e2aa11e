import { Link } from '@tanstack/react-router';
import { num, type CubeRow } from '../../api/cube';
import { byMonth, type Fact } from '../../api/queries/common';
import { formatMonth, formatSeconds } from '../../lib/format';
import type { Scope } from '../../lib/scope';
import { monthsOf, monthSpan } from '../../lib/window';
import { Median } from '../Median';

/** The four phases of a merged PR (METRICS.md "PR phases"), in the order they happen. */
export const PHASES = [
  { key: 'coding', title: 'Coding', value: 'pull_requests.coding_time_p50_seconds', n: 'pull_requests.coding_time_count' },
  { key: 'pickup', title: 'Pickup', value: 'pull_requests.pickup_time_p50_seconds', n: 'pull_requests.pickup_time_count' },
  { key: 'review', title: 'Review', value: 'pull_requests.review_time_p50_seconds', n: 'pull_requests.review_time_count' },
  { key: 'deploy', title: 'Deploy', value: 'pull_requests.deploy_time_p50_seconds', n: 'pull_requests.deploy_time_count' },
] as const;

export const PHASE_FACT: Fact = { time: 'pull_requests.merged_at', measures: PHASES.flatMap((p) => [p.value, p.n]) };
export const PHASE_TITLES: Record<string, string> = Object.fromEntries(PHASES.map((p) => [p.value, `${p.title} time p50`]));

const HEIGHT = 160;

/**
 * The PR cycle in phases: one stacked bar per month of the window, a segment per phase's median
 * (merge month), and the same values as a table. Every segment and every cell opens the PRs behind
 * that median (each with its four phase times) for its month, a partial month's days only.
 * The segments are medians of each phase on its own: their sum is not the median cycle time.
 */
export function PhaseBars({ id, rows, scope }: { id: string; rows: CubeRow[]; scope: Scope }) {
  const index = byMonth(rows, ['pull_requests.merged_at']);
  const months = monthsOf(scope).map((month) => {
    const span = monthSpan(scope, month);
    const row = index.get(month) as CubeRow | undefined;
    return { month, span, phases: PHASES.map((p) => ({ ...p, median: num(row, p.value), count: num(row, p.n) })) };
  });
  const total = (m: (typeof months)[number]) => m.phases.reduce((acc, p) => acc + (p.median ?? 0), 0);
  const max = Math.max(0, ...months.map(total));
  const search = (measure: string, m: (typeof months)[number]) => ((prev: Record<string, unknown>) => ({
    ...prev, drill: measure, dpage: undefined, dteam: undefined,
    dmonth: m.span.partial ? undefined : m.month, dfrom: m.span.partial ? m.span.first : undefined, dto: m.span.partial ? m.span.last : undefined,
  })) as never;
  const label = (p: (typeof months)[number]['phases'][number], month: string) =>
    `${p.title} time p50, ${formatMonth(month)}: ${p.median === null ? 'none' : formatSeconds(p.median)}, n = ${p.count ?? 0}. List the facts`;
  return (
    <figure className="phase-chart" data-testid={id}>
      <figcaption>
        <span>PR cycle in phases, medians by merge month</span>
        <span className="phase-legend" aria-hidden="true">
          {PHASES.map((p) => <span key={p.key}><i className={`phase-${p.key}`} />{p.title}</span>)}
        </span>
      </figcaption>
      {max === 0 ? (
        <p className="muted">No PR merged in the window.</p>
      ) : (
        <div className="phase-bars" role="group" aria-label="Phase medians by month: each segment lists its PRs">
          {months.map((m) => (
            <div key={m.month} className="phase-month" data-month={m.month}>
              <div className="phase-bar" style={{ height: HEIGHT }}>
                {m.phases.filter((p) => p.median !== null && p.median > 0).map((p) => (
                  <Link key={p.key} to="." search={search(p.value, m)}
                    className={`phase-segment phase-${p.key}`} data-phase={p.key} aria-label={label(p, m.month)} title={label(p, m.month)}
                    style={{ height: Math.max(2, ((p.median as number) / max) * HEIGHT) }} />
                ))}
              </div>
              <span className="phase-label">{formatMonth(m.month)}{m.span.partial ? '*' : ''}</span>
            </div>
          ))}
        </div>
      )}
      <table className="phase-table" data-testid={`${id}-table`}>
        <caption className="visually-hidden">PR phase medians by month</caption>
        <thead>
          <tr>
            <th scope="col">Month</th>
            {PHASES.map((p) => <th key={p.key} scope="col" className="num">{p.title} p50</th>)}
          </tr>
        </thead>
        <tbody>
          {months.map((m) => (
            <tr key={m.month}>
              <th scope="row">{formatMonth(m.month)}{m.span.partial ? ` (${m.span.first.slice(8)}–${m.span.last.slice(8)})` : ''}</th>
              {m.phases.map((p) => (
                <td key={p.key} className="num" data-phase={p.key}>
                  {p.median === null ? <span className="muted">—</span> : (
                    <Link to="." search={search(p.value, m)} title={label(p, m.month)}>
                      <Median seconds={p.median} n={p.count} />
                    </Link>
                  )}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
