import type { CubeRow } from '../api/cube';
import { num } from '../api/cube';
import { byMonth } from '../api/queries/common';
import { emptyReason, type Subject } from '../lib/emptyReasons';
import type { Scope } from '../lib/scope';
import { monthsOf } from '../lib/window';
import { TrendChart, type TrendRow } from './charts/TrendChart';

export interface Series {
  id: string;
  title: string;
  value: string;
  n?: string;
  subject: Subject;
  format: (v: number) => string;
}

/** One trend chart per series, from a by-month cube answer; every month of the window is listed. */
export function MonthlyCharts({ rows, times, series, scope, context }: { rows: CubeRow[]; times: string[]; series: Series[]; scope: Scope; context?: { hasDeploymentSource?: boolean } }) {
  const months = monthsOf(scope);
  const index = byMonth(rows, times);
  return (
    <div className="charts">
      {series.map((s) => {
        const data: TrendRow[] = months.map((month) => {
          const row = index.get(month) as CubeRow | undefined;
          const value = num(row, s.value);
          return { month, value, n: s.n ? num(row, s.n) : undefined, reason: value === null ? emptyReason(s.subject, { month }, context) : undefined };
        });
        return <TrendChart key={s.id} id={s.id} title={s.title} rows={data} format={s.format} withN={!!s.n} emptyReason={emptyReason(s.subject, scope, context)} />;
      })}
    </div>
  );
}
