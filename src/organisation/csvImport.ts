/**
 * The shared front half of the register and seat imports: parse a CSV file with a header row,
 * check the header, and hand back each record as a column → trimmed value map with the line it
 * starts on. Problems are collected, never thrown one at a time, so a rejected file lists every
 * error at once.
 */
import { createHash } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { AppError, type ErrorDetail } from '../errors.js';
import { INPUT_LIMITS, unstorable } from '../shared/limits.js';

/** One problem of an import file: the 1-based line, the column name (or `file`), what is wrong. */
export interface ImportProblem extends ErrorDetail {
  line: number;
  column: string;
}

export interface CsvRow {
  line: number;
  values: Record<string, string>;
}

export interface CsvSpec {
  required: readonly string[];
  optional: readonly string[];
  /** Columns accepted and dropped (the roster's own columns, so a roster file re-imports). */
  ignored?: readonly string[];
  maxRows: number;
}

export class ProblemList {
  readonly items: ImportProblem[] = [];

  add(line: number, column: string, message: string): void {
    this.items.push({ path: `line ${line}, ${column}`, line, column, message });
  }

  get empty(): boolean {
    return this.items.length === 0;
  }

  /** The 400 of a rejected file: every problem, ordered by line. */
  reject(what: string): never {
    const details = [...this.items].sort((a, b) => a.line - b.line);
    const n = details.length;
    throw new AppError('validation_failed', `${what} rejected: ${n} error${n === 1 ? '' : 's'}; nothing was imported`, details);
  }
}

export const sha256Hex = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

const countNewlines = (s: string): number => {
  let n = 0;
  for (const c of s) if (c === '\n') n += 1;
  return n;
};

export const NO_LINE_BREAKS =
  'The file has no line breaks: were they stripped on the way? curl -d does that; send the file with curl --data-binary @file.csv';

/**
 * Parses `text`; returns the rows that have the header's number of cells. Header problems and
 * rows of the wrong width are added to `problems`. A file csv-parse cannot read at all (an
 * unclosed quote) is one problem on the line it names.
 */
export function readCsv(text: string, spec: CsvSpec, problems: ProblemList): { rows: CsvRow[]; columns: Set<string> } {
  // CRLF inside quoted cells makes csv-parse count lines twice; one newline kind keeps line numbers true.
  const normalised = text.replace(/\r\n/g, '\n');
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(normalised, { bom: true, info: true, relax_column_count: true, skip_empty_lines: true }) as unknown as typeof records;
  } catch (error) {
    const line = (error as { lines?: number }).lines ?? 1;
    problems.add(line, 'file', `The file is not valid CSV: ${(error as Error).message}`);
    return { rows: [], columns: new Set() };
  }
  if (records.length === 0) {
    problems.add(1, 'file', 'The file is empty; a header row is required');
    return { rows: [], columns: new Set() };
  }

  const [head, ...body] = records;
  const header = head!.record.map((c) => c.trim().toLowerCase());
  // PostgreSQL text cannot hold U+0000: a cell with one is refused here, named, not at the insert.
  const storable = (line: number, column: string, cell: string) => {
    const problem = unstorable(cell);
    if (problem) problems.add(line, column, problem);
    return !problem;
  };
  header.forEach((column, i) => storable(1, `header cell ${i + 1}`, column));
  if (!problems.empty) return { rows: [], columns: new Set() };
  const known = new Set([...spec.required, ...spec.optional, ...(spec.ignored ?? [])]);
  const seen = new Set<string>();
  for (const column of header) {
    if (column === '') problems.add(1, 'header', 'A header cell is empty');
    else if (seen.has(column)) problems.add(1, column, `Column "${column}" appears more than once`);
    else if (!known.has(column)) problems.add(1, column, `Unknown column "${column}"`);
    seen.add(column);
  }
  for (const column of spec.required) if (!seen.has(column)) problems.add(1, column, `Required column "${column}" is missing`);
  if (!problems.empty) {
    // `curl -d @file` strips line breaks: header and rows arrive as one line of unknown columns.
    if (!normalised.includes('\n') && !normalised.includes('\r')) problems.add(1, 'file', NO_LINE_BREAKS);
    return { rows: [], columns: seen };
  }

  if (body.length === 0) problems.add(1, 'file', 'The file has a header but no rows');
  if (body.length > spec.maxRows) {
    problems.add(1, 'file', `The file has ${body.length} rows; at most ${spec.maxRows} are accepted`);
    return { rows: [], columns: seen };
  }

  const rows: CsvRow[] = [];
  for (const { record, info } of body) {
    const line = info.lines - record.reduce((n, cell) => n + countNewlines(cell), 0);
    if (record.length !== header.length) {
      problems.add(line, 'row', `The row has ${record.length} cells; the header has ${header.length}`);
      continue;
    }
    const values: Record<string, string> = {};
    let ok = true;
    header.forEach((column, i) => {
      values[column] = (record[i] as string).trim();
      ok = storable(line, column, values[column]) && ok;
    });
    if (ok) rows.push({ line, values });
  }
  return { rows, columns: seen };
}

/** `YYYY-MM-DD` naming a real calendar date from 1970 to 9999 (INPUT_LIMITS). */
export function isIsoDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.getTime() >= INPUT_LIMITS.earliest && date.toISOString().slice(0, 10) === value;
}

export const todayUtc = (now = new Date()): string => now.toISOString().slice(0, 10);
