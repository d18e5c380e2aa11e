/**
 * The Claude Code Analytics report (Anthropic Admin API): `GET /v1/organizations/usage_report/claude_code`
 * with an admin key, one UTC day (`starting_at`) a request, pages by `page` = the previous answer's
 * `next_page` while `has_more`. A record is one actor's day in one terminal and customer type;
 * they are added per person. `estimated_cost` is never read: tokens only.
 */
import { arr, jsonOf, num, obj, str, vendorFetch, type CallOptions, type Pace } from './http.js';
import { emptyRow, type DayRow } from './rows.js';

const VENDOR = 'Anthropic';
const PAGE_LIMIT = 1000;

const headers = (key: string) => ({ 'x-api-key': key, 'anthropic-version': '2023-06-01', accept: 'application/json', 'user-agent': 'delivery-analytics' });

export function claudeRecord(day: string, record: Record<string, unknown>): DayRow | null {
  const actor = obj(record.actor);
  const email = actor.type === 'user_actor' ? str(actor.email_address)?.toLowerCase() ?? null : null;
  const apiKey = actor.type === 'api_actor' ? str(actor.api_key_name) : null;
  if (!email && !apiKey) return null;
  const row = emptyRow(day, email ? { key: email, email } : { key: `api_key:${apiKey}` });
  const core = obj(record.core_metrics);
  const lines = obj(core.lines_of_code);
  row.sessions = num(core.num_sessions);
  row.linesAdded = num(lines.added);
  row.linesRemoved = num(lines.removed);
  row.commits = num(core.commits_by_claude_code);
  row.pullRequests = num(core.pull_requests_by_claude_code);
  for (const action of Object.values(obj(record.tool_actions))) {
    row.editsAccepted += num(obj(action).accepted);
    row.editsRejected += num(obj(action).rejected);
  }
  for (const entry of arr(record.model_breakdown)) {
    const model = str(obj(entry).model) ?? 'unknown';
    const t = obj(obj(entry).tokens);
    const tokens = { input: num(t.input), output: num(t.output), cacheRead: num(t.cache_read), cacheWrite: num(t.cache_creation) };
    row.inputTokens += tokens.input;
    row.outputTokens += tokens.output;
    row.cacheReadTokens += tokens.cacheRead;
    row.cacheWriteTokens += tokens.cacheWrite;
    const prior = row.tokensByModel[model] ?? { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
    row.tokensByModel[model] = { input: prior.input! + tokens.input, output: prior.output! + tokens.output, cacheRead: prior.cacheRead! + tokens.cacheRead, cacheWrite: prior.cacheWrite! + tokens.cacheWrite };
  }
  const terminal = str(record.terminal_type);
  if (terminal) row.details = { terminals: [terminal] };
  return row;
}

export interface ClaudePage {
  rows: DayRow[];
  next: string | null;
}

/** One page of one day's report. */
export async function claudePage(baseUrl: string, key: string, day: string, page: string | null, o: { pace: Pace; signal: AbortSignal }): Promise<ClaudePage> {
  const url = new URL(`${baseUrl}/v1/organizations/usage_report/claude_code`);
  url.searchParams.set('starting_at', day);
  url.searchParams.set('limit', String(PAGE_LIMIT));
  if (page !== null) url.searchParams.set('page', page);
  const call: CallOptions = { vendor: VENDOR, ...o };
  const body = await jsonOf<{ data?: unknown; has_more?: unknown; next_page?: unknown }>(await vendorFetch(url.href, { headers: headers(key) }, call), VENDOR, `the Claude Code report of ${day}`);
  const rows = arr(body.data).flatMap((r) => claudeRecord(day, obj(r)) ?? []);
  const next = body.has_more === true ? str(body.next_page) : null;
  return { rows, next };
}

/** The test call on save: the first record of yesterday's report. Throws VendorKeyRefused when the key is refused. */
export async function claudeTest(baseUrl: string, key: string, day: string, o: { pace: Pace; signal: AbortSignal }): Promise<void> {
  const url = new URL(`${baseUrl}/v1/organizations/usage_report/claude_code`);
  url.searchParams.set('starting_at', day);
  url.searchParams.set('limit', '1');
  await jsonOf(await vendorFetch(url.href, { headers: headers(key) }, { vendor: VENDOR, ...o }), VENDOR, 'a test request');
}
