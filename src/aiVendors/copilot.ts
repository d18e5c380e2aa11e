/**
 * GitHub Copilot's usage metrics reports and seats (REST). A day's report is fetched in two steps:
 * `GET /orgs/{org}/copilot/metrics/reports/users-1-day?day=` (and `user-teams-1-day`) answer
 * `{ download_links, report_day }`, and each link is a signed, time-limited NDJSON file of per-user
 * records (fields as GitHub's example schema). Seats: `GET /orgs/{org}/copilot/billing/seats`,
 * paged by its Link header. The organisation's access is a saved token, or the code-host
 * application's installation on that organisation (src/codehost/restClient.ts).
 */
import { CodehostApiError, CodehostRateLimited, CodehostRestClient, nextLink } from '../codehost/restClient.js';
import type { CodehostAppConfig } from '../config/codehost.js';
import { arr, num, obj, parseNdjson, str, VendorKeyRefused, VendorRateLimited, VendorUnavailable, vendorFetch, type Pace } from './http.js';
import { emptyRow, type DayRow } from './rows.js';

const VENDOR = 'GitHub';
const HEADERS = { accept: 'application/vnd.github+json', 'x-github-api-version': '2022-11-28', 'user-agent': 'delivery-analytics' };

export interface GithubAnswer {
  status: number;
  body: unknown;
  next: string | null;
}

/** A GET on the GitHub API as the organisation's saved token or the application's installation. */
export type GithubGet = (path: string) => Promise<GithubAnswer>;

interface Calling {
  pace: Pace;
  signal: AbortSignal;
}

export function tokenAccess(apiUrl: string, token: string, o: Calling): GithubGet {
  return async (path) => {
    const url = path.startsWith('http') ? path : `${apiUrl}${path}`;
    // A next link is followed only on the configured API: the token never leaves for another host.
    if (new URL(url).origin !== new URL(apiUrl).origin) throw new VendorUnavailable(`GitHub linked to another origin (${new URL(url).origin})`);
    const res = await vendorFetch(url, { headers: { ...HEADERS, authorization: `Bearer ${token}` } }, { vendor: VENDOR, ...o });
    const next = nextLink(res.headers.get('link'));
    if (!res.ok) {
      await res.body?.cancel();
      return { status: res.status, body: null, next: null };
    }
    return { status: res.status, body: await res.json().catch(() => null), next };
  };
}

export function installationAccess(app: NonNullable<CodehostAppConfig>, installationId: number, o: Calling): GithubGet {
  const client = new CodehostRestClient(app, o.signal);
  return async (path) => {
    for (let attempt = 1; ; attempt++) {
      try {
        const page = await client.get<unknown>(installationId, path.startsWith('http') ? new URL(path).pathname + new URL(path).search : path);
        return { status: 200, body: page.body, next: page.next };
      } catch (error) {
        if (error instanceof CodehostRateLimited) {
          const wait = Math.max(1, Math.ceil((error.resetAt.getTime() - Date.now()) / 1000));
          if (wait > o.pace.maxWaitSeconds || attempt >= 5) throw new VendorRateLimited(wait, VENDOR);
          await o.pace.sleep(wait * 1000, o.signal);
          continue;
        }
        if (error instanceof CodehostApiError && error.status !== 0) return { status: error.status, body: null, next: null };
        throw new VendorUnavailable(`GitHub could not be reached (${(error as Error).message})`);
      }
    }
  };
}

function refused(status: number, what: string): never {
  if (status === 401 || status === 403) throw new VendorKeyRefused(status, `GitHub refused access (HTTP ${status}) to ${what}: the token needs manage_billing:copilot (or read:org), the application "Copilot metrics" and "Copilot Business" read permissions`);
  throw new VendorUnavailable(`GitHub answered HTTP ${status} for ${what}`);
}

