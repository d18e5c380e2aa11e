import { AuthenticationLinearError, LinearClient, LinearError, RatelimitedLinearError } from "@linear/sdk";
import { postToken, TrackerGrantRefused, TrackerRateLimited, TrackerUnavailable } from "../trackers/types.js";
const LINEAR_SCOPES = "read,admin";
const PAGE_SIZE = 100;
const graphqlUrl = (app) => `${app.apiBaseUrl}/graphql`;
const linearClient = (app, accessToken) => new LinearClient({ accessToken, apiUrl: graphqlUrl(app) });
const ISSUE_FIELDS = `id identifier title description url createdAt updatedAt completedAt canceledAt trashed
  state { name type } team { key } labels { nodes { name } } creator { name email } assignee { name email }`;
const ISSUES_QUERY = `query TrackerIssues($first: Int!, $after: String, $since: DateTimeOrDuration!) {
  issues(first: $first, after: $after, includeArchived: true, orderBy: updatedAt, filter: { updatedAt: { gte: $since } }) {
    nodes { ${ISSUE_FIELDS} }
    pageInfo { hasNextPage endCursor }
  }
}`;
function vendorError(error) {
  if (error instanceof RatelimitedLinearError) return new TrackerRateLimited(error.retryAfter ?? 60);
  if (error instanceof AuthenticationLinearError) return new TrackerGrantRefused("Linear refused the access token");
  if (error instanceof LinearError) return new TrackerUnavailable(`Linear answered ${error.status ? `HTTP ${error.status}` : "with an error"}`);
  return new TrackerUnavailable("Linear could not be reached");
}
const CATEGORY = { completed: "closed", canceled: "closed", started: "in_progress" };
const who = (p) => p?.email ?? p?.name ?? null;
function linearIssue(i) {
  const labels = Array.isArray(i.labels) ? i.labels : i.labels?.nodes ?? [];
  const key = String(i.identifier ?? i.id);
  return {
    id: String(i.id),
    key,
    project: String(i.team?.key ?? key.split("-")[0]),
    title: String(i.title ?? key),
    issueType: null,
    labels: labels.map((l) => String(l.name)),
    status: String(i.state?.name ?? "Unknown"),
    statusCategory: CATEGORY[String(i.state?.type)] ?? (i.completedAt || i.canceledAt ? "closed" : "open"),
    body: typeof i.description === "string" && i.description !== "" ? i.description : null,
    url: typeof i.url === "string" ? i.url : null,
    author: who(i.creator),
    assignee: who(i.assignee),
    createdAt: new Date(i.createdAt).toISOString(),
    resolvedAt: i.completedAt ? new Date(i.completedAt).toISOString() : i.canceledAt ? new Date(i.canceledAt).toISOString() : null,
    updatedAt: new Date(i.updatedAt ?? i.createdAt).toISOString()
  };
}
const linearVendor = {
  kind: "linear",
  authorizeUrl(app, state) {
    const params = new URLSearchParams({ client_id: app.clientId, redirect_uri: app.redirectUri, response_type: "code", scope: LINEAR_SCOPES, state, prompt: "consent" });
    return `${app.authBaseUrl}/oauth/authorize?${params}`;
  },
  exchangeCode(app, code) {
    return postToken(`${app.apiBaseUrl}/oauth/token`, { grant_type: "authorization_code", client_id: app.clientId, client_secret: app.clientSecret, code, redirect_uri: app.redirectUri }, true);
  },
  refresh(app, refreshToken) {
    return postToken(`${app.apiBaseUrl}/oauth/token`, { grant_type: "refresh_token", client_id: app.clientId, client_secret: app.clientSecret, refresh_token: refreshToken }, true);
  },
  async sites(app, accessToken) {
    try {
      const { data } = await linearClient(app, accessToken).client.rawRequest("query { organization { id name urlKey } }", {});
      const org = data.organization;
      return [{ externalId: org.id, displayName: org.name, url: null }];
    } catch (error) {
      throw vendorError(error);
    }
  },
  async page(app, _site, accessToken, since, cursor) {
    try {
      const { data } = await linearClient(app, accessToken).client.rawRequest(ISSUES_QUERY, {
        first: PAGE_SIZE,
        after: typeof cursor?.after === "string" ? cursor.after : null,
        since: typeof cursor?.since === "string" ? cursor.since : since.toISOString()
      });
      const { nodes, pageInfo } = data.issues;
      const live = nodes.filter((n) => !n.trashed);
      const next = pageInfo.hasNextPage && pageInfo.endCursor ? { after: pageInfo.endCursor, since: typeof cursor?.since === "string" ? cursor.since : since.toISOString() } : null;
      return { issues: live.map(linearIssue), deleted: nodes.filter((n) => n.trashed).map((n) => String(n.id)), next };
    } catch (error) {
      throw vendorError(error);
    }
  },
  ensureWebhook: ensureLinearWebhook,
  removeWebhook: removeLinearWebhook,
  async revoke(app, tokens) {
    const res = await fetch(`${app.apiBaseUrl}/oauth/revoke`, { method: "POST", headers: { authorization: `Bearer ${tokens.accessToken}` }, signal: AbortSignal.timeout(1e4) }).catch(() => null);
    return res !== null && res.ok;
  }
};
async function ensureLinearWebhook(w) {
  if (typeof w.current?.id === "string" && w.current.url === w.url) return w.current;
  try {
    const { data } = await linearClient(w.app, w.accessToken).client.rawRequest(
      "mutation TrackerWebhook($input: WebhookCreateInput!) { webhookCreate(input: $input) { success webhook { id } } }",
      { input: { url: w.url, resourceTypes: ["Issue"], allPublicTeams: true, secret: w.secret, label: "Delivery analytics" } }
    );
    if (!data?.webhookCreate.success || !data.webhookCreate.webhook) throw new TrackerUnavailable("Linear did not create the webhook");
    return { id: data.webhookCreate.webhook.id, url: w.url };
  } catch (error) {
    throw error instanceof TrackerUnavailable ? error : vendorError(error);
  }
}
async function removeLinearWebhook(w) {
  if (typeof w.current?.id !== "string") return;
  await linearClient(w.app, w.accessToken).client.rawRequest("mutation TrackerWebhookDelete($id: String!) { webhookDelete(id: $id) { success } }", { id: w.current.id }).catch(() => void 0);
}
export {
  LINEAR_SCOPES,
  graphqlUrl,
  linearClient,
  linearIssue,
  linearVendor,
  vendorError
};
