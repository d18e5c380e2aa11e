import { useRef, useState, type KeyboardEvent } from 'react';
import { Link } from '@tanstack/react-router';
import { useActiveOrganisation } from '../../api/me';
import { formatMonth } from '../../lib/format';
import type { TrendRow } from './TrendChart';

/** Where uPlot drew each month, relative to the chart's box (set on every draw). */
export interface PointGeometry {
  xs: number[];
  ys: (number | null)[];
  top: number;
  height: number;
  width: number;
}

/** "1–15 Mar": the days of a partial month the window covers. */
export function spanText(first: string, last: string): string {
  return `${Number(first.slice(8))}–${Number(last.slice(8))} ${formatMonth(first).split(' ')[0]}`;
}
/** "Mar 2026" or, for a partial month, "Mar 2026 (1–15 Mar)". */
export const monthText = (r: TrendRow) => `${formatMonth(r.month)}${r.partial ? ` (${spanText(r.partial.first, r.partial.last)})` : ''}`;

/**
 * One focusable target per month with a value, over the canvas: hover or focus shows the month's
 * value and n; a chart with a drill-through makes each a link to that month's facts (a partial
 * month's days). One tab stop per chart: the arrow keys, Home and End move between months.
 */
export function ChartPoints({ title, rows, geo, format, withN, drill }: {
  title: string;
  rows: TrendRow[];
  geo: PointGeometry;
  format: (v: number) => string;
  withN: boolean;
  drill?: string;
}) {
  const [active, setActive] = useState(() => Math.max(0, rows.findIndex((r) => r.value !== null)));
  const [shown, setShown] = useState<number | null>(null);
  const org = useActiveOrganisation();
  const refs = useRef<(HTMLElement | null)[]>([]);
  const withValue = rows.flatMap((r, i) => (r.value === null ? [] : [i]));
  const pitch = geo.xs.length > 1 ? (geo.xs[1] as number) - (geo.xs[0] as number) : geo.width;
  const text = (r: TrendRow) => `${monthText(r)}: ${format(r.value as number)}${withN ? `, n = ${r.n ?? 0}` : ''}`;

  const move = (e: KeyboardEvent, i: number) => {
    const at = withValue.indexOf(i);
    const to = e.key === 'ArrowRight' || e.key === 'ArrowUp' ? withValue[at + 1] : e.key === 'ArrowLeft' || e.key === 'ArrowDown' ? withValue[at - 1]
      : e.key === 'Home' ? withValue[0] : e.key === 'End' ? withValue[withValue.length - 1] : undefined;
    if (e.key === 'Escape') setShown(null);
    if (to === undefined) return;
    e.preventDefault();
    setActive(to);
    refs.current[to]?.focus();
  };

  const tip = shown === null ? null : rows[shown];
  const tipLeft = shown === null ? 0 : Math.min(Math.max((geo.xs[shown] as number) - 90, 0), Math.max(geo.width - 180, 0));
  // Above the point when it fits, else below it: never over the point it describes.
  const tipY = shown === null ? 0 : (geo.ys[shown] ?? geo.top);
  const tipTop = tipY - 70 >= 0 ? tipY - 70 : tipY + 12;
  return (
    <div className="chart-points" role="group" aria-label={`${title} by month: arrow keys move between months${drill ? ', Enter lists the facts' : ''}`}>
      {rows.map((r, i) => {
        if (r.value === null) return null;
        const y = geo.ys[i];
        const props = {
          ref: (el: HTMLElement | null) => void (refs.current[i] = el),
          className: `chart-point${shown === i ? ' shown' : ''}`,
          style: { left: (geo.xs[i] as number) - pitch / 2, top: geo.top, width: pitch, height: geo.height },
          tabIndex: i === active ? 0 : -1,
          'aria-label': `${text(r)}${drill ? '. List the facts' : ''}`,
          'data-month': r.month,
          onFocus: () => { setActive(i); setShown(i); },
          onBlur: () => setShown(null),
          onMouseEnter: () => setShown(i),
          onMouseLeave: () => setShown(null),
          onKeyDown: (e: KeyboardEvent) => move(e, i),
        };
        const dot = y === null || y === undefined ? null : <span className="chart-dot" style={{ top: y - geo.top }} />;
        return drill ? (
          <Link key={r.month} to="." {...props}
            search={((prev: Record<string, unknown>) => ({ ...prev, drill, dpage: undefined, dteam: undefined, dmonth: r.partial ? undefined : r.month, dfrom: r.partial?.first, dto: r.partial?.last, dorg: org })) as never}>
            {dot}
          </Link>
        ) : (
          <span key={r.month} role="img" {...props}>{dot}</span>
        );
      })}
      {tip && (
        <div className="chart-tip" role="tooltip" data-testid="chart-tip" style={{ left: tipLeft, top: tipTop }}>
          <strong>{monthText(tip)}</strong>
          <span>
            {format(tip.value as number)}
            {withN ? ` · n = ${tip.n ?? 0}` : ''}
          </span>
          {drill && <span className="muted">Click or Enter: list the facts</span>}
        </div>
      )}
    </div>
  );
}
