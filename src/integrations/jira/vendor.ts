/**
 * Jira Cloud through OAuth 2.0 (3LO): consent at auth.atlassian.com, the REST API v3 of each site
 * under api.atlassian.com/ex/jira/<cloudId>. The REST calls go through `jira.js` (5.x, the line
 * that runs on Node 20) with the site's base URL as its host; the OAuth exchanges are plain
 * RFC 6749 posts, because jira.js's own OAuth manager has Atlassian's token URL built in and no
 * override for tests.
 */
import type { Version3Client } from 'jira.js';
import type { TrackerApp } from '../../config/index.js';
import {
  postToken,
  retryAfterSeconds,
  TrackerGrantRefused,
  TrackerRateLimited,
  TrackerUnavailable,
  type Page,
  type TrackerIssue,
  type TrackerVendor,
  type WebhookContext,
} from '../trackers/types.js';
import { trimEnd } from '../../shared/text.js';

/** read: issues and users; manage: registering the dynamic webhooks; offline_access: refresh tokens. */
export const JIRA_SCOPES = 'read:jira-work read:jira-user manage:jira-webhook offline_access';
const PAGE_SIZE = 100;
const FIELDS = ['summary', 'issuetype', 'status', 'labels', 'reporter', 'creator', 'assignee', 'created', 'updated', 'resolutiondate', 'project', 'description'];

export const siteBaseUrl = (app: TrackerApp, cloudId: string) => `${app.apiBaseUrl}/ex/jira/${encodeURIComponent(cloudId)}`;

/**
 * jira.js, loaded at the first Jira call rather than at start (0.6 s of CPU to import, and most
 * instances never connect Jira; docs/architecture.md, "Vendor SDKs load when first used").
 */
let jira: typeof import('jira.js') | null = null;

export async function jiraClient(app: TrackerApp, cloudId: string, accessToken: string): Promise<Version3Client> {
  jira ??= await import('jira.js');
  return new jira.Version3Client({ host: siteBaseUrl(app, cloudId), authentication: { oauth2: { accessToken } }, baseRequestConfig: { timeout: 30_000 } });
}

/** Only a loaded jira.js can have thrown one. */
const isHttpException = (error: unknown): error is import('jira.js').HttpException => jira !== null && error instanceof jira.HttpException;

/** jira.js errors (HttpException over axios) as the tracker errors the sync understands. */
export function vendorError(error: unknown): Error {
  if (isHttpException(error)) {
    const cause = error.cause as { response?: { headers?: Record<string, string> } } | undefined;
    if (error.status === 429) return new TrackerRateLimited(retryAfterSeconds(cause?.response?.headers?.['retry-after']));
    if (error.status === 401) return new TrackerGrantRefused('Jira refused the access token (HTTP 401)');
    return new TrackerUnavailable(`Jira answered HTTP ${error.status}`);
  }
  return new TrackerUnavailable('Jira could not be reached');
}

type User = { accountId?: string; displayName?: string; emailAddress?: string } | null | undefined;
const who = (u: User) => u?.emailAddress ?? u?.displayName ?? u?.accountId ?? null;
const iso = (value: unknown) => (typeof value === 'string' && !Number.isNaN(Date.parse(value)) ? new Date(value).toISOString() : null);

/** The text of an Atlassian Document Format body (paragraph breaks kept), or a plain string as is. */
export function adfText(node: unknown): string | null {
  if (node == null) return null;
  if (typeof node === 'string') return node;
  const out: string[] = [];
  const walk = (n: { type?: string; text?: string; content?: unknown[] }) => {
    if (typeof n.text === 'string') out.push(n.text);
    for (const child of n.content ?? []) walk(child as typeof n);
    if (n.type === 'paragraph' || n.type === 'heading' || n.type === 'listItem') out.push('\n');
  };
  walk(node as { content?: unknown[] });
  const text = out.join('').trim();
  return text === '' ? null : text;
}

const CATEGORY = { new: 'open', indeterminate: 'in_progress', done: 'closed' } as const;

