/** A person's day as the vendors' reports give it, before it is stored (ai_vendor_days). */
export interface DayRow {
  day: string;
  personKey: string;
  personEmail: string | null;
  personLogin: string | null;
  sessions: number;
  requests: number;
  linesAdded: number;
  linesRemoved: number;
  linesSuggested: number;
  editsAccepted: number;
  editsRejected: number;
  commits: number;
  pullRequests: number;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  tokensByModel: Record<string, Record<string, number>>;
  details: Record<string, unknown>;
}

export const COUNTERS = ['sessions', 'requests', 'linesAdded', 'linesRemoved', 'linesSuggested', 'editsAccepted', 'editsRejected', 'commits', 'pullRequests', 'inputTokens', 'outputTokens', 'cacheReadTokens', 'cacheWriteTokens'] as const;

export function emptyRow(day: string, person: { key: string; email?: string | null; login?: string | null }): DayRow {
  return {
    day, personKey: person.key, personEmail: person.email ?? null, personLogin: person.login ?? null,
    sessions: 0, requests: 0, linesAdded: 0, linesRemoved: 0, linesSuggested: 0, editsAccepted: 0, editsRejected: 0, commits: 0, pullRequests: 0,
    inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, tokensByModel: {}, details: {},
  };
}

/** Two records of one person's day as one: counters and tokens by model added, details merged (lists joined). */
export function addRow(a: DayRow, b: DayRow): DayRow {
  const out: DayRow = { ...a, tokensByModel: { ...a.tokensByModel }, details: { ...a.details } };
  for (const c of COUNTERS) out[c] = a[c] + b[c];
  for (const [model, tokens] of Object.entries(b.tokensByModel)) {
    const sum = { ...(out.tokensByModel[model] ?? {}) };
    for (const [kind, n] of Object.entries(tokens)) sum[kind] = (sum[kind] ?? 0) + n;
    out.tokensByModel[model] = sum;
  }
  for (const [k, v] of Object.entries(b.details)) {
    const prior = out.details[k];
    out.details[k] = Array.isArray(prior) && Array.isArray(v) ? [...new Set([...prior, ...v])].sort() : v;
  }
  return out;
}

/** Records keyed by (day, person), each key's records added. */
export function sumByPerson(rows: DayRow[]): DayRow[] {
  const byKey = new Map<string, DayRow>();
  for (const row of rows) {
    const key = `${row.day}\u0000${row.personKey}`;
    const prior = byKey.get(key);
    byKey.set(key, prior ? addRow(prior, row) : row);
  }
  return [...byKey.values()];
}

/** The UTC day of a date or an epoch in milliseconds; null when unreadable. */
export function utcDay(value: unknown): string | null {
  const ms = typeof value === 'number' ? value : typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : typeof value === 'string' ? Date.parse(value) : Number.NaN;
  return Number.isFinite(ms) ? new Date(ms).toISOString().slice(0, 10) : null;
}

export const addDays = (day: string, n: number): string => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
