/**
 * The answer's result: the last successful cube_query of a cell, drawn as a chart when it has one
 * group (a time bucket → a line, a category → bars) and a measure, else as its table. The shape is
 * read from the query the agent sent (its measures, dimensions, time granularity), the values are
 * the tool's rows as the cube returned them.
 */
import { ResultChart, type ResultPoint } from '../../components/charts/ResultChart';
import { formatMonth } from '../../lib/format';

import type { Cell } from '../../api/contract';

export type Step = Cell['steps'][number];

/** A tool's rows (a cube_query's answer), when its output has them. */
export function rowsOf(step: Step): Record<string, unknown>[] | null {
  return step.output?.ok && Array.isArray(step.output.value.rows) ? (step.output.value.rows as Record<string, unknown>[]) : null;
}

interface QueryInput {
  measures?: string[];
  dimensions?: string[];
  timeDimensions?: { dimension: string; granularity?: string }[];
}

/** More points than this read better as a table. */
const MAX_POINTS = 40;
const plain = new Intl.NumberFormat('en', { maximumFractionDigits: 2 });

/** A cell value as a number: Cube sends some measures as numeric strings; null stays null. */
function numeric(value: unknown): number | null | undefined {
  if (value === null) return null;
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  return undefined;
}

/** "2026-03-01T00:00:00.000" by its granularity: a month as "Mar 2026", a day as the date. */
function bucketLabel(value: unknown, granularity: string): string {
  const text = String(value ?? '—');
  if (granularity === 'month' || granularity === 'quarter') return formatMonth(text);
  if (granularity === 'year') return text.slice(0, 4);
  return text.slice(0, 10);
}

export interface ChartSpec {
  kind: 'line' | 'bar';
  measure: string;
  group: string;
  points: ResultPoint[];
}

/** The chart a step's rows make, or null (no single group, no numeric measure, too many points). */
export function chartOf(step: Step): ChartSpec | null {
  if (step.tool !== 'cube_query' || !step.output?.ok) return null;
  const rows = rowsOf(step);
  const input = (step.input ?? {}) as QueryInput;
  if (!Array.isArray(rows) || rows.length === 0 || rows.length > MAX_POINTS) return null;
  const time = (input.timeDimensions ?? []).filter((t) => t.granularity);
  const dimensions = input.dimensions ?? [];
  if (time.length + dimensions.length !== 1) return null;
  const measure = (input.measures ?? []).find((m) => rows.every((r) => numeric(r[m]) !== undefined));
  if (!measure) return null;
  const value = (r: Record<string, unknown>) => numeric(r[measure]) ?? null;
  const bucket = time[0];
  if (bucket) {
    const key = `${bucket.dimension}.${bucket.granularity}`;
    if (!rows.every((r) => key in r)) return null;
    return { kind: 'line', measure, group: bucket.granularity as string, points: rows.map((r) => ({ label: bucketLabel(r[key], bucket.granularity as string), value: value(r) })) };
  }
  const dimension = dimensions[0] as string;
  return { kind: 'bar', measure, group: dimension, points: rows.map((r) => ({ label: r[dimension] === null || r[dimension] === undefined ? '—' : String(r[dimension]), value: value(r) })) };
}

/** A tool's rows as a table: the numbers as the cube returned them. */
export function Rows({ rows, label }: { rows: Record<string, unknown>[]; label: string }) {
  if (rows.length === 0) return <p className="empty">No rows.</p>;
  const columns = Object.keys(rows[0] ?? {});
  return (
    <div className="table-wrap">
      <table aria-label={label}>
        <thead><tr>{columns.map((c) => <th scope="col" key={c}>{c}</th>)}</tr></thead>
        <tbody>{rows.slice(0, 50).map((r, i) => <tr key={i}>{columns.map((c) => <td key={c}>{r[c] === null ? '—' : String(r[c])}</td>)}</tr>)}</tbody>
      </table>
    </div>
  );
}

/** Under the answer: the last query's result as a chart, or as its table. */
export function AnswerResult({ steps }: { steps: Step[] }) {
  const last = [...steps].reverse().find((s) => s.tool === 'cube_query' && rowsOf(s) !== null);
  if (!last) return null;
  const chart = chartOf(last);
  if (!chart) return <Rows rows={rowsOf(last) ?? []} label="Answer's result" />;
  const title = `${chart.measure} by ${chart.group}`;
  return <ResultChart id="answer-chart" kind={chart.kind} title={title} xTitle={chart.group} points={chart.points} format={(v) => plain.format(v)} />;
}