/** A REST (or webhook: the same shape) issue as a TrackerIssue. */
export function jiraIssue(issue: { id?: unknown; key?: unknown; fields?: Record<string, any> }, siteUrl: string | null): TrackerIssue {
  const f = issue.fields ?? {};
  const key = String(issue.key ?? issue.id);
  const category = f.status?.statusCategory?.key as keyof typeof CATEGORY | undefined;
  const created = iso(f.created) ?? new Date().toISOString();
  return {
    id: String(issue.id),
    key,
    project: String(f.project?.key ?? key.split('-')[0]),
    title: String(f.summary ?? key),
    issueType: typeof f.issuetype?.name === 'string' ? f.issuetype.name : null,
    labels: Array.isArray(f.labels) ? f.labels.map(String) : [],
    status: String(f.status?.name ?? 'Unknown'),
    statusCategory: (category && CATEGORY[category]) ?? (f.resolutiondate ? 'closed' : 'open'),
    body: adfText(f.description),
    url: siteUrl ? `${trimEnd(siteUrl, '/')}/browse/${key}` : null,
    author: who(f.reporter ?? f.creator),
    assignee: who(f.assignee),
    createdAt: created,
    resolvedAt: iso(f.resolutiondate),
    updatedAt: iso(f.updated) ?? created,
  };
}

/** Relative JQL (`-N minutes`) is independent of the app user's time zone, unlike a date literal. */
export const updatedSinceJql = (since: Date, now = Date.now()) => `updated >= "-${Math.max(1, Math.ceil((now - since.getTime()) / 60_000))}m" ORDER BY updated ASC, key ASC`;

const ID_PAGE_SIZE = 5000;
export const createdSinceJql = (since: Date, now = Date.now()) => `created >= "-${Math.max(1, Math.ceil((now - since.getTime()) / 60_000))}m" ORDER BY created ASC, key ASC`;

