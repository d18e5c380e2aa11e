import { useState } from 'react';

export interface ResultPoint {
  label: string;
  value: number | null;
}

const W = 560, H = 220, LEFT = 48, RIGHT = 12, TOP = 18, BOTTOM = 44;

/**
 * A small plain-SVG chart of one measure: a line over time buckets, or one bar per category. Positions
 * are layout only; every value shown is the server's. A null value stays a gap (no dot, no bar), never
 * a zero. "Show as table" lists the same points (UI.md: every chart has a table view).
 */
export function ResultChart({ kind, title, xTitle, points, format, id }: {
  kind: 'line' | 'bar';
  title: string;
  xTitle: string;
  points: ResultPoint[];
  format: (v: number) => string;
  id?: string;
}) {
  const [asTable, setAsTable] = useState(false);
  const values = points.flatMap((p) => (p.value === null ? [] : [p.value]));
  const max = Math.max(...values, 0);
  const min = Math.min(...values, 0);
  const span = max - min || 1;
  const plotW = W - LEFT - RIGHT, plotH = H - TOP - BOTTOM;
  const slot = plotW / Math.max(points.length, 1);
  const xOf = (i: number) => LEFT + slot * (i + 0.5);
  const yOf = (v: number) => TOP + plotH - ((v - min) / span) * plotH;
  // At most ~12 labels along the axis; every point keeps its value in <title> and in the table.
  const every = Math.ceil(points.length / 12);
  // A line breaks at a missing value.
  const segments: { i: number; v: number }[][] = [[]];
  points.forEach((p, i) => {
    if (p.value === null) segments.push([]);
    else segments.at(-1)?.push({ i, v: p.value });
  });
  return (
    <figure className="result-chart" data-testid={id}>
      <figcaption>
        <span>{title}</span>
        <button type="button" aria-pressed={asTable} onClick={() => setAsTable(!asTable)}>Show as table</button>
      </figcaption>
      {asTable ? (
        <table>
          <caption className="visually-hidden">{title}</caption>
          <thead><tr><th scope="col">{xTitle}</th><th scope="col" className="num">Value</th></tr></thead>
          <tbody>{points.map((p, i) => <tr key={i}><th scope="row">{p.label}</th><td className="num">{p.value === null ? '—' : format(p.value)}</td></tr>)}</tbody>
        </table>
      ) : (
        <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={`${title}, ${kind === 'line' ? 'line' : 'bar'} chart of ${points.length} ${kind === 'line' ? 'points' : 'bars'}; use Show as table for the values`} data-kind={kind}>
          <line x1={LEFT} y1={yOf(0)} x2={W - RIGHT} y2={yOf(0)} className="axis" />
          <line x1={LEFT} y1={TOP} x2={LEFT} y2={TOP + plotH} className="axis" />
          <text x={LEFT - 6} y={yOf(max) + 4} textAnchor="end" className="axis-label">{format(max)}</text>
          {min < 0 && <text x={LEFT - 6} y={yOf(min) + 4} textAnchor="end" className="axis-label">{format(min)}</text>}
          <text x={LEFT - 6} y={yOf(0) + 4} textAnchor="end" className="axis-label">{format(0)}</text>
          {kind === 'line' && segments.filter((s) => s.length > 1).map((s, k) => <polyline key={k} className="line" points={s.map(({ i, v }) => `${xOf(i)},${yOf(v)}`).join(' ')} />)}
          {points.map((p, i) => p.value === null ? null : kind === 'line' ? (
            <circle key={i} className="dot" data-testid="chart-point" cx={xOf(i)} cy={yOf(p.value)} r={4}><title>{`${p.label}: ${format(p.value)}`}</title></circle>
          ) : (
            <rect key={i} className="bar" data-testid="chart-bar" x={xOf(i) - slot * 0.35} width={slot * 0.7} y={Math.min(yOf(p.value), yOf(0))} height={Math.abs(yOf(0) - yOf(p.value))}><title>{`${p.label}: ${format(p.value)}`}</title></rect>
          ))}
          {kind === 'bar' && points.map((p, i) => p.value === null ? null : <text key={i} x={xOf(i)} y={Math.min(yOf(p.value), yOf(0)) - 4} textAnchor="middle" className="value-label">{format(p.value)}</text>)}
          {points.map((p, i) => (i % every === 0 ? <text key={i} x={xOf(i)} y={H - BOTTOM + 16} textAnchor="middle" className="axis-label" data-testid="chart-label">{p.label.length > 14 ? `${p.label.slice(0, 13)}…` : p.label}</text> : null))}
        </svg>
      )}
    </figure>
  );
}
