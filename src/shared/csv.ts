/**
 * CSV cells that a spreadsheet would run as a formula (OWASP "CSV injection"): text starting with
 * `=`, `+`, `-`, `@`, a tab or a carriage return gets a leading `'`, which spreadsheets show as
 * text and never evaluate. A plain number (`-12`, `+3.5`) is a value, not a formula, and is kept as
 * it is, so numeric columns of the exports stay numbers. Columns and their order never change.
 * Every CSV the server writes passes its options through `SAFE_CSV` (docs/input-limits.md).
 */
const FORMULA_START = new Set(['=', '+', '-', '@', '\t', '\r']);
const PLAIN_NUMBER = /^[-+]?\d+(?:\.\d+)?$/;

export function neutraliseFormula(value: string): string {
  if (value === '' || !FORMULA_START.has(value[0] as string) || PLAIN_NUMBER.test(value)) return value;
  return `'${value}`;
}

/** csv-stringify options every CSV of the product uses: string cells neutralised. */
export const SAFE_CSV = { cast: { string: neutraliseFormula } } as const;
