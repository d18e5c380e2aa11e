/**
 * Linear through OAuth 2.0 (consent at linear.app, tokens at api.linear.app/oauth/token) and its
 * GraphQL API, spoken through `@linear/sdk`'s client (`apiUrl` points it at a fake in tests). The
 * issues are read with one hand-written query per page rather than the SDK's lazy models, which
 * would fetch each issue's state, labels and people with a request of their own.
 */
import type { LinearClient } from '@linear/sdk';
import type { TrackerApp } from '../../config/index.js';
import { postToken, TrackerGrantRefused, TrackerRateLimited, TrackerUnavailable, type Page, type TrackerIssue, type TrackerVendor, type WebhookContext } from '../trackers/types.js';

/** read: issues; admin: creating the workspace webhook that keeps us current. */
export const LINEAR_SCOPES = 'read,admin';
const PAGE_SIZE = 100;

export const graphqlUrl = (app: TrackerApp) => `${app.apiBaseUrl}/graphql`;
/** The SDK, loaded at the first Linear call rather than at start (docs/architecture.md, "Vendor SDKs load when first used"). */
let sdk: typeof import('@linear/sdk') | null = null;

export async function linearClient(app: TrackerApp, accessToken: string): Promise<LinearClient> {
  sdk ??= await import('@linear/sdk');
  return new sdk.LinearClient({ accessToken, apiUrl: graphqlUrl(app) });
}

const ISSUE_FIELDS = `id identifier title description url createdAt updatedAt completedAt canceledAt trashed
  state { name type } team { key } labels { nodes { name } } creator { name email } assignee { name email }`;

const ISSUES_QUERY = `query TrackerIssues($first: Int!, $after: String, $since: DateTimeOrDuration!) {
  issues(first: $first, after: $after, includeArchived: true, orderBy: updatedAt, filter: { updatedAt: { gte: $since } }) {
    nodes { ${ISSUE_FIELDS} }
    pageInfo { hasNextPage endCursor }
  }
}`;

/** The SDK's errors as the tracker errors the sync understands. */
export function vendorError(error: unknown): Error {
  // Only a loaded SDK can have thrown one of its errors.
  if (sdk === null) return new TrackerUnavailable('Linear could not be reached');
  const { AuthenticationLinearError, LinearError, RatelimitedLinearError } = sdk;
  if (error instanceof RatelimitedLinearError) return new TrackerRateLimited(error.retryAfter ?? 60);
  if (error instanceof AuthenticationLinearError) return new TrackerGrantRefused('Linear refused the access token');
  if (error instanceof LinearError) return new TrackerUnavailable(`Linear answered ${error.status ? `HTTP ${error.status}` : 'with an error'}`);
  return new TrackerUnavailable('Linear could not be reached');
}

const CATEGORY: Record<string, TrackerIssue['statusCategory']> = { completed: 'closed', canceled: 'closed', started: 'in_progress' };
type Person = { name?: string | null; email?: string | null } | null | undefined;
const who = (p: Person) => p?.email ?? p?.name ?? null;

/**
 * A GraphQL issue, or a webhook's `data` (the same fields; labels a plain list there, and the
 * team sometimes only as `teamId` with the key in the identifier).
 */
export function linearIssue(i: Record<string, any>): TrackerIssue {
  const labels: { name: string }[] = Array.isArray(i.labels) ? i.labels : (i.labels?.nodes ?? []);
  const key = String(i.identifier ?? i.id);
  return {
    id: String(i.id),
    key,
    project: String(i.team?.key ?? key.split('-')[0]),
    title: String(i.title ?? key),
    issueType: null,
    labels: labels.map((l) => String(l.name)),
    status: String(i.state?.name ?? 'Unknown'),
    statusCategory: CATEGORY[String(i.state?.type)] ?? (i.completedAt || i.canceledAt ? 'closed' : 'open'),
    body: typeof i.description === 'string' && i.description !== '' ? i.description : null,
    url: typeof i.url === 'string' ? i.url : null,
    author: who(i.creator),
    assignee: who(i.assignee),
    createdAt: new Date(i.createdAt).toISOString(),
    resolvedAt: i.completedAt ? new Date(i.completedAt).toISOString() : i.canceledAt ? new Date(i.canceledAt).toISOString() : null,
    updatedAt: new Date(i.updatedAt ?? i.createdAt).toISOString(),
  };
}

