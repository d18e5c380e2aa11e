/**
 * What the two issue trackers have in common: an OAuth application, sites (Jira cloud sites, Linear
 * workspaces), and pages of issues updated since a time. Each vendor (src/integrations/jira,
 * src/integrations/linear) implements `TrackerVendor`; the sync, the routes and the mapping only
 * know this interface.
 */
import type { TrackerApp } from '../../config/index.js';

export const TRACKER_KINDS = ['jira', 'linear'] as const;
export type TrackerKind = (typeof TRACKER_KINDS)[number];

/** An issue as the tracker has it, before the owner's mapping turns it into one of ours. */
export interface TrackerIssue {
  /** The tracker's own id, stable across moves (Jira issue id, Linear issue UUID). */
  id: string;
  /** What people call it: `ENG-42`. */
  key: string;
  /** The tracker project (Jira project key) or team (Linear team key) the issue belongs to. */
  project: string;
  title: string;
  /** Jira issue type name; Linear has none (its labels say it). */
  issueType: string | null;
  labels: string[];
  /** The tracker's status name (`In Review`) and the category it belongs to. */
  status: string;
  statusCategory: 'open' | 'in_progress' | 'closed';
  body: string | null;
  url: string | null;
  author: string | null;
  assignee: string | null;
  createdAt: string;
  /** Resolution (Jira) or completion/cancellation (Linear) time; null while open. */
  resolvedAt: string | null;
  updatedAt: string;
}

export interface GrantTokens {
  accessToken: string;
  refreshToken: string | null;
  expiresAt: Date | null;
  scopes: string | null;
}

export interface Site {
  externalId: string;
  displayName: string | null;
  /** The site's web address (Jira: https://acme.atlassian.net), for issue links. */
  url: string | null;
}

export interface Page {
  issues: TrackerIssue[];
  /** Tracker ids of issues the page found deleted (Linear's trash); Jira deletes arrive by webhook only. */
  deleted?: string[];
  /** Opaque, JSON-safe: where the next page starts; null on the last page. */
  next: Record<string, unknown> | null;
}

/** The vendor said 429 (or its own words for it): try again after this many seconds. */
export class TrackerRateLimited extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super(`rate limited by the tracker (retry after ${retryAfterSeconds} s)`);
    this.name = 'TrackerRateLimited';
  }
}

/** The vendor refused our grant (expired, revoked, invalid_grant): an owner must connect again. */
export class TrackerGrantRefused extends Error {
  constructor(message = 'the tracker refused the grant') {
    super(message);
    this.name = 'TrackerGrantRefused';
  }
}

/** Any other failure of the vendor (5xx, network): the sync fails this run and is retried later. */
export class TrackerUnavailable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TrackerUnavailable';
  }
}

export interface WebhookContext {
  app: TrackerApp;
  /** Where the vendor posts: APP_URL/api/integrations/<kind>/webhook (with the site for Jira). */
  url: string;
  site: string;
  accessToken: string;
  current: Record<string, unknown> | null;
  /** The signing secret of this connection's webhook (Linear), derived from OAUTH_ENCRYPTION_KEY. */
  secret: string;
}

export interface TrackerVendor {
  kind: TrackerKind;
  authorizeUrl(app: TrackerApp, state: string): string;
  exchangeCode(app: TrackerApp, code: string): Promise<GrantTokens>;
  refresh(app: TrackerApp, refreshToken: string): Promise<GrantTokens>;
  /** The sites or workspaces the grant reaches; one connection is stored for each. */
  sites(app: TrackerApp, accessToken: string): Promise<Site[]>;
  /** One page of issues updated at or after `since`, resuming at `cursor` (a previous page's `next`). */
  page(app: TrackerApp, site: Pick<Site, 'externalId' | 'url'>, accessToken: string, since: Date, cursor: Record<string, unknown> | null): Promise<Page>;
  /**
   * Makes sure the vendor sends us webhooks for this site: registers them, or renews them before
   * they expire (Jira's last 30 days). Returns the registration to keep (ids, expiry).
   */
  ensureWebhook(w: WebhookContext): Promise<Record<string, unknown>>;
  /** Deregisters what `ensureWebhook` registered (on disconnect); failures are ignored. */
  removeWebhook(w: WebhookContext): Promise<void>;
  /**
   * The id sweep, for a tracker whose pages never show deleted issues (Jira): one page of the ids
   * of every issue created at or after `createdSince`, resuming at `cursor`. Absent when the pages
   * already report deletes (Linear's trash).
   */
  listIds?(app: TrackerApp, site: string, accessToken: string, createdSince: Date, cursor: Record<string, unknown> | null): Promise<{ ids: string[]; next: Record<string, unknown> | null }>;
  /** Whether the tracker still has this issue (false only when it answers that it has not: 404). */
  issueExists?(app: TrackerApp, site: string, accessToken: string, trackerId: string): Promise<boolean>;
  /** Revokes the grant at the vendor where it offers a way; false when it does not. */
  revoke(app: TrackerApp, tokens: { accessToken: string; refreshToken: string | null }): Promise<boolean>;
}

/** Retry-After as seconds: a number, or an HTTP date; the fallback when absent or unreadable. */
export function retryAfterSeconds(header: string | null | undefined, fallback = 30): number {
  if (!header) return fallback;
  if (/^\d+$/.test(header.trim())) return Number(header.trim());
  const at = Date.parse(header);
  return Number.isNaN(at) ? fallback : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

/** A token endpoint's answer (RFC 6749 §5.1) as GrantTokens. */
export function grantOf(body: { access_token?: unknown; refresh_token?: unknown; expires_in?: unknown; scope?: unknown }, now = Date.now()): GrantTokens {
  if (typeof body.access_token !== 'string' || body.access_token === '') throw new TrackerUnavailable('the token endpoint answered without an access token');
  return {
    accessToken: body.access_token,
    refreshToken: typeof body.refresh_token === 'string' ? body.refresh_token : null,
    expiresAt: typeof body.expires_in === 'number' ? new Date(now + body.expires_in * 1000) : null,
    scopes: typeof body.scope === 'string' ? body.scope : null,
  };
}

/**
 * POSTs to an OAuth token endpoint. 400/401 is the vendor refusing the code or refresh token
 * (invalid_grant); the response body is never logged or kept (it may echo a token).
 */
export async function postToken(url: string, body: Record<string, string>, form: boolean): Promise<GrantTokens> {
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': form ? 'application/x-www-form-urlencoded' : 'application/json', accept: 'application/json' },
      body: form ? new URLSearchParams(body).toString() : JSON.stringify(body),
      signal: AbortSignal.timeout(15_000),
    });
  } catch {
    throw new TrackerUnavailable('the token endpoint could not be reached');
  }
  if (res.status === 429) throw new TrackerRateLimited(retryAfterSeconds(res.headers.get('retry-after')));
  if (res.status === 400 || res.status === 401 || res.status === 403) throw new TrackerGrantRefused(`the token endpoint refused the grant (HTTP ${res.status})`);
  if (!res.ok) throw new TrackerUnavailable(`the token endpoint answered HTTP ${res.status}`);
  return grantOf((await res.json()) as Record<string, unknown>);
}
