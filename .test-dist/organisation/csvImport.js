import { createHash } from "node:crypto";
import { parse } from "csv-parse/sync";
import { AppError } from "../errors.js";
import { INPUT_LIMITS, unstorable } from "../shared/limits.js";
class ProblemList {
  items = [];
  add(line, column, message) {
    this.items.push({ path: `line ${line}, ${column}`, line, column, message });
  }
  get empty() {
    return this.items.length === 0;
  }
  /** The 400 of a rejected file: every problem, ordered by line. */
  reject(what) {
    const details = [...this.items].sort((a, b) => a.line - b.line);
    const n = details.length;
    throw new AppError("validation_failed", `${what} rejected: ${n} error${n === 1 ? "" : "s"}; nothing was imported`, details);
  }
}
const sha256Hex = (text) => createHash("sha256").update(text, "utf8").digest("hex");
const countNewlines = (s) => {
  let n = 0;
  for (const c of s) if (c === "\n") n += 1;
  return n;
};
const NO_LINE_BREAKS = "The file has no line breaks: were they stripped on the way? curl -d does that; send the file with curl --data-binary @file.csv";
function readCsv(text, spec, problems) {
  const normalised = text.replace(/\r\n/g, "\n");
  let records;
  try {
    records = parse(normalised, { bom: true, info: true, relax_column_count: true, skip_empty_lines: true });
  } catch (error) {
    const line = error.lines ?? 1;
    problems.add(line, "file", `The file is not valid CSV: ${error.message}`);
    return { rows: [], columns: /* @__PURE__ */ new Set() };
  }
  if (records.length === 0) {
    problems.add(1, "file", "The file is empty; a header row is required");
    return { rows: [], columns: /* @__PURE__ */ new Set() };
  }
  const [head, ...body] = records;
  const header = head.record.map((c) => c.trim().toLowerCase());
  const storable = (line, column, cell) => {
    const problem = unstorable(cell);
    if (problem) problems.add(line, column, problem);
    return !problem;
  };
  header.forEach((column, i) => storable(1, `header cell ${i + 1}`, column));
  if (!problems.empty) return { rows: [], columns: /* @__PURE__ */ new Set() };
  const known = /* @__PURE__ */ new Set([...spec.required, ...spec.optional, ...spec.ignored ?? []]);
  const seen = /* @__PURE__ */ new Set();
  for (const column of header) {
    if (column === "") problems.add(1, "header", "A header cell is empty");
    else if (seen.has(column)) problems.add(1, column, `Column "${column}" appears more than once`);
    else if (!known.has(column)) problems.add(1, column, `Unknown column "${column}"`);
    seen.add(column);
  }
  for (const column of spec.required) if (!seen.has(column)) problems.add(1, column, `Required column "${column}" is missing`);
  if (!problems.empty) {
    if (!normalised.includes("\n") && !normalised.includes("\r")) problems.add(1, "file", NO_LINE_BREAKS);
    return { rows: [], columns: seen };
  }
  if (body.length === 0) problems.add(1, "file", "The file has a header but no rows");
  if (body.length > spec.maxRows) {
    problems.add(1, "file", `The file has ${body.length} rows; at most ${spec.maxRows} are accepted`);
    return { rows: [], columns: seen };
  }
  const rows = [];
  for (const { record, info } of body) {
    const line = info.lines - record.reduce((n, cell) => n + countNewlines(cell), 0);
    if (record.length !== header.length) {
      problems.add(line, "row", `The row has ${record.length} cells; the header has ${header.length}`);
      continue;
    }
    const values = {};
    let ok = true;
    header.forEach((column, i) => {
      values[column] = record[i].trim();
      ok = storable(line, column, values[column]) && ok;
    });
    if (ok) rows.push({ line, values });
  }
  return { rows, columns: seen };
}
function isIsoDate(value) {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = /* @__PURE__ */ new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.getTime() >= INPUT_LIMITS.earliest && date.toISOString().slice(0, 10) === value;
}
const todayUtc = (now = /* @__PURE__ */ new Date()) => now.toISOString().slice(0, 10);
export {
  NO_LINE_BREAKS,
  ProblemList,
  isIsoDate,
  readCsv,
  sha256Hex,
  todayUtc
};
