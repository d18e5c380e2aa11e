import { HttpException, Version3Client } from "jira.js";
import {
  postToken,
  retryAfterSeconds,
  TrackerGrantRefused,
  TrackerRateLimited,
  TrackerUnavailable
} from "../trackers/types.js";
const JIRA_SCOPES = "read:jira-work read:jira-user manage:jira-webhook offline_access";
const PAGE_SIZE = 100;
const FIELDS = ["summary", "issuetype", "status", "labels", "reporter", "creator", "assignee", "created", "updated", "resolutiondate", "project", "description"];
const siteBaseUrl = (app, cloudId) => `${app.apiBaseUrl}/ex/jira/${encodeURIComponent(cloudId)}`;
function jiraClient(app, cloudId, accessToken) {
  return new Version3Client({ host: siteBaseUrl(app, cloudId), authentication: { oauth2: { accessToken } }, baseRequestConfig: { timeout: 3e4 } });
}
function vendorError(error) {
  if (error instanceof HttpException) {
    const cause = error.cause;
    if (error.status === 429) return new TrackerRateLimited(retryAfterSeconds(cause?.response?.headers?.["retry-after"]));
    if (error.status === 401) return new TrackerGrantRefused("Jira refused the access token (HTTP 401)");
    return new TrackerUnavailable(`Jira answered HTTP ${error.status}`);
  }
  return new TrackerUnavailable("Jira could not be reached");
}
const who = (u) => u?.emailAddress ?? u?.displayName ?? u?.accountId ?? null;
const iso = (value) => typeof value === "string" && !Number.isNaN(Date.parse(value)) ? new Date(value).toISOString() : null;
function adfText(node) {
  if (node == null) return null;
  if (typeof node === "string") return node;
  const out = [];
  const walk = (n) => {
    if (typeof n.text === "string") out.push(n.text);
    for (const child of n.content ?? []) walk(child);
    if (n.type === "paragraph" || n.type === "heading" || n.type === "listItem") out.push("\n");
  };
  walk(node);
  const text = out.join("").trim();
  return text === "" ? null : text;
}
const CATEGORY = { new: "open", indeterminate: "in_progress", done: "closed" };
function jiraIssue(issue, siteUrl) {
  const f = issue.fields ?? {};
  const key = String(issue.key ?? issue.id);
  const category = f.status?.statusCategory?.key;
  const created = iso(f.created) ?? (/* @__PURE__ */ new Date()).toISOString();
  return {
    id: String(issue.id),
    key,
    project: String(f.project?.key ?? key.split("-")[0]),
    title: String(f.summary ?? key),
    issueType: typeof f.issuetype?.name === "string" ? f.issuetype.name : null,
    labels: Array.isArray(f.labels) ? f.labels.map(String) : [],
    status: String(f.status?.name ?? "Unknown"),
    statusCategory: (category && CATEGORY[category]) ?? (f.resolutiondate ? "closed" : "open"),
    body: adfText(f.description),
    url: siteUrl ? `${siteUrl.replace(/\/+$/, "")}/browse/${key}` : null,
    author: who(f.reporter ?? f.creator),
    assignee: who(f.assignee),
    createdAt: created,
    resolvedAt: iso(f.resolutiondate),
    updatedAt: iso(f.updated) ?? created
  };
}
const updatedSinceJql = (since, now = Date.now()) => `updated >= "-${Math.max(1, Math.ceil((now - since.getTime()) / 6e4))}m" ORDER BY updated ASC, key ASC`;
const ID_PAGE_SIZE = 5e3;
const createdSinceJql = (since, now = Date.now()) => `created >= "-${Math.max(1, Math.ceil((now - since.getTime()) / 6e4))}m" ORDER BY created ASC, key ASC`;
const jiraVendor = {
  kind: "jira",
  authorizeUrl(app, state) {
    const params = new URLSearchParams({ audience: "api.atlassian.com", client_id: app.clientId, scope: JIRA_SCOPES, redirect_uri: app.redirectUri, state, response_type: "code", prompt: "consent" });
    return `${app.authBaseUrl}/authorize?${params}`;
  },
  exchangeCode(app, code) {
    return postToken(`${app.authBaseUrl}/oauth/token`, { grant_type: "authorization_code", client_id: app.clientId, client_secret: app.clientSecret, code, redirect_uri: app.redirectUri }, false);
  },
  refresh(app, refreshToken) {
    return postToken(`${app.authBaseUrl}/oauth/token`, { grant_type: "refresh_token", client_id: app.clientId, client_secret: app.clientSecret, refresh_token: refreshToken }, false);
  },
  async sites(app, accessToken) {
    let res;
    try {
      res = await fetch(`${app.apiBaseUrl}/oauth/token/accessible-resources`, { headers: { authorization: `Bearer ${accessToken}`, accept: "application/json" }, signal: AbortSignal.timeout(15e3) });
    } catch {
      throw new TrackerUnavailable("Jira could not be reached");
    }
    if (res.status === 401) throw new TrackerGrantRefused("Jira refused the access token (HTTP 401)");
    if (!res.ok) throw new TrackerUnavailable(`Jira answered HTTP ${res.status}`);
    const resources = await res.json();
    return resources.filter((r) => typeof r.id === "string").map((r) => ({ externalId: r.id, displayName: r.name ?? r.url ?? null, url: r.url ?? null }));
  },
  async page(app, site, accessToken, since, cursor) {
    const jql = typeof cursor?.jql === "string" ? cursor.jql : updatedSinceJql(since);
    try {
      const result = await jiraClient(app, site.externalId, accessToken).issueSearch.searchForIssuesUsingJqlEnhancedSearch({
        jql,
        maxResults: PAGE_SIZE,
        fields: FIELDS,
        ...typeof cursor?.nextPageToken === "string" ? { nextPageToken: cursor.nextPageToken } : {}
      });
      const issues = (result.issues ?? []).map((i) => jiraIssue(i, site.url));
      const token = result.nextPageToken;
      return { issues, next: token && !result.isLast ? { jql, nextPageToken: token } : null };
    } catch (error) {
      throw vendorError(error);
    }
  },
  async listIds(app, site, accessToken, createdSince, cursor) {
    const jql = typeof cursor?.jql === "string" ? cursor.jql : createdSinceJql(createdSince);
    try {
      const result = await jiraClient(app, site, accessToken).issueSearch.searchForIssuesUsingJqlEnhancedSearch({
        jql,
        maxResults: ID_PAGE_SIZE,
        fields: ["id"],
        ...typeof cursor?.nextPageToken === "string" ? { nextPageToken: cursor.nextPageToken } : {}
      });
      const token = result.nextPageToken;
      return { ids: (result.issues ?? []).map((i) => String(i.id)), next: token && !result.isLast ? { jql, nextPageToken: token } : null };
    } catch (error) {
      throw vendorError(error);
    }
  },
  async issueExists(app, site, accessToken, trackerId) {
    try {
      await jiraClient(app, site, accessToken).issues.getIssue({ issueIdOrKey: trackerId, fields: ["id"] });
      return true;
    } catch (error) {
      if (error instanceof HttpException && error.status === 404) return false;
      throw vendorError(error);
    }
  },
  ensureWebhook: ensureJiraWebhook,
  removeWebhook: removeJiraWebhook,
  async revoke() {
    return false;
  }
};
const WEBHOOK_EVENTS = ["jira:issue_created", "jira:issue_updated", "jira:issue_deleted"];
const RENEW_BEFORE_MS = 7 * 24 * 36e5;
const ALL_ISSUES = 'project != "DELIVERY-ANALYTICS-NONE"';
async function ensureJiraWebhook(w) {
  const client = jiraClient(w.app, w.site, w.accessToken);
  const ids = Array.isArray(w.current?.ids) ? w.current.ids : [];
  const expires = typeof w.current?.expiresAt === "string" ? Date.parse(w.current.expiresAt) : 0;
  try {
    if (ids.length > 0 && w.current?.url === w.url) {
      if (expires - Date.now() > RENEW_BEFORE_MS) return w.current;
      const renewed = await client.webhooks.refreshWebhooks({ webhookIds: ids });
      return { ...w.current, expiresAt: renewed.expirationDate ?? null };
    }
    if (ids.length > 0) await client.webhooks.deleteWebhookById({ webhookIds: ids }).catch(() => void 0);
    const made = await client.webhooks.registerDynamicWebhooks({ url: w.url, webhooks: [{ events: WEBHOOK_EVENTS, jqlFilter: ALL_ISSUES }] });
    const created = (made.webhookRegistrationResult ?? []).map((r) => r.createdWebhookId).filter((id) => typeof id === "number");
    return { ids: created, url: w.url, expiresAt: new Date(Date.now() + 30 * 24 * 36e5).toISOString() };
  } catch (error) {
    throw vendorError(error);
  }
}
async function removeJiraWebhook(w) {
  const ids = Array.isArray(w.current?.ids) ? w.current.ids : [];
  if (ids.length > 0) await jiraClient(w.app, w.site, w.accessToken).webhooks.deleteWebhookById({ webhookIds: ids }).catch(() => void 0);
}
export {
  JIRA_SCOPES,
  adfText,
  createdSinceJql,
  jiraClient,
  jiraIssue,
  jiraVendor,
  siteBaseUrl,
  updatedSinceJql,
  vendorError
};
