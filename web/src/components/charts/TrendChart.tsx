import { useEffect, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { Reason } from '../../lib/emptyReasons';
import { DURATION_TICKS, formatCount, formatDurationTicks, formatMonth, formatRatio, formatSeconds } from '../../lib/format';
import { Empty } from '../states';
import { ChartPoints, monthText, spanText, type PointGeometry } from './ChartPoints';

export interface TrendRow {
  month: string;
  value: number | null;
  /** The count beside a median or a rate; absent for counts (a count is its own n). */
  n?: number | null;
  /** Why the value is empty (shown in the table view). */
  reason?: Reason;
  /** The days of the month the window covers, when not all of it (month to date, a days window's ends). */
  partial?: { first: string; last: string };
}

/**
 * A monthly line (uPlot, canvas) on an axis from zero; a null month stays a gap, a partial month
 * is a hollow point on a dashed segment, and months before the first value are said ("Data from").
 * Each month with a value is a target with a tooltip (value and n) that opens its facts when the
 * chart has a drill-through (`drill`: the cube measure). "Show as table" lists the same rows.
 */
export function TrendChart({ id, title, rows, format, emptyReason, withN = false, drill }: {
  id: string;
  title: string;
  rows: TrendRow[];
  format: (v: number) => string;
  emptyReason: Reason;
  withN?: boolean;
  drill?: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  const [asTable, setAsTable] = useState(false);
  const [geo, setGeo] = useState<PointGeometry | null>(null);
  const empty = rows.every((r) => r.value === null);
  const firstValue = rows.findIndex((r) => r.value !== null);
  const partial = rows.filter((r) => r.partial);

  useEffect(() => {
    const el = box.current;
    if (!el || asTable || empty) return;
    const css = getComputedStyle(el);
    const stroke = css.getPropertyValue('--chart-1').trim() || '#2563eb';
    const axis = css.getPropertyValue('--text-muted').trim() || '#555';
    const bg = css.getPropertyValue('--bg').trim() || '#fff';
    const width = Math.max(el.clientWidth, 200);
    const xs = rows.map((r) => Date.parse(`${r.month}-01T00:00:00Z`) / 1000);
    // Whole months on a solid line; a partial month on a dashed segment from its neighbours, so
    // that its lower count does not read as a fall.
    const whole = rows.map((r) => (r.partial ? null : r.value));
    // Hollow points on the partial months only (their neighbours are on the solid line already).
    const partialAt = rows.flatMap((r, i) => (r.partial && r.value !== null ? [i] : []));
    const part = rows.map((r, i) => (r.partial || rows[i - 1]?.partial || rows[i + 1]?.partial ? r.value : null));
    // The month labels are text in the page under the canvas, not drawn by uPlot: so that they can be
    // thinned by their measured width (uPlot draws every value it is given, overlapping or not) and
    // their geometry tested (docs/web-ui.md "Charts").
    const labels = document.createElement('div');
    labels.className = 'x-labels';
    labels.dataset.axis = 'x';
    labels.setAttribute('aria-hidden', 'true');
    const spans = rows.map((r) => {
      const span = document.createElement('span');
      span.textContent = formatMonth(r.month);
      return labels.appendChild(span);
    });
    const measure = (u: uPlot) => {
      if (!spans[0]?.isConnected) return;
      placeMonthLabels(u, xs, spans);
      const over = u.over.getBoundingClientRect();
      const outer = el.getBoundingClientRect();
      const left = over.left - outer.left;
      const top = over.top - outer.top;
      el.dataset.yMin = String(u.scales.y?.min);
      setGeo({ xs: xs.map((x) => left + u.valToPos(x, 'x')), ys: rows.map((r) => (r.value === null ? null : top + u.valToPos(r.value, 'y'))), top, height: over.height, width: outer.width });
    };
    const points = { show: true, size: 6 };
    const plot = new uPlot(
      {
        width,
        height: 180,
        legend: { show: false },
        // Every redraw (a resize included) places the labels and the month targets again.
        hooks: { draw: [measure] },
        cursor: { show: false, drag: { x: false, y: false } },
        scales: {
          x: { time: true, range: () => [(xs[0] ?? 0) - 86400 * 10, (xs[xs.length - 1] ?? 0) + 86400 * 10] },
          // Every axis starts at zero (a count or a rate from 20 to 24 drawn from 20 reads as a
          // fivefold rise); ratios on their whole 0–100 % scale.
          y: { range: (_u, _min, max) => (format === formatRatio ? [0, 1] : [0, max > 0 ? uPlot.rangeNum(0, max, 0.1, true)[1] : 1]) },
        },
        series: [
          {},
          { label: title, stroke, width: 2, spanGaps: false, points: { ...points, fill: stroke } },
          { label: `${title} (partial month)`, stroke, width: 2, dash: [5, 4], spanGaps: false, points: { ...points, fill: bg, filter: (_u, _i, show) => (show ? partialAt : null) } },
        ],
        axes: [
          // One tick per month, not uPlot's automatic time ticks; the labels are placed by placeMonthLabels.
          { stroke: axis, splits: () => xs, values: (_u, ticks) => ticks.map(() => ''), size: 12 },
          // Counts get whole-number ticks only (no "2, 2, 1" from rounded fractions).
          // Durations at round values (15 min, 1 h, 6 h, 1 d, 1 w…), all in one unit.
          format === formatSeconds
            ? { stroke: axis, size: 64, incrs: DURATION_TICKS, values: (_u, ticks) => formatDurationTicks(ticks) }
            : { stroke: axis, size: 64, values: (_u, ticks) => ticks.map((t) => format(t)), ...(format === formatCount ? { incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 50_000, 100_000] } : {}) },
        ],
      },
      [xs, whole, part],
      el,
    );
    el.appendChild(labels);
    measure(plot);
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(el.clientWidth, 200), height: 180 }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
      labels.remove();
      setGeo(null);
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
      {!empty && (firstValue > 0 || partial.length > 0) && (
        <p className="chart-note muted" data-testid={`${id}-note`}>
          {[
            firstValue > 0 ? `Data from ${formatMonth((rows[firstValue] as TrendRow).month)}.` : '',
            ...partial.map((r) => `${formatMonth(r.month)}: ${spanText(r.partial!.first, r.partial!.last)} only (dashed).`),
          ].filter(Boolean).join(' ')}
        </p>
      )}
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
                <th scope="row">{monthText(r)}</th>
                <td className="num">{r.value === null ? <span className="muted">{r.reason?.text ?? '—'}</span> : format(r.value)}</td>
                {/* n is a count: a month with nothing in it counted 0 (METRICS.md: never empty). */}
                {withN && <td className="num">{r.n ?? 0}</td>}
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <div className="chart-box">
          <div ref={box} className="chart" role="img" aria-label={`${title}, monthly trend; use Show as table for the values`} />
          {geo && <ChartPoints title={title} rows={rows} geo={geo} format={format} withN={withN} drill={drill} />}
        </div>
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
