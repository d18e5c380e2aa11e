/**
 * A small GitHub on loopback for the sign-in tests: `/login/oauth/authorize` (the person signs in
 * and approves at once, as the test decides), `/login/oauth/access_token` (checks the client, the
 * redirect URI and the PKCE verifier against the S256 challenge), `/user` and `/user/emails`.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FAKE_HOST } from './fakeOidc.js';

export interface GitHubAccount {
  id: number;
  login: string;
  emails: { email: string; primary: boolean; verified: boolean }[];
}

export interface FakeGitHub {
  url: string;
  clientId: string;
  clientSecret: string;
  account(account: GitHubAccount): void;
  /** The next sign-ins are this account's (by login); deny(): the person cancels. */
  as(login: string): void;
  deny(): void;
  /** The token endpoint and API answer 503 (the provider is down). */
  down: boolean;
  authorizations: URLSearchParams[];
  /** Token requests refused and why (wrong verifier, unknown code …). */
  refusals: string[];
  close(): Promise<void>;
}

export async function fakeGitHub(options: { redirectUri: string }): Promise<FakeGitHub> {
  const accounts = new Map<string, GitHubAccount>();
  const codes = new Map<string, { login: string; challenge: string; redirectUri: string }>();
  const tokens = new Map<string, string>();
  let current: string | null = null;
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, FAKE_HOST, resolve));
  const url = `http://${FAKE_HOST}:${(server.address() as AddressInfo).port}`;
  const fake: FakeGitHub = {
    url,
    clientId: 'Iv1.fakegithubclient',
    clientSecret: 'fake-github-secret-0123456789abcdef',
    account: (account) => void accounts.set(account.login, account),
    as: (login) => void (current = login),
    deny: () => void (current = null),
    down: false,
    authorizations: [],
    refusals: [],
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };

  const json = (res: import('node:http').ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };

  server.on('request', async (req, res) => {
    const u = new URL(req.url ?? '/', url);
    if (req.method === 'GET' && u.pathname === '/login/oauth/authorize') {
      fake.authorizations.push(u.searchParams);
      const redirect = new URL(u.searchParams.get('redirect_uri') ?? '');
      redirect.searchParams.set('state', u.searchParams.get('state') ?? '');
      if (u.searchParams.get('client_id') !== fake.clientId || redirect.origin + redirect.pathname !== options.redirectUri) return json(res, 400, { error: 'redirect_uri_mismatch' });
      if (current === null) {
        redirect.searchParams.set('error', 'access_denied');
        redirect.searchParams.set('error_description', 'The user has denied your application access.');
      } else {
        const code = randomBytes(10).toString('hex');
        codes.set(code, { login: current, challenge: u.searchParams.get('code_challenge') ?? '', redirectUri: u.searchParams.get('redirect_uri') ?? '' });
        redirect.searchParams.set('code', code);
      }
      res.writeHead(302, { location: redirect.href }).end();
      return;
    }
    if (fake.down) return json(res, 503, { message: 'Service unavailable' });
    if (req.method === 'POST' && u.pathname === '/login/oauth/access_token') {
      let raw = '';
      for await (const chunk of req) raw += chunk;
      const form = new URLSearchParams(raw);
      const code = codes.get(form.get('code') ?? '');
      codes.delete(form.get('code') ?? '');
      const verifier = form.get('code_verifier') ?? '';
      const refuse = (why: string) => {
        fake.refusals.push(why);
        // GitHub answers token errors with 200 and an error body.
        json(res, 200, { error: 'bad_verification_code', error_description: 'The code passed is incorrect or expired.' });
      };
      if (form.get('client_id') !== fake.clientId || form.get('client_secret') !== fake.clientSecret) return refuse('client');
      if (!code) return refuse('code');
      if (createHash('sha256').update(verifier).digest('base64url') !== code.challenge) return refuse('pkce');
      if (form.get('redirect_uri') !== code.redirectUri) return refuse('redirect_uri');
      const token = `gho_${randomBytes(12).toString('hex')}`;
      tokens.set(token, code.login);
      return json(res, 200, { access_token: token, token_type: 'bearer', scope: 'read:user,user:email' });
    }
    const login = tokens.get((req.headers.authorization ?? '').replace(/^Bearer /i, ''));
    const account = login ? accounts.get(login) : undefined;
    if (!account) return json(res, 401, { message: 'Bad credentials' });
    if (u.pathname === '/user') return json(res, 200, { id: account.id, login: account.login, email: null });
    if (u.pathname === '/user/emails') return json(res, 200, account.emails.map((e) => ({ ...e, visibility: e.primary ? 'public' : null })));
    json(res, 404, { message: 'Not Found' });
  });
  return fake;
}
