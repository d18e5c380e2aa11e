import { useEffect, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { Reason } from '../../lib/emptyReasons';
import { formatCount, formatMonth, formatRatio } from '../../lib/format';
import { Empty } from '../states';

export interface TrendRow {
  month: string;
  value: number | null;
  /** The count beside a median; absent for counts and ratios. */
  n?: number | null;
  /** Why the value is empty (shown in the table view). */
  reason?: Reason;
}

/**
 * A monthly line (uPlot, canvas); a null month stays a gap. "Show as table" lists the same rows,
 * with n beside a median and the reason beside an empty month.
 */
export function TrendChart({ id, title, rows, format, emptyReason, withN = false }: {
  id: string;
  title: string;
  rows: TrendRow[];
  format: (v: number) => string;
  emptyReason: Reason;
  withN?: boolean;
}) {
  const box = useRef<HTMLDivElement>(null);
  const [asTable, setAsTable] = useState(false);
  const empty = rows.every((r) => r.value === null);

  useEffect(() => {
    const el = box.current;
    if (!el || asTable || empty) return;
    const css = getComputedStyle(el);
    const stroke = css.getPropertyValue('--chart-1').trim() || '#2563eb';
    const axis = css.getPropertyValue('--text-muted').trim() || '#555';
    const width = Math.max(el.clientWidth, 200);
    const xs = rows.map((r) => Date.parse(`${r.month}-01T00:00:00Z`) / 1000);
    // The month labels are text in the page under the canvas, not drawn by uPlot: so that they can be
    // thinned by their measured width (uPlot draws every value it is given, overlapping or not) and
    // their geometry tested (docs/web.md "Charts").
    const labels = document.createElement('div');
    labels.className = 'x-labels';
    labels.dataset.axis = 'x';
    labels.setAttribute('aria-hidden', 'true');
    const spans = rows.map((r) => {
      const span = document.createElement('span');
      span.textContent = formatMonth(r.month);
      return labels.appendChild(span);
    });
    const plot = new uPlot(
      {
        width,
        height: 180,
        legend: { show: false },
        // Every redraw (a resize included) places the labels again.
        hooks: { draw: [(u) => placeMonthLabels(u, xs, spans)] },
        cursor: { drag: { x: false, y: false } },
        // Ratios on their whole 0–100 % scale (an all-zero month would otherwise be scaled to ±10,000 %).
        scales: { x: { time: true, range: () => [(xs[0] ?? 0) - 86400 * 10, (xs[xs.length - 1] ?? 0) + 86400 * 10] }, ...(format === formatRatio ? { y: { range: [0, 1] as [number, number] } } : {}) },
        series: [{}, { label: title, stroke, width: 2, spanGaps: false, points: { show: true, size: 5 } }],
        axes: [
          // One tick per month, not uPlot's automatic time ticks; the labels are placed by placeMonthLabels.
          { stroke: axis, splits: () => xs, values: (_u, ticks) => ticks.map(() => ''), size: 12 },
          // Counts get whole-number ticks only (no "2, 2, 1" from rounded fractions).
          { stroke: axis, size: 64, values: (_u, ticks) => ticks.map((t) => format(t)), ...(format === formatCount ? { incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 50_000, 100_000] } : {}) },
        ],
      },
      [xs, rows.map((r) => r.value)],
      el,
    );
    el.appendChild(labels);
    placeMonthLabels(plot, xs, spans);
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(el.clientWidth, 200), height: 180 }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
      labels.remove();
    };
  }, [rows, title, format, asTable, empty]);

  return (
    <figure className="trend" data-testid={id}>
      <figcaption>
        <span>{title}</span>
        {!empty && (
          <button type="button" aria-pressed={asTable} onClick={() => setAsTable(!asTable)}>
            Show as table
          </button>
        )}
      </figcaption>
      {empty ? (
        <Empty reason={emptyReason} />
      ) : asTable ? (
        <table>
          <caption className="visually-hidden">{title} by month</caption>
          <thead>
            <tr>
              <th scope="col">Month</th>
              <th scope="col" className="num">Value</th>
              {withN && <th scope="col" className="num">n</th>}
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.month}>
                <th scope="row">{formatMonth(r.month)}</th>
                <td className="num">{r.value === null ? <span className="muted">{r.reason?.text ?? '—'}</span> : format(r.value)}</td>
                {withN && <td className="num">{r.n ?? '—'}</td>}
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <div ref={box} className="chart" role="img" aria-label={`${title}, monthly trend; use Show as table for the values`} />
      )}
    </figure>
  );
}

/** Space between two month labels, in CSS pixels. */
const LABEL_GAP = 8;

/**
 * Centres each month's label under its tick and shows every k-th one, from the first month on, with
 * the smallest k at which the widest label fits between two shown ticks; a label that would leave the
 * chart is moved inside it, and dropped if that makes it touch its neighbour.
 */
function placeMonthLabels(u: uPlot, xs: number[], spans: HTMLSpanElement[]): void {
  if (!spans[0]?.isConnected) return; // the first draw, before the labels are in the page
  const width = u.root.clientWidth;
  const left = u.over.offsetLeft;
  const centres = xs.map((x) => left + u.valToPos(x, 'x'));
  for (const s of spans) s.style.visibility = '';
  const widths = spans.map((s) => s.offsetWidth);
  let pitch = Infinity;
  for (let i = 1; i < centres.length; i++) pitch = Math.min(pitch, (centres[i] as number) - (centres[i - 1] as number));
  const step = Math.max(1, Math.ceil((Math.max(0, ...widths) + LABEL_GAP) / pitch));
  let lastRight = -Infinity;
  spans.forEach((s, i) => {
    const w = widths[i] as number;
    const at = Math.min(Math.max((centres[i] as number) - w / 2, 0), width - w);
    s.style.left = `${at}px`;
    const shown = i % step === 0 && at >= lastRight + LABEL_GAP;
    s.style.visibility = shown ? '' : 'hidden';
    if (shown) lastRight = at + w;
  });
}
