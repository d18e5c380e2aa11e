/**
 * A Jira Cloud on loopback speaking what src/integrations/jira uses: `/authorize` (consents at
 * once, or denies), `/oauth/token` (code and rotating refresh tokens, JSON), the API origin's
 * `/oauth/token/accessible-resources`, and per site `/ex/jira/<cloudId>/rest/api/3/search/jql`
 * (enhanced search: `updated >= "-Nm"` ordered by update, or `created >= "-Nm"` for the id
 * sweep; `nextPageToken` paging; an unbounded query is 400 as at Atlassian), `/issue/<id>` (404
 * once deleted) and the dynamic webhook endpoints. Pages can be slowed and a 429 put in the middle.
 */
import { createHmac } from 'node:crypto';
import { SignJWT } from 'jose';
import { Grants, authorizeRedirect, listen, send } from './http.js';
import { freePort } from '../../../src/dev.js';
import type { Env } from '../../../src/config/reader.js';
import { testServer, type TestServer } from '../../helpers/server.js';

export interface FakeJiraIssue {
  id: string;
  key: string;
  fields: Record<string, any>;
}

export interface FakeJira {
  url: string;
  clientId: string;
  clientSecret: string;
  cloudId: string;
  siteUrl: string;
  grants: Grants;
  issues: FakeJiraIssue[];
  deny: boolean;
  /** Search requests answered (429s included), and the 429s sent. */
  searches: number;
  rateLimited: number;
  /** The search request numbers (1-based) answered with 429 and Retry-After: 1. */
  limitAt: Set<number>;
  /** Milliseconds each search page waits before answering. */
  pageDelayMs: number;
  webhooks: { id: number; url: string }[];
  /** Ids the id listing (a `created >=` search) leaves out though the issues exist: a page shifted under the listing. */
  unlisted: Set<string>;
  /** Id listings (`created >=` searches, pages) and single-issue look-ups answered. */
  idListings: number;
  issueLookups: number;
  issue(n: number, overrides?: Partial<Record<string, any>>): FakeJiraIssue;
  /**
   * The `Authorization` of a delivery to a dynamic webhook of an OAuth 2.0 app, as Atlassian
   * documents it: `Bearer <JWT>` signed (HS256) with the app's client secret. The claims are not
   * documented; by default the token carries `iss`, `iat` and `exp` (5 minutes) like Atlassian's
   * other JWTs. `expiresIn: null` leaves `exp` out, `issuedAgo` moves `iat` back (null: no `iat`).
   */
  deliveryAuthorization(secret?: string, expiresIn?: number | null, issuedAgo?: number | null, alg?: 'HS256' | 'HS512'): Promise<string>;
  /** What an admin webhook registered with a secret sends instead (`X-Hub-Signature: sha256=<hex HMAC of the body>`). */
  hubSignature(body: string, secret?: string): string;
  close(): Promise<void>;
}