export const linearVendor: TrackerVendor = {
  kind: 'linear',

  authorizeUrl(app, state) {
    const params = new URLSearchParams({ client_id: app.clientId, redirect_uri: app.redirectUri, response_type: 'code', scope: LINEAR_SCOPES, state, prompt: 'consent' });
    return `${app.authBaseUrl}/oauth/authorize?${params}`;
  },

  exchangeCode(app, code) {
    return postToken(`${app.apiBaseUrl}/oauth/token`, { grant_type: 'authorization_code', client_id: app.clientId, client_secret: app.clientSecret, code, redirect_uri: app.redirectUri }, true);
  },

  refresh(app, refreshToken) {
    return postToken(`${app.apiBaseUrl}/oauth/token`, { grant_type: 'refresh_token', client_id: app.clientId, client_secret: app.clientSecret, refresh_token: refreshToken }, true);
  },

  async sites(app, accessToken) {
    try {
      const { data } = await (await linearClient(app, accessToken)).client.rawRequest<{ organization: { id: string; name: string; urlKey: string } }, Record<string, never>>('query { organization { id name urlKey } }', {});
      const org = data!.organization;
      return [{ externalId: org.id, displayName: org.name, url: null }];
    } catch (error) {
      throw vendorError(error);
    }
  },

  async page(app, _site, accessToken, since, cursor): Promise<Page> {
    try {
      const { data } = await (await linearClient(app, accessToken)).client.rawRequest<{ issues: { nodes: Record<string, any>[]; pageInfo: { hasNextPage: boolean; endCursor: string | null } } }, Record<string, unknown>>(ISSUES_QUERY, {
        first: PAGE_SIZE,
        after: typeof cursor?.after === 'string' ? cursor.after : null,
        since: typeof cursor?.since === 'string' ? cursor.since : since.toISOString(),
      });
      const { nodes, pageInfo } = data!.issues;
      const live = nodes.filter((n) => !n.trashed);
      const next = pageInfo.hasNextPage && pageInfo.endCursor ? { after: pageInfo.endCursor, since: typeof cursor?.since === 'string' ? cursor.since : since.toISOString() } : null;
      return { issues: live.map(linearIssue), deleted: nodes.filter((n) => n.trashed).map((n) => String(n.id)), next };
    } catch (error) {
      throw vendorError(error);
    }
  },

  ensureWebhook: ensureLinearWebhook,
  removeWebhook: removeLinearWebhook,

  async revoke(app, tokens) {
    const res = await fetch(`${app.apiBaseUrl}/oauth/revoke`, { method: 'POST', headers: { authorization: `Bearer ${tokens.accessToken}` }, signal: AbortSignal.timeout(10_000) }).catch(() => null);
    return res !== null && res.ok;
  },
};

async function ensureLinearWebhook(w: WebhookContext): Promise<Record<string, unknown>> {
  if (typeof w.current?.id === 'string' && w.current.url === w.url) return w.current as Record<string, unknown>;
  try {
    const { data } = await (await linearClient(w.app, w.accessToken)).client.rawRequest<{ webhookCreate: { success: boolean; webhook: { id: string } | null } }, Record<string, unknown>>(
      'mutation TrackerWebhook($input: WebhookCreateInput!) { webhookCreate(input: $input) { success webhook { id } } }',
      { input: { url: w.url, resourceTypes: ['Issue'], allPublicTeams: true, secret: w.secret, label: 'Delivery analytics' } },
    );
    if (!data?.webhookCreate.success || !data.webhookCreate.webhook) throw new TrackerUnavailable('Linear did not create the webhook');
    return { id: data.webhookCreate.webhook.id, url: w.url };
  } catch (error) {
    throw error instanceof TrackerUnavailable ? error : vendorError(error);
  }
}

async function removeLinearWebhook(w: WebhookContext): Promise<void> {
  if (typeof w.current?.id !== 'string') return;
  await (await linearClient(w.app, w.accessToken)).client.rawRequest('mutation TrackerWebhookDelete($id: String!) { webhookDelete(id: $id) { success } }', { id: w.current.id }).catch(() => undefined);
}
