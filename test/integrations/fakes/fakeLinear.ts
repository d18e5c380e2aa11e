/**
 * A Linear on loopback speaking what src/integrations/linear uses: `/oauth/authorize` (consents at
 * once, or denies), `/oauth/token` (form-encoded; code and refresh), `/oauth/revoke`, and
 * `/graphql` for `organization`, the `TrackerIssues` query (cursor paging over issues updated
 * since a time, archived and trashed included) and `webhookCreate`/`webhookDelete`. `deliver()`
 * signs a webhook as Linear does (HMAC-SHA256 of the body with the webhook's secret).
 */
import { createHmac } from 'node:crypto';
import { Grants, authorizeRedirect, listen, send } from './http.js';

export interface FakeLinearIssue {
  id: string;
  identifier: string;
  title: string;
  description: string | null;
  url: string;
  createdAt: string;
  updatedAt: string;
  completedAt: string | null;
  canceledAt: string | null;
  trashed: boolean;
  state: { name: string; type: string };
  team: { key: string };
  labels: { nodes: { name: string }[] };
  creator: { name: string; email: string } | null;
  assignee: { name: string; email: string } | null;
}

export interface FakeLinear {
  url: string;
  clientId: string;
  clientSecret: string;
  organizationId: string;
  grants: Grants;
  issues: FakeLinearIssue[];
  deny: boolean;
  revocations: number;
  webhooks: { id: string; url: string; secret: string }[];
  queries: number;
  /** The API answers 503 (an outage). */
  down: boolean;
  limitAt: Set<number>;
  issue(n: number, overrides?: Partial<FakeLinearIssue>): FakeLinearIssue;
  /** Signs `payload` (with `webhookTimestamp` added unless given) with the webhook's secret. */
  signed(payload: Record<string, unknown>, secret?: string): { body: string; signature: string };
  close(): Promise<void>;
}

export async function fakeLinear(): Promise<FakeLinear> {
  const fake = {} as FakeLinear;
  let webhookN = 0;
  const http = await listen(async (req, url, body, res) => {
    const path = url.pathname;
    if (req.method === 'GET' && path === '/oauth/authorize') {
      return authorizeRedirect(res, url, fake.grants, fake.deny);
    }
    if (req.method === 'POST' && path === '/oauth/token') {
      const params = Object.fromEntries(new URLSearchParams(body.toString()));
      if (params.client_id !== fake.clientId || params.client_secret !== fake.clientSecret) return send(res, 401, { error: 'invalid_client' });
      const grant = fake.grants.token(params);
      return grant ? send(res, 200, grant) : send(res, 400, { error: 'invalid_grant' });
    }
    if (req.method === 'POST' && path === '/oauth/revoke') {
      fake.revocations++;
      fake.grants.revoked = true;
      return send(res, 200, {});
    }
    if (req.method !== 'POST' || path !== '/graphql') return send(res, 404, {});
    if (fake.down) return send(res, 503, { errors: [{ message: 'Service unavailable' }] });
    if (!fake.grants.valid(req.headers.authorization)) {
      return send(res, 401, { errors: [{ message: 'Authentication required, not authenticated', extensions: { type: 'authentication error', code: 'AUTHENTICATION_ERROR' } }] });
    }
    const { query, variables } = JSON.parse(body.toString()) as { query: string; variables: Record<string, any> };
    fake.queries++;
    if (fake.limitAt.has(fake.queries)) {
      return send(res, 429, { errors: [{ message: 'Rate limit exceeded', extensions: { type: 'ratelimited', code: 'RATELIMITED' } }] }, { 'retry-after': '1' });
    }
    if (query.includes('organization')) return send(res, 200, { data: { organization: { id: fake.organizationId, name: 'Acme Linear', urlKey: 'acme' } } });
    if (query.includes('webhookCreate')) {
      const input = variables.input as { url: string; secret: string };
      const id = `webhook-${++webhookN}`;
      fake.webhooks.push({ id, url: input.url, secret: input.secret });
      return send(res, 200, { data: { webhookCreate: { success: true, webhook: { id } } } });
    }
    if (query.includes('webhookDelete')) {
      fake.webhooks = fake.webhooks.filter((w) => w.id !== variables.id);
      return send(res, 200, { data: { webhookDelete: { success: true } } });
    }
    if (query.includes('TrackerIssues')) {
      const since = Date.parse(variables.since);
      const matching = fake.issues.filter((i) => Date.parse(i.updatedAt) >= since).sort((a, b) => Date.parse(a.updatedAt) - Date.parse(b.updatedAt) || a.id.localeCompare(b.id));
      const start = variables.after ? Number(Buffer.from(variables.after, 'base64url').toString()) : 0;
      const nodes = matching.slice(start, start + variables.first);
      const more = start + variables.first < matching.length;
      return send(res, 200, { data: { issues: { nodes, pageInfo: { hasNextPage: more, endCursor: nodes.length ? Buffer.from(String(start + nodes.length)).toString('base64url') : null } } } });
    }
    send(res, 400, { errors: [{ message: 'unknown query' }] });
  });
  Object.assign(fake, {
    url: http.url,
    clientId: 'fake-linear-client',
    clientSecret: 'fake-linear-secret-0123456789',
    organizationId: 'org-acme-0001',
    grants: new Grants(),
    issues: [],
    deny: false,
    revocations: 0,
    webhooks: [],
    queries: 0,
    down: false,
    limitAt: new Set<number>(),
    close: http.close,
    issue(n: number, overrides: Partial<FakeLinearIssue> = {}): FakeLinearIssue {
      return {
        id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
        identifier: `LIN-${n}`,
        title: `Linear issue ${n}`,
        description: `Body ${n}`,
        url: `https://linear.app/acme/issue/LIN-${n}`,
        createdAt: new Date(Date.now() - 40 * 86400_000).toISOString(),
        updatedAt: new Date(Date.now() - (500 - (n % 500)) * 60_000).toISOString(),
        completedAt: null,
        canceledAt: null,
        trashed: false,
        state: { name: 'Todo', type: 'unstarted' },
        team: { key: 'LIN' },
        labels: { nodes: [] },
        creator: { name: 'Grace', email: 'grace@example.com' },
        assignee: null,
        ...overrides,
      };
    },
    signed(payload: Record<string, unknown>, secret?: string) {
      const body = JSON.stringify({ webhookTimestamp: Date.now(), ...payload });
      const key = secret ?? fake.webhooks[0]?.secret ?? '';
      return { body, signature: createHmac('sha256', key).update(body).digest('hex') };
    },
  });
  return fake;
}