/** A Copilot user record of the users-1-day report as a person-day. */
export function copilotRecord(day: string, record: Record<string, unknown>): DayRow | null {
  const login = str(record.user_login)?.toLowerCase();
  if (!login) return null;
  const row = emptyRow(day, { key: `login:${login}`, login });
  const cli = obj(record.totals_by_cli);
  const cliTokens = obj(cli.token_usage);
  row.sessions = num(cli.session_count);
  row.requests = num(record.user_initiated_interaction_count);
  row.linesAdded = num(record.loc_added_sum);
  row.linesRemoved = num(record.loc_deleted_sum);
  row.linesSuggested = num(record.loc_suggested_to_add_sum);
  row.editsAccepted = num(record.code_acceptance_activity_count);
  // Copilot counts what it generated and what was accepted: the rest was shown and not taken.
  row.editsRejected = Math.max(0, num(record.code_generation_activity_count) - num(record.code_acceptance_activity_count));
  row.inputTokens = num(cliTokens.prompt_tokens_sum);
  row.outputTokens = num(cliTokens.output_tokens_sum);
  const names = (list: unknown, key: string) => [...new Set(arr(list).flatMap((e) => str(obj(e)[key]) ?? []))].sort();
  row.details = {
    usedAgent: record.used_agent === true,
    usedChat: record.used_chat === true,
    ides: names(record.totals_by_ide, 'ide'),
    features: names(record.totals_by_feature, 'feature'),
    models: names(record.totals_by_model_feature, 'model'),
  };
  return row;
}

async function reportFiles(get: GithubGet, org: string, report: 'users-1-day' | 'user-teams-1-day', day: string, o: Calling): Promise<Record<string, unknown>[] | null> {
  const what = `the Copilot ${report} report of ${day}`;
  const answer = await get(`/orgs/${encodeURIComponent(org)}/copilot/metrics/reports/${report}?day=${day}`);
  // No report for the day (not generated yet, or before the organisation had one): nothing to replace.
  if (answer.status === 404 || answer.status === 204) return null;
  if (answer.status !== 200) refused(answer.status, what);
  const records: Record<string, unknown>[] = [];
  for (const link of arr(obj(answer.body).download_links)) {
    if (typeof link !== 'string' || !/^https?:\/\//.test(link)) continue;
    // Signed URLs: no credential goes with them.
    const res = await vendorFetch(link, { headers: { 'user-agent': 'delivery-analytics' } }, { vendor: VENDOR, ...o });
    if (!res.ok) {
      await res.body?.cancel();
      throw new VendorUnavailable(`GitHub answered HTTP ${res.status} for a file of ${what}`);
    }
    records.push(...parseNdjson(await res.text(), what));
  }
  return records;
}

/** One day's person-days (null: GitHub has no report for that day), with each person's GitHub teams. */
export async function copilotDay(get: GithubGet, org: string, day: string, o: Calling): Promise<DayRow[] | null> {
  const users = await reportFiles(get, org, 'users-1-day', day, o);
  if (users === null) return null;
  const teams = new Map<string, Set<string>>();
  for (const t of (await reportFiles(get, org, 'user-teams-1-day', day, o)) ?? []) {
    const login = str(t.user_login)?.toLowerCase();
    // The documented row (organization_user_teams_1_day): user_id, user_login, day, organization_id, team_id, slug.
    const team = str(t.slug) ?? str(t.team_slug) ?? (t.team_id !== undefined ? String(t.team_id) : null);
    if (login && team) teams.set(login, (teams.get(login) ?? new Set()).add(team));
  }
  return users.flatMap((u) => {
    const row = copilotRecord(day, u);
    if (!row) return [];
    const mine = teams.get(row.personLogin!);
    if (mine) row.details.githubTeams = [...mine].sort();
    return [row];
  });
}

export interface CopilotSeat {
  login: string;
  createdAt: string | null;
  lastActivityAt: string | null;
}

/** Every seat of the organisation, page by page. */
export async function copilotSeats(get: GithubGet, org: string): Promise<CopilotSeat[]> {
  const seats: CopilotSeat[] = [];
  let path: string | null = `/orgs/${encodeURIComponent(org)}/copilot/billing/seats?per_page=100`;
  while (path !== null) {
    const answer = await get(path);
    if (answer.status !== 200) refused(answer.status, 'the Copilot seats');
    for (const s of arr(obj(answer.body).seats)) {
      const login = str(obj(obj(s).assignee).login)?.toLowerCase();
      if (login) seats.push({ login, createdAt: str(obj(s).created_at), lastActivityAt: str(obj(s).last_activity_at) });
    }
    path = answer.next;
  }
  return seats;
}

/** The test call on save: the first seat. */
export async function copilotTest(get: GithubGet, org: string): Promise<void> {
  const answer = await get(`/orgs/${encodeURIComponent(org)}/copilot/billing/seats?per_page=1`);
  if (answer.status === 404) throw new VendorKeyRefused(404, `GitHub knows no organisation "${org}" with Copilot that this access can read (HTTP 404)`);
  if (answer.status !== 200) refused(answer.status, 'the Copilot seats');
}
