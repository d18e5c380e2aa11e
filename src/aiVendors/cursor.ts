/**
 * Cursor's Admin API (basic auth, the key as user): `POST /teams/daily-usage-data` with
 * `{ startDate, endDate }` in epoch milliseconds (at most 30 days a request) answers a record per
 * member and day; AI Code Tracking `GET /analytics/ai-code/commits` (Enterprise) pages per-commit
 * AI lines by `page`/`pageSize`. Cursor allows 20 requests a minute: calls are spaced 3 s apart.
 */
import { arr, jsonOf, num, obj, str, VendorKeyRefused, vendorFetch, type Pace } from './http.js';
import { emptyRow, utcDay, type DayRow } from './rows.js';

const VENDOR = 'Cursor';
export const CURSOR_MAX_RANGE_DAYS = 30;
export const CURSOR_COMMITS_PAGE_SIZE = 1000;
/** 20 requests a minute. */
const SPACING_MS = 3_000;

export interface CursorCommit {
  sha: string;
  repo: string | null;
  branch: string | null;
  personEmail: string | null;
  committedAt: string | null;
  tabLinesAdded: number;
  composerLinesAdded: number;
  aiLinesDeleted: number;
  nonAiLinesAdded: number;
  totalLinesAdded: number;
  totalLinesDeleted: number;
}

export function cursorUsageRecord(record: Record<string, unknown>): DayRow | null {
  const email = str(record.email)?.toLowerCase();
  const day = utcDay(record.date);
  if (!email || !day) return null;
  const row = emptyRow(day, { key: email, email });
  row.requests = num(record.composerRequests) + num(record.chatRequests) + num(record.agentRequests) + num(record.cmdkUsages);
  row.linesAdded = num(record.acceptedLinesAdded);
  row.linesRemoved = num(record.acceptedLinesDeleted);
  row.linesSuggested = num(record.totalLinesAdded);
  row.editsAccepted = num(record.totalAccepts) + num(record.totalTabsAccepted);
  row.editsRejected = num(record.totalRejects) + Math.max(0, num(record.totalTabsShown) - num(record.totalTabsAccepted));
  const model = str(record.mostUsedModel);
  row.details = { isActive: record.isActive === true, ...(model ? { mostUsedModel: model } : {}) };
  return row;
}

export class CursorClient {
  private lastCall = 0;

  constructor(private readonly baseUrl: string, private readonly key: string, private readonly o: { pace: Pace; signal: AbortSignal }) {}

  private async call(path: string, init: RequestInit): Promise<Response> {
    const wait = this.lastCall + SPACING_MS - Date.now();
    if (this.lastCall > 0 && wait > 0) await this.o.pace.sleep(wait, this.o.signal);
    this.lastCall = Date.now();
    const authorization = `Basic ${Buffer.from(`${this.key}:`).toString('base64')}`;
    return vendorFetch(`${this.baseUrl}${path}`, { ...init, headers: { ...(init.headers ?? {}), authorization, accept: 'application/json', 'user-agent': 'delivery-analytics' } }, { vendor: VENDOR, ...this.o });
  }

  /** Person-days of the UTC days `from`..`to` (inclusive). */
  async usage(from: string, to: string, now = Date.now()): Promise<DayRow[]> {
    const startDate = Date.parse(`${from}T00:00:00Z`);
    const endDate = Math.min(Date.parse(`${to}T23:59:59.999Z`), now);
    const res = await this.call('/teams/daily-usage-data', { method: 'POST', body: JSON.stringify({ startDate, endDate }), headers: { 'content-type': 'application/json' } });
    const body = await jsonOf<{ data?: unknown }>(res, VENDOR, `the daily usage of ${from}..${to}`);
    return arr(body.data).flatMap((r) => cursorUsageRecord(obj(r)) ?? []);
  }

  /** One page of AI Code Tracking's commits; null when the plan does not have it (403 or 404). */
  async commits(from: string, to: string, page: number): Promise<{ commits: CursorCommit[]; more: boolean } | null> {
    const q = new URLSearchParams({ startDate: from, endDate: to, page: String(page), pageSize: String(CURSOR_COMMITS_PAGE_SIZE) });
    const res = await this.call(`/analytics/ai-code/commits?${q}`, {});
    if (res.status === 403 || res.status === 404) {
      await res.body?.cancel();
      return null;
    }
    const body = await jsonOf<{ items?: unknown; totalCount?: unknown; page?: unknown; pageSize?: unknown }>(res, VENDOR, 'the AI commit metrics');
    const items = arr(body.items);
    const commits = items.flatMap((i): CursorCommit[] => {
      const c = obj(i);
      const sha = str(c.commitHash)?.toLowerCase();
      if (!sha) return [];
      const ts = c.commitTs ?? c.createdAt;
      const ms = typeof ts === 'number' ? ts : typeof ts === 'string' ? Date.parse(ts) : Number.NaN;
      return [{
        sha,
        repo: str(c.repoName),
        branch: str(c.branchName),
        personEmail: str(c.userEmail)?.toLowerCase() ?? null,
        committedAt: Number.isFinite(ms) ? new Date(ms).toISOString() : null,
        tabLinesAdded: num(c.tabLinesAdded),
        composerLinesAdded: num(c.composerLinesAdded),
        aiLinesDeleted: num(c.tabLinesDeleted) + num(c.composerLinesDeleted),
        nonAiLinesAdded: num(c.nonAiLinesAdded),
        totalLinesAdded: num(c.totalLinesAdded),
        totalLinesDeleted: num(c.totalLinesDeleted),
      }];
    });
    const total = num(body.totalCount);
    // The page size Cursor used (it may give fewer than asked for) decides whether a next page exists.
    const size = num(body.pageSize) || CURSOR_COMMITS_PAGE_SIZE;
    const more = items.length > 0 && (total > 0 ? page * size < total : items.length >= size);
    return { commits, more };
  }

  /** The test call on save: the team's members. */
  async test(): Promise<void> {
    const res = await this.call('/teams/members', {});
    if (res.status === 404) throw new VendorKeyRefused(404, 'Cursor answered HTTP 404: is this an Admin API key of a team?');
    await jsonOf(res, VENDOR, 'a test request');
  }
}
