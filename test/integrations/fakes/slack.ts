/**
 * A local server speaking the parts of Slack the app uses: the OAuth v2 consent redirect and
 * `oauth.v2.access`, the Web API methods `users.info`, `users.lookupByEmail`, `chat.postMessage`,
 * `conversations.list` and `auth.revoke` (form or JSON bodies, bearer token, `{ok, error}`
 * answers as Slack gives them), and a receiver for slash commands' `response_url`.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { until } from '../../helpers/until.js';
import { approveRedirect } from './http.js';

export interface FakeSlackUser {
  id: string;
  email: string;
  confirmed?: boolean;
  deleted?: boolean;
}

export interface PostedMessage {
  token: string;
  channel: string;
  text: string;
  at: number;
}

export interface FakeSlack {
  url: string;
  apiUrl: string;
  authorizeUrl: string;
  clientId: string;
  clientSecret: string;
  workspace: { id: string; name: string };
  users: FakeSlackUser[];
  channels: { id: string; name: string }[];
  /** Valid bot tokens (an uninstall or revoke removes them). */
  tokens: Set<string>;
  messages: PostedMessage[];
  /** Bodies posted to response URLs, with the time each arrived. */
  responses: { path: string; body: any; at: number }[];
  /** Every Web API call: method name and token. */
  calls: { method: string; token: string | null }[];
  /** A code the consent page hands out, as if the installer approved (the next token issued for it). */
  issueCode(): { code: string; token: string };
  responseUrl(): string;
  waitForResponses(count: number, timeoutMs?: number): Promise<void>;
  waitForMessages(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<Record<string, any>> {
  let raw = '';
  for await (const chunk of req) raw += chunk;
  if (String(req.headers['content-type']).startsWith('application/json')) return raw ? JSON.parse(raw) : {};
  return Object.fromEntries(new URLSearchParams(raw));
}

const waitUntil = async (probe: () => boolean, what: string, timeoutMs: number) => void (await until(`fake Slack: ${what}`, probe, { timeoutMs, everyMs: 20 }));

export async function fakeSlack(workspace = { id: `T${randomBytes(4).toString('hex').toUpperCase()}`, name: 'Acme Workspace' }): Promise<FakeSlack> {
  const codes = new Map<string, string>();
  const fake = {
    clientId: '1234.5678', clientSecret: 'slack-client-secret', workspace, users: [], channels: [{ id: 'C0GENERAL', name: 'general' }, { id: 'C0DELIVERY', name: 'delivery' }],
    tokens: new Set<string>(), messages: [], responses: [], calls: [],
  } as unknown as FakeSlack;

  const server: Server = createServer(async (req, res) => {
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const url = new URL(req.url ?? '/', 'http://x');
    if (req.method === 'GET' && url.pathname === '/oauth/v2/authorize') {
      return approveRedirect(res, url, fake.issueCode().code);
    }
    if (req.method !== 'POST') return reply(404, { ok: false, error: 'unknown_method' });
    const body = await readBody(req);
    if (url.pathname.startsWith('/hooks/')) {
      fake.responses.push({ path: url.pathname, body, at: Date.now() });
      return reply(200, { ok: true });
    }
    const method = url.pathname.replace(/^\/api\//, '');
    const token = (req.headers.authorization ?? '').replace(/^Bearer /, '') || (body.token as string | undefined) || null;
    fake.calls.push({ method, token });
    if (method === 'oauth.v2.access') {
      if (body.client_id !== fake.clientId || body.client_secret !== fake.clientSecret) return reply(200, { ok: false, error: 'invalid_client_id' });
      const issued = codes.get(body.code);
      if (!issued) return reply(200, { ok: false, error: 'invalid_code' });
      codes.delete(body.code);
      fake.tokens.add(issued);
      return reply(200, { ok: true, access_token: issued, token_type: 'bot', scope: 'commands,chat:write', bot_user_id: 'UBOT', app_id: 'A0APP', team: workspace, enterprise: null, authed_user: { id: 'UINSTALLER' } });
    }
    if (!token || !fake.tokens.has(token)) return reply(200, { ok: false, error: 'invalid_auth' });
    const userOf = (u: FakeSlackUser) => ({ id: u.id, team_id: workspace.id, deleted: u.deleted ?? false, is_bot: false, is_email_confirmed: u.confirmed ?? true, profile: { email: u.email } });
    switch (method) {
      case 'users.info': {
        const user = fake.users.find((u) => u.id === body.user);
        return user ? reply(200, { ok: true, user: userOf(user) }) : reply(200, { ok: false, error: 'user_not_found' });
      }
      case 'users.lookupByEmail': {
        const user = fake.users.find((u) => u.email.toLowerCase() === String(body.email).toLowerCase() && !u.deleted);
        return user ? reply(200, { ok: true, user: userOf(user) }) : reply(200, { ok: false, error: 'users_not_found' });
      }
      case 'chat.postMessage': {
        if (!body.channel || !(body.text || body.blocks)) return reply(200, { ok: false, error: 'no_text' });
        fake.messages.push({ token, channel: body.channel, text: body.text ?? '', at: Date.now() });
        return reply(200, { ok: true, channel: body.channel, ts: `${Math.floor(Date.now() / 1000)}.${String(fake.messages.length).padStart(6, '0')}` });
      }
      case 'conversations.list':
        return reply(200, { ok: true, channels: fake.channels.map((c) => ({ ...c, is_channel: true })), response_metadata: { next_cursor: '' } });
      case 'auth.revoke':
        fake.tokens.delete(token);
        return reply(200, { ok: true, revoked: true });
      default:
        return reply(200, { ok: false, error: 'unknown_method' });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.apiUrl = `${fake.url}/api`;
  fake.authorizeUrl = `${fake.url}/oauth/v2/authorize`;
  fake.issueCode = () => {
    const code = randomBytes(8).toString('hex');
    const token = `xoxb-${randomBytes(12).toString('hex')}`;
    codes.set(code, token);
    return { code, token };
  };
  fake.responseUrl = () => `${fake.url}/hooks/commands/${randomBytes(6).toString('hex')}`;
  fake.waitForResponses = (count, timeoutMs = 30_000) => waitUntil(() => fake.responses.length >= count, `${count} responses`, timeoutMs);
  fake.waitForMessages = (count, timeoutMs = 30_000) => waitUntil(() => fake.messages.length >= count, `${count} messages`, timeoutMs);
  fake.close = () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); });
  return fake;
}