export async function fakeJira(): Promise<FakeJira> {
  let nextWebhook = 1;
  const state = { searches: 0 };
  const fake = {} as FakeJira;
  const http = await listen(async (req, url, body, res) => {
    const path = url.pathname;
    if (req.method === 'GET' && path === '/authorize') {
      return authorizeRedirect(res, url, fake.grants, fake.deny);
    }
    if (req.method === 'POST' && path === '/oauth/token') {
      const params = JSON.parse(body.toString()) as Record<string, string>;
      if (params.client_id !== fake.clientId || params.client_secret !== fake.clientSecret) return send(res, 401, { error: 'access_denied' });
      const grant = fake.grants.token(params);
      return grant ? send(res, 200, grant) : send(res, 403, { error: 'invalid_grant', error_description: 'Unknown or invalid refresh token.' });
    }
    if (!fake.grants.valid(req.headers.authorization)) return send(res, 401, { code: 401, message: 'Unauthorized' });
    if (req.method === 'GET' && path === '/oauth/token/accessible-resources') {
      return send(res, 200, [{ id: fake.cloudId, name: 'Acme Jira', url: fake.siteUrl, scopes: ['read:jira-work'] }]);
    }
    const site = `/ex/jira/${fake.cloudId}/rest/api/3`;
    if (req.method === 'GET' && path === `${site}/search/jql`) {
      fake.searches = ++state.searches;
      if (fake.pageDelayMs > 0) await new Promise((r) => setTimeout(r, fake.pageDelayMs));
      if (fake.limitAt.has(state.searches)) {
        fake.rateLimited++;
        return send(res, 429, { errorMessages: ['Rate limit exceeded'] }, { 'retry-after': '1' });
      }
      const jql = url.searchParams.get('jql') ?? '';
      const [, field, minutes] = /(updated|created) >= "-(\d+)m"/.exec(jql) ?? [];
      if (!field) return send(res, 400, { errorMessages: ['Unbounded JQL queries are not allowed here. Please add a search restriction to your query.'] });
      const since = Date.now() - Number(minutes) * 60_000;
      const at = (i: FakeJiraIssue) => Date.parse(i.fields[field]);
      const matching = fake.issues
        .filter((i) => at(i) >= since && !(field === 'created' && fake.unlisted.has(i.id)))
        .sort((a, b) => at(a) - at(b) || a.key.localeCompare(b.key));
      if (field === 'created') fake.idListings++;
      const start = Number(url.searchParams.get('nextPageToken') ? Buffer.from(url.searchParams.get('nextPageToken')!, 'base64url').toString() : '0');
      const size = Number(url.searchParams.get('maxResults') ?? '50');
      const fields = url.searchParams.get('fields');
      const page = matching.slice(start, start + size).map((i) => (fields === 'id' ? { id: i.id } : i));
      const more = start + size < matching.length;
      return send(res, 200, { issues: page, isLast: !more, ...(more ? { nextPageToken: Buffer.from(String(start + size)).toString('base64url') } : {}) });
    }
    const one = new RegExp(`^${site}/issue/([^/]+)$`).exec(path);
    if (req.method === 'GET' && one) {
      fake.issueLookups++;
      const found = fake.issues.find((i) => i.id === one[1] || i.key === one[1]);
      return found ? send(res, 200, { id: found.id, key: found.key, fields: {} }) : send(res, 404, { errorMessages: ['Issue does not exist or you do not have permission to see it.'], errors: {} });
    }
    if (req.method === 'POST' && path === `${site}/webhook`) {
      const { url: target } = JSON.parse(body.toString()) as { url: string };
      const id = nextWebhook++;
      fake.webhooks.push({ id, url: target });
      return send(res, 200, { webhookRegistrationResult: [{ createdWebhookId: id }] });
    }
    if (req.method === 'DELETE' && path === `${site}/webhook`) {
      const { webhookIds } = JSON.parse(body.toString()) as { webhookIds: number[] };
      fake.webhooks = fake.webhooks.filter((w) => !webhookIds.includes(w.id));
      res.writeHead(202).end();
      return;
    }
    if (req.method === 'PUT' && path === `${site}/webhook/refresh`) return send(res, 200, { expirationDate: new Date(Date.now() + 30 * 86400_000).toISOString() });
    send(res, 404, { errorMessages: ['not found'] });
  });
  Object.assign(fake, {
    url: http.url,
    clientId: 'fake-jira-client',
    clientSecret: 'fake-jira-secret-0123456789',
    cloudId: '11111111-2222-4333-8444-555555555555',
    siteUrl: 'https://acme.atlassian.net',
    grants: new Grants(),
    issues: [],
    deny: false,
    searches: 0,
    rateLimited: 0,
    limitAt: new Set<number>(),
    pageDelayMs: 0,
    webhooks: [],
    unlisted: new Set<string>(),
    idListings: 0,
    issueLookups: 0,
    close: http.close,
    issue(n: number, overrides: Partial<Record<string, any>> = {}) {
      const created = new Date(Date.now() - (30 + (n % 200)) * 86400_000).toISOString();
      return {
        id: String(10000 + n),
        key: `ENG-${n}`,
        fields: {
          summary: `Issue ${n}`,
          issuetype: { name: 'Story' },
          status: { name: 'To Do', statusCategory: { key: 'new' } },
          labels: [],
          project: { key: 'ENG' },
          reporter: { accountId: 'acc-1', displayName: 'Ada', emailAddress: 'ada@example.com' },
          assignee: null,
          created: created.replace('Z', '+0000'),
          updated: new Date(Date.now() - (1000 - (n % 1000)) * 60_000).toISOString(),
          resolutiondate: null,
          description: { type: 'doc', version: 1, content: [{ type: 'paragraph', content: [{ type: 'text', text: `Body ${n}` }] }] },
          ...overrides,
        },
      };
    },
    async deliveryAuthorization(secret?: string, expiresIn: number | null = 300, issuedAgo: number | null = 0, alg: 'HS256' | 'HS512' = 'HS256') {
      const now = Math.floor(Date.now() / 1000);
      const jwt = new SignJWT({ iss: fake.clientId }).setProtectedHeader({ alg, typ: 'JWT' });
      if (issuedAgo !== null) jwt.setIssuedAt(now - issuedAgo);
      if (expiresIn !== null) jwt.setExpirationTime(now + expiresIn);
      return `Bearer ${await jwt.sign(new TextEncoder().encode(secret ?? fake.clientSecret))}`;
    },
    hubSignature(body: string, secret?: string) {
      return `sha256=${createHmac('sha256', secret ?? fake.clientSecret).update(body).digest('hex')}`;
    },
  });
  return fake;
}

/** A fake Jira and a test server whose tracker1 (Jira) OAuth and API calls go to it, jobs worker off; `env` adds to it. */
export async function serverWithFakeJira(env: Env = {}): Promise<{ jira: FakeJira; api: TestServer }> {
  const jira = await fakeJira();
  const port = await freePort();
  const api = await testServer({
    port,
    env: {
      TRACKER1_CLIENT_ID: jira.clientId, TRACKER1_SECRET: jira.clientSecret, TRACKER1_REDIRECT_URI: `http://127.0.0.1:${port}/api/integrations/jira/callback`,
      JIRA_AUTH_BASE_URL: jira.url, JIRA_API_BASE_URL: jira.url, JOBS_WORKER_ENABLED: 'false',
      ...env,
    },
  });
  return { jira, api };
}
