import { expect } from 'chai';
import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import { buildMember, buildSessionCookie, dbFor, type BuiltTenant } from '../helpers/factories.js';
import { expectRefusal, expectRefusalPage, pageOf } from '../helpers/refusals.js';
import type { TestServer } from '../helpers/server.js';
import { providerFor } from '../../src/oauth/provider.js';
import { approve, approveAndGetCode, browse, fetchFrom, finishWithCode, Jar, MemoryOAuthClient, nextIp, REDIRECT_URI, startConsent, type Started } from './oauthFlow.js';
import { serverWithTwoTenants } from '../helpers/suites.js';

const form = (fields: Record<string, string>) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': nextIp() },
  body: new URLSearchParams(fields).toString(),
});

describe('MCP OAuth: refused requests', function () {
  this.timeout(60_000);
  let api: TestServer, a: BuiltTenant, b: BuiltTenant;
  let session: string;

  const mcpStatus = async (bearer: string) => (await api.as(bearer).post('/mcp', { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { accept: 'application/json, text/event-stream' })).status;
  const token = (fields: Record<string, string>) => fetch(`${api.baseUrl}/oauth/token`, form(fields)).then(async (r) => ({ status: r.status, body: (await r.json()) as Record<string, string> }));
  const codeRequest = (s: Started, code: string, extra: Record<string, string> = {}) => ({
    grant_type: 'authorization_code',
    code,
    redirect_uri: REDIRECT_URI,
    client_id: s.client.info!.client_id,
    code_verifier: s.client.verifier,
    resource: `${api.baseUrl}/mcp`,
    ...extra,
  });

  /** The SDK's authorization request with some parameters removed, up to the consent page. */
  async function startConsentWithout(names: string[]): Promise<Started> {
    const client = new MemoryOAuthClient();
    await auth(client, { serverUrl: `${api.baseUrl}/mcp`, fetchFn: fetchFrom(client.ip) });
    const url = new URL(client.authorizationUrl!.href);
    for (const name of names) url.searchParams.delete(name);
    client.authorizationUrl = url;
    return startConsent(api.baseUrl, session, client, new Jar(client.ip), false);
  }

  before(async () => {
    ({ api, a, b } = await serverWithTwoTenants({}, { a: 'Alpha', b: 'Beta' }));
    session = await buildSessionCookie(api.databaseUrl, a.owner.userId);
  });
  after(() => api.close());

  describe('authorization request', () => {
    it('refuses a redirect_uri that was not registered, without redirecting to it', async () => {
      const client = new MemoryOAuthClient();
      await auth(client, { serverUrl: `${api.baseUrl}/mcp`, fetchFn: fetchFrom(client.ip) });
      const url = new URL(client.authorizationUrl!.href);
      url.searchParams.set('redirect_uri', 'https://evil.example/callback');
      const res = await browse(new Jar(), url.href);
      expect(res.status).to.equal(400);
      expect(res.headers.get('location')).to.equal(null);
      expect(await res.text()).to.include('redirect_uri did not match any of the client');
    });

    it('requires PKCE with S256', async () => {
      const client = new MemoryOAuthClient();
      await auth(client, { serverUrl: `${api.baseUrl}/mcp`, fetchFn: fetchFrom(client.ip) });
      const without = new URL(client.authorizationUrl!.href);
      without.searchParams.delete('code_challenge');
      without.searchParams.delete('code_challenge_method');
      const res = await browse(new Jar(), without.href);
      expect(res.status).to.equal(303);
      const back = new URL(res.headers.get('location') as string);
      expect(back.origin + back.pathname).to.equal(REDIRECT_URI);
      expect(back.searchParams.get('error')).to.equal('invalid_request');

      const plain = new URL(client.authorizationUrl!.href);
      plain.searchParams.set('code_challenge_method', 'plain');
      plain.searchParams.set('code_challenge', 'a'.repeat(43));
      const res2 = await browse(new Jar(), plain.href);
      expect(new URL(res2.headers.get('location') as string).searchParams.get('error')).to.equal('invalid_request');
    });

    it('grants mcp:read to a request that names no scope and no resource', async () => {
      const started = await startConsentWithout(['scope', 'resource']);
      const tokens = await finishWithCode(api.baseUrl, started.client, await approveAndGetCode(api.baseUrl, started, a.tenantId));
      expect(tokens.scope).to.equal('mcp:read');
      expect(await mcpStatus(tokens.access_token)).to.equal(200);
    });

    it('refuses a resource other than /mcp', async () => {
      const client = new MemoryOAuthClient();
      await auth(client, { serverUrl: `${api.baseUrl}/mcp`, fetchFn: fetchFrom(client.ip) });
      const url = new URL(client.authorizationUrl!.href);
      url.searchParams.set('resource', 'https://other.example/mcp');
      const res = await browse(new Jar(), url.href);
      expect(res.status).to.equal(303);
      expect(new URL(res.headers.get('location') as string).searchParams.get('error')).to.equal('invalid_target');
    });

    it('never redirects anywhere but the fixed login page (no open redirect)', async () => {
      const client = new MemoryOAuthClient();
      await auth(client, { serverUrl: `${api.baseUrl}/mcp`, fetchFn: fetchFrom(client.ip) });
      const jar = new Jar();
      const first = await browse(jar, client.authorizationUrl!.href);
      const interaction = new URL(first.headers.get('location') as string, api.baseUrl);
      interaction.searchParams.set('returnUrl', 'https://evil.example/');
      const res = await browse(jar, interaction.href);
      expect(res.status).to.equal(302);
      expect(res.headers.get('location')).to.equal('/login?mode=mcp&returnUrl=%2Fmcp%2Fauthorize');
      const odd = await browse(jar, `${api.baseUrl}/mcp/authorize?interaction=${encodeURIComponent('//evil.example')}`);
      expectRefusalPage(await pageOf(odd), 400, 'Authorization request expired', 'This authorization request has expired, was already used, or was started in another browser.');
      expect(odd.headers.get('location')).to.equal(null);
      // The login page keeps only same-site return URLs: a forged mcp link cannot leave the site.
      const login = await browse(jar, `${api.baseUrl}/login?mode=mcp&returnUrl=${encodeURIComponent('https://evil.example/')}`);
      expect(login.status).to.equal(200);
      expect(await login.text()).to.not.include('evil.example');
    });
  });

  describe('consent and approve', () => {
    it('answers 403 for a tenant the user is not in, and still accepts the right one', async () => {
      const started = await startConsent(api.baseUrl, session);
      expect(started.fields.tenantId).to.equal(a.tenantId);
      const res = await approve(api.baseUrl, started, { ...started.fields, tenantId: b.tenantId });
      expect(res.status).to.equal(403);
      expect(await res.text()).to.include('not a member of that tenant');
      const bogus = await approve(api.baseUrl, started, { ...started.fields, tenantId: 'not-a-uuid' });
      expectRefusalPage(await pageOf(bogus), 403, 'Forbidden', 'You are not a member of that tenant.');
      const { rows } = await dbFor(api.databaseUrl).pool.query('select count(*)::int as n from mcp_grants where tenant_id = $1', [b.tenantId]);
      expect(rows[0].n).to.equal(0);
      const code = await approveAndGetCode(api.baseUrl, started, a.tenantId);
      expect(code).to.be.a('string');
    });

    it('refuses approve without the CSRF token, with another session\'s token, or from another origin', async () => {
      const started = await startConsent(api.baseUrl, session);
      const missing = await approve(api.baseUrl, started, { interaction: started.fields.interaction as string, tenantId: a.tenantId });
      expectRefusalPage(await pageOf(missing), 403, 'Forbidden', 'The form token is missing or invalid. Reload the page and try again.');
      const other = await buildMember(api.databaseUrl, a.tenantId);
      const otherSession = await buildSessionCookie(api.databaseUrl, other.userId);
      const theirs = await startConsent(api.baseUrl, otherSession);
      const swapped = await approve(api.baseUrl, started, { ...started.fields, csrf: theirs.fields.csrf as string, tenantId: a.tenantId });
      expectRefusalPage(await pageOf(swapped), 403, 'Forbidden', 'The form token is missing or invalid. Reload the page and try again.');
      const crossSite = await approve(api.baseUrl, started, { ...started.fields, tenantId: a.tenantId }, { origin: 'https://evil.example' });
      // Refused before routing, like every cookie-carrying change from elsewhere (src/auth/csrf.ts).
      expect(crossSite.status).to.equal(403);
      expect(await crossSite.json()).to.deep.equal({ error: { code: 'forbidden', message: 'Cross-origin request refused' } });
      // None of these used the request up.
      expect(await approveAndGetCode(api.baseUrl, started, a.tenantId)).to.be.a('string');
    });

    it('refuses approve without a session (401)', async () => {
      const started = await startConsent(api.baseUrl, session);
      started.jar.cookies = started.jar.cookies.filter((c) => c.name !== 'sessionId');
      const res = await approve(api.baseUrl, started, { ...started.fields, tenantId: a.tenantId });
      expectRefusalPage(await pageOf(res), 401, 'Signed out', 'Sign in again, then start again from your MCP client.');
    });

    it('refuses an expired stored request (interaction older than 10 minutes)', async () => {
      const started = await startConsent(api.baseUrl, session);
      await dbFor(api.databaseUrl).pool.query(`update oauth_records set expires_at = now() - interval '1 second' where model = 'Interaction'`);
      const res = await approve(api.baseUrl, started, { ...started.fields, tenantId: a.tenantId });
      expect(res.status).to.equal(400);
      expect(await res.text()).to.include('expired');
      const page = await browse(started.jar, `${api.baseUrl}/mcp/authorize`);
      expectRefusalPage(await pageOf(page), 400, 'Authorization request expired', 'This authorization request has expired, was already used, or was started in another browser.');
    });

    it('sets the interaction cookie for 10 minutes, HttpOnly, on /mcp/authorize', async () => {
      const client = new MemoryOAuthClient();
      await auth(client, { serverUrl: `${api.baseUrl}/mcp`, fetchFn: fetchFrom(client.ip) });
      const res = await fetch(client.authorizationUrl!.href, { redirect: 'manual', headers: { 'x-forwarded-for': client.ip } });
      const cookie = res.headers.getSetCookie().find((c) => c.startsWith('_interaction='));
      expect(cookie).to.match(/path=\/mcp\/authorize;/);
      expect(cookie).to.match(/httponly/i);
      expect(cookie).to.match(/samesite=lax/i);
      const expires = Date.parse(/expires=([^;]+)/.exec(cookie as string)![1] as string);
      expect(expires - Date.now()).to.be.within(590_000, 601_000);
    });

    it('refuses a tampered cookie (value or signature)', async () => {
      const started = await startConsent(api.baseUrl, session);
      const original = started.jar.get('_interaction')!;
      // Each tamper changes a character for another one (an 'x' replaced by 'x' changed nothing: 1 run in 64).
      const other = (c: string) => (c === 'x' ? 'y' : 'x');
      started.jar.add('_interaction', `${original.value.slice(0, -1)}${other(original.value.at(-1)!)}`, original.path);
      expectRefusalPage(await pageOf(await approve(api.baseUrl, started, { ...started.fields, tenantId: a.tenantId })), 400, 'Authorization request expired', 'This authorization request has expired, was already used, or was started in another browser.');
      const sig = started.jar.get('_interaction.sig')!;
      started.jar.add('_interaction', original.value, original.path);
      started.jar.add('_interaction.sig', `${other(sig.value[0]!)}${sig.value.slice(1)}`, sig.path);
      expectRefusalPage(await pageOf(await approve(api.baseUrl, started, { ...started.fields, tenantId: a.tenantId })), 400, 'Authorization request expired', 'This authorization request has expired, was already used, or was started in another browser.');
    });

    it('refuses a form from an older request (two tabs)', async () => {
      const older = await startConsent(api.baseUrl, session);
      const newer = await startConsent(api.baseUrl, session);
      older.jar.cookies = newer.jar.cookies;
      const res = await approve(api.baseUrl, older, { ...older.fields, tenantId: a.tenantId });
      expectRefusalPage(await pageOf(res), 409, 'Another authorization is in progress', 'This page belongs to an older authorization request.');
    });

    it('gives a second user of the same browser their own consent and tokens', async () => {
      const first = await startConsent(api.baseUrl, session);
      const ownerTokens = await finishWithCode(api.baseUrl, first.client, await approveAndGetCode(api.baseUrl, first, a.tenantId));
      expect(first.jar.get('_session')).to.not.equal(undefined);
      const ownerToken = await providerFor(api.running.app).AccessToken.find(ownerTokens.access_token);
      expect(ownerToken?.extra).to.deep.equal({ tenantId: a.tenantId, userId: a.owner.userId, permissions: ['admin', 'read', 'write'] });
      const other = await buildMember(api.databaseUrl, a.tenantId);
      const otherSession = await buildSessionCookie(api.databaseUrl, other.userId);
      const second = await startConsent(api.baseUrl, otherSession, new MemoryOAuthClient(), first.jar);
      const tokens = await finishWithCode(api.baseUrl, second.client, await approveAndGetCode(api.baseUrl, second, a.tenantId));
      const stored = await providerFor(api.running.app).AccessToken.find(tokens.access_token);
      expect(stored?.accountId).to.equal(other.userId);
      expect(stored?.extra).to.deep.equal({ tenantId: a.tenantId, userId: other.userId, permissions: ['read', 'write'] });
    });

    it('sends the user back to the client with access_denied on Cancel', async () => {
      const started = await startConsent(api.baseUrl, session);
      const res = await approve(api.baseUrl, started, { ...started.fields, action: 'deny' });
      expect(res.status).to.equal(303);
      const resumed = await browse(started.jar, new URL(res.headers.get('location') as string, api.baseUrl).href);
      expect(new URL(resumed.headers.get('location') as string).searchParams.get('error')).to.equal('access_denied');
    });
  });

  describe('token endpoint', () => {
    it('refuses a wrong redirect_uri, a missing or wrong PKCE verifier, then accepts the right one once', async () => {
      const started = await startConsent(api.baseUrl, session);
      const code = await approveAndGetCode(api.baseUrl, started, a.tenantId);
      const wrongUri = await token(codeRequest(started, code, { redirect_uri: 'http://127.0.0.1:53682/other' }));
      expect(wrongUri).to.deep.include({ status: 400 });
      expect(wrongUri.body.error).to.equal('invalid_grant');
      const noVerifier = await token({ ...codeRequest(started, code), code_verifier: '' });
      expectRefusal(noVerifier, 400, { error: 'invalid_grant', error_description: 'grant request is invalid' });
      const wrongVerifier = await token(codeRequest(started, code, { code_verifier: 'x'.repeat(43) }));
      expect(wrongVerifier.status).to.equal(400);
      expect(wrongVerifier.body.error).to.equal('invalid_grant');

      const ok = await token(codeRequest(started, code));
      expect(ok.status).to.equal(200);
      expect(await mcpStatus(ok.body.access_token as string)).to.equal(200);

      // A reused code is refused and revokes everything issued from it.
      const reused = await token(codeRequest(started, code));
      expect(reused.status).to.equal(400);
      expect(reused.body.error).to.equal('invalid_grant');
      expect(await mcpStatus(ok.body.access_token as string)).to.equal(401);
    });

    it('revokes the grant when a rotated refresh token is used again', async () => {
      const started = await startConsent(api.baseUrl, session);
      const tokens = await finishWithCode(api.baseUrl, started.client, await approveAndGetCode(api.baseUrl, started, a.tenantId));
      const refresh = (value: string) => token({ grant_type: 'refresh_token', refresh_token: value, client_id: started.client.info!.client_id });
      const next = await refresh(tokens.refresh_token as string);
      expect(next.status).to.equal(200);
      expect(next.body.expires_in).to.equal(3600);
      expect(await mcpStatus(next.body.access_token as string)).to.equal(200);
      const replay = await refresh(tokens.refresh_token as string);
      expect(replay.status).to.equal(400);
      expect(replay.body.error).to.equal('invalid_grant');
      expect(await mcpStatus(next.body.access_token as string)).to.equal(401);
      expect((await refresh(next.body.refresh_token as string)).status).to.equal(400);
    });

    it('revokes tokens at /oauth/revoke for their own client only', async () => {
      const mine = await startConsent(api.baseUrl, session);
      const tokens = await finishWithCode(api.baseUrl, mine.client, await approveAndGetCode(api.baseUrl, mine, a.tenantId));
      const theirs = await startConsent(api.baseUrl, session);
      await finishWithCode(api.baseUrl, theirs.client, await approveAndGetCode(api.baseUrl, theirs, a.tenantId));
      const revoke = (clientId: string) => fetch(`${api.baseUrl}/oauth/revoke`, form({ token: tokens.access_token, client_id: clientId }));
      expect((await revoke(theirs.client.info!.client_id)).status).to.equal(200);
      expect(await mcpStatus(tokens.access_token)).to.equal(200);
      expect((await revoke(mine.client.info!.client_id)).status).to.equal(200);
      expect(await mcpStatus(tokens.access_token)).to.equal(401);
    });

    it('rate-limits the token endpoint per client address (60 a minute)', async () => {
      const headers = { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': '203.0.113.77' };
      const statuses: number[] = [];
      for (let i = 0; i < 61; i += 1) {
        statuses.push((await fetch(`${api.baseUrl}/oauth/token`, { method: 'POST', headers, body: 'grant_type=refresh_token' })).status);
      }
      expect(statuses.slice(0, 60).every((s) => s === 400)).to.equal(true);
      expect(statuses[60]).to.equal(429);
    });
  });

  describe('/mcp bearer', () => {
    it('refuses a token issued for another resource, a lost membership, and garbage', async () => {
      const member = await buildMember(api.databaseUrl, b.tenantId);
      const memberSession = await buildSessionCookie(api.databaseUrl, member.userId);
      const started = await startConsent(api.baseUrl, memberSession);
      const tokens = await finishWithCode(api.baseUrl, started.client, await approveAndGetCode(api.baseUrl, started, b.tenantId));
      expect(await mcpStatus(tokens.access_token)).to.equal(200);

      const provider = providerFor(api.running.app);
      const original = await provider.AccessToken.find(tokens.access_token);
      const client = await provider.Client.find(started.client.info!.client_id);
      const foreign = new provider.AccessToken({ accountId: member.userId, client: client!, grantId: original!.grantId!, scope: 'mcp:read', gty: 'authorization_code' });
      foreign.aud = 'https://other.example/mcp';
      const foreignValue = await foreign.save();
      expect(await mcpStatus(foreignValue)).to.equal(401);

      await dbFor(api.databaseUrl).pool.query('delete from tenant_memberships where tenant_id = $1 and user_id = $2', [b.tenantId, member.userId]);
      expect(await mcpStatus(tokens.access_token)).to.equal(401);
      expect(await mcpStatus('not-a-token')).to.equal(401);
      expect(await mcpStatus('gai_not-a-key')).to.equal(401);
    });

    it('refuses a revoked API key', async () => {
      const member = await buildMember(api.databaseUrl, a.tenantId);
      expect(await mcpStatus(member.apiKey)).to.equal(200);
      const keys = await api.as(member.apiKey).get('/api/keys');
      const id = keys.body.data[0].id as string;
      expect((await api.as(member.apiKey).delete(`/api/keys/${id}`)).status).to.be.oneOf([200, 204]);
      expect(await mcpStatus(member.apiKey)).to.equal(401);
    });
  });

  describe('dynamic registration', () => {
    const register = (metadata: Record<string, unknown>) =>
      fetch(`${api.baseUrl}/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': nextIp() }, body: JSON.stringify(metadata) }).then(async (r) => ({
        status: r.status,
        body: (await r.json()) as Record<string, unknown>,
        cors: r.headers.get('access-control-allow-origin'),
      }));

    it('accepts https and loopback http, treats private-use schemes as native apps, refuses the rest', async () => {
      const base = { client_name: 'X', token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'] };
      const https = await register({ ...base, redirect_uris: ['https://client.example/cb'] });
      expect(https.status).to.equal(201);
      expect(https.cors).to.equal('*');
      expect(https.body).to.not.have.property('registration_access_token');
      expect((await register({ ...base, redirect_uris: ['http://localhost:8976/cb'] })).status).to.equal(201);
      const cursor = await register({ ...base, redirect_uris: ['cursor://anysphere.cursor-retrieval/oauth/callback'] });
      expect(cursor.status).to.equal(201);
      expect(cursor.body.application_type).to.equal('native');
      const http = await register({ ...base, redirect_uris: ['http://client.example/cb'] });
      expect(http.status).to.equal(400);
      expect(http.body.error).to.equal('invalid_redirect_uri');
      expectRefusal(await register({ ...base, redirect_uris: ['javascript://x/%0aalert(1)'] }), 400, { error: 'invalid_redirect_uri', error_description: "redirect_uri did not match any of the client's registered redirect_uris" });
      expectRefusal(await register({ ...base, redirect_uris: ['https://client.example/cb'], scope: 'admin' }), 400, { error: 'invalid_client_metadata', error_description: 'scope must only contain Authorization Server supported scope values' });
      const pre = await fetch(`${api.baseUrl}/oauth/register`, { method: 'OPTIONS', headers: { origin: 'https://x.example', 'access-control-request-method': 'POST' } });
      expect(pre.status).to.equal(204);
      expect(pre.headers.get('access-control-allow-methods')).to.include('POST');
    });
  });
});
