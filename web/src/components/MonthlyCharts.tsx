import type { CubeRow } from '../api/cube';
import { num } from '../api/cube';
import { byMonth } from '../api/queries/common';
import { emptyReason, type Subject } from '../lib/emptyReasons';
import type { Scope } from '../lib/scope';
import { monthsOf, monthSpan } from '../lib/window';
import { TrendChart, type TrendRow } from './charts/TrendChart';

export interface Series {
  id: string;
  title: string;
  value: string;
  n?: string;
  subject: Subject;
  format: (v: number) => string;
}

/**
 * One trend chart per series, from a by-month cube answer; every month of the window is listed,
 * a month the window covers only in part marked with its days. With `drill`, each month's point
 * opens the facts of its series' measure for that month (docs/drill-through.md).
 */
export function MonthlyCharts({ rows, times, series, scope, context, drill = false }: { rows: CubeRow[]; times: string[]; series: Series[]; scope: Scope; context?: { hasDeploymentSource?: boolean }; drill?: boolean }) {
  const months = monthsOf(scope).map((month) => ({ month, span: monthSpan(scope, month) }));
  const index = byMonth(rows, times);
  return (
    <div className="charts">
      {series.map((s) => {
        const data: TrendRow[] = months.map(({ month, span }) => {
          const row = index.get(month) as CubeRow | undefined;
          const value = num(row, s.value);
          return {
            month, value, n: s.n ? num(row, s.n) : undefined,
            reason: value === null ? emptyReason(s.subject, span.partial ? { first: span.first, last: span.last } : { month }, context) : undefined,
            ...(span.partial ? { partial: { first: span.first, last: span.last } } : {}),
          };
        });
        return <TrendChart key={s.id} id={s.id} title={s.title} rows={data} format={s.format} withN={!!s.n} emptyReason={emptyReason(s.subject, scope, context)} drill={drill ? s.value : undefined} />;
      })}
    </div>
  );
}