export const jiraVendor: TrackerVendor = {
  kind: 'jira',

  authorizeUrl(app, state) {
    const params = new URLSearchParams({ audience: 'api.atlassian.com', client_id: app.clientId, scope: JIRA_SCOPES, redirect_uri: app.redirectUri, state, response_type: 'code', prompt: 'consent' });
    return `${app.authBaseUrl}/authorize?${params}`;
  },

  exchangeCode(app, code) {
    return postToken(`${app.authBaseUrl}/oauth/token`, { grant_type: 'authorization_code', client_id: app.clientId, client_secret: app.clientSecret, code, redirect_uri: app.redirectUri }, false);
  },

  refresh(app, refreshToken) {
    return postToken(`${app.authBaseUrl}/oauth/token`, { grant_type: 'refresh_token', client_id: app.clientId, client_secret: app.clientSecret, refresh_token: refreshToken }, false);
  },

  async sites(app, accessToken) {
    let res: Response;
    try {
      res = await fetch(`${app.apiBaseUrl}/oauth/token/accessible-resources`, { headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' }, signal: AbortSignal.timeout(15_000) });
    } catch {
      throw new TrackerUnavailable('Jira could not be reached');
    }
    if (res.status === 401) throw new TrackerGrantRefused('Jira refused the access token (HTTP 401)');
    if (!res.ok) throw new TrackerUnavailable(`Jira answered HTTP ${res.status}`);
    const resources = (await res.json()) as { id: string; name?: string; url?: string }[];
    return resources.filter((r) => typeof r.id === 'string').map((r) => ({ externalId: r.id, displayName: r.name ?? r.url ?? null, url: r.url ?? null }));
  },

  async page(app, site, accessToken, since, cursor): Promise<Page> {
    // The query of the first page is kept in the cursor: a next-page token belongs to its query.
    const jql = typeof cursor?.jql === 'string' ? cursor.jql : updatedSinceJql(since);
    try {
      const result = await (await jiraClient(app, site.externalId, accessToken)).issueSearch.searchForIssuesUsingJqlEnhancedSearch({
        jql,
        maxResults: PAGE_SIZE,
        fields: FIELDS,
        ...(typeof cursor?.nextPageToken === 'string' ? { nextPageToken: cursor.nextPageToken } : {}),
      });
      const issues = (result.issues ?? []).map((i) => jiraIssue(i as never, site.url));
      const token = (result as { nextPageToken?: string }).nextPageToken;
      return { issues, next: token && !(result as { isLast?: boolean }).isLast ? { jql, nextPageToken: token } : null };
    } catch (error) {
      throw vendorError(error);
    }
  },

  async listIds(app, site, accessToken, createdSince, cursor) {
    // Bounded by creation (the enhanced search refuses unbounded JQL, and a project clause would
    // fail on a deleted project); ids only, the cheapest page Jira serves (up to 5,000 issues).
    const jql = typeof cursor?.jql === 'string' ? cursor.jql : createdSinceJql(createdSince);
    try {
      const result = await (await jiraClient(app, site, accessToken)).issueSearch.searchForIssuesUsingJqlEnhancedSearch({
        jql,
        maxResults: ID_PAGE_SIZE,
        fields: ['id'],
        ...(typeof cursor?.nextPageToken === 'string' ? { nextPageToken: cursor.nextPageToken } : {}),
      });
      const token = (result as { nextPageToken?: string }).nextPageToken;
      return { ids: (result.issues ?? []).map((i) => String(i.id)), next: token && !(result as { isLast?: boolean }).isLast ? { jql, nextPageToken: token } : null };
    } catch (error) {
      throw vendorError(error);
    }
  },

  async issueExists(app, site, accessToken, trackerId) {
    try {
      await (await jiraClient(app, site, accessToken)).issues.getIssue({ issueIdOrKey: trackerId, fields: ['id'] });
      return true;
    } catch (error) {
      if (isHttpException(error) && error.status === 404) return false;
      throw vendorError(error);
    }
  },

  ensureWebhook: ensureJiraWebhook,
  removeWebhook: removeJiraWebhook,

  async revoke() {
    // Atlassian offers no revocation endpoint for 3LO grants: the user removes the app under
    // their account's "Connected apps". Disconnecting deletes our tokens and webhooks.
    return false;
  },
};

const WEBHOOK_EVENTS = ['jira:issue_created', 'jira:issue_updated', 'jira:issue_deleted'];
/** Dynamic webhooks live 30 days; renewed when fewer than this many remain. */
const RENEW_BEFORE_MS = 7 * 24 * 3600_000;
// A dynamic webhook needs a filter, and only a few JQL clauses are allowed there: this one matches every issue.
const ALL_ISSUES = 'project != "DELIVERY-ANALYTICS-NONE"';

async function ensureJiraWebhook(w: WebhookContext): Promise<Record<string, unknown>> {
  const client = await jiraClient(w.app, w.site, w.accessToken);
  const ids = Array.isArray(w.current?.ids) ? (w.current.ids as number[]) : [];
  const expires = typeof w.current?.expiresAt === 'string' ? Date.parse(w.current.expiresAt) : 0;
  try {
    if (ids.length > 0 && w.current?.url === w.url) {
      if (expires - Date.now() > RENEW_BEFORE_MS) return w.current as Record<string, unknown>;
      const renewed = await client.webhooks.refreshWebhooks({ webhookIds: ids });
      return { ...w.current, expiresAt: renewed.expirationDate ?? null };
    }
    // Registered at another URL (before the site key was part of it): Jira would keep sending those
    // for up to 30 days, every one refused, so they go before the new ones come.
    if (ids.length > 0) await client.webhooks.deleteWebhookById({ webhookIds: ids }).catch(() => undefined);
    const made = await client.webhooks.registerDynamicWebhooks({ url: w.url, webhooks: [{ events: WEBHOOK_EVENTS as never, jqlFilter: ALL_ISSUES }] });
    const created = (made.webhookRegistrationResult ?? []).map((r) => r.createdWebhookId).filter((id): id is number => typeof id === 'number');
    return { ids: created, url: w.url, expiresAt: new Date(Date.now() + 30 * 24 * 3600_000).toISOString() };
  } catch (error) {
    throw vendorError(error);
  }
}

async function removeJiraWebhook(w: WebhookContext): Promise<void> {
  const ids = Array.isArray(w.current?.ids) ? (w.current.ids as number[]) : [];
  if (ids.length > 0) await (await jiraClient(w.app, w.site, w.accessToken)).webhooks.deleteWebhookById({ webhookIds: ids }).catch(() => undefined);
}
