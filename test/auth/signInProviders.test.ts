import { expect } from 'chai';
import { and, eq } from 'drizzle-orm';
import { externalIdentities, people, personIdentities } from '../../src/db/schema/index.js';
import { buildMember, buildTenant, dbFor } from '../helpers/factories.js';
import { apiError, expectRefusal } from '../helpers/refusals.js';
import { capturedLog, testServer, type TestServer } from '../helpers/server.js';
import { browse } from '../mcp/oauthFlow.js';
import { newBrowser, rowCounts, signInWith, startFakes, type Fakes } from './providerFlow.js';

let n = 0;
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${(n += 1)}`;

describe('sign-in providers: GitHub, GitLab, Google, Microsoft (fake providers on loopback)', function () {
  this.timeout(30_000);
  let fakes: Fakes;
  let server: TestServer;
  const log = capturedLog('info');

  before(async () => {
    fakes = await startFakes();
    server = await testServer({ port: fakes.port, env: fakes.env, logger: log.logger });
  });
  after(async () => {
    await server?.close();
    await fakes?.close();
  });

  const identitiesOf = (userId: string) => dbFor(server.databaseUrl).db.select().from(externalIdentities).where(eq(externalIdentities.userId, userId));
  const me = (cookie: string) => server.with({ cookie: `sessionId=${cookie}` }).get('/api/users/me');
  const loginError = (res: Response) => {
    expect(res.status).to.equal(303);
    const location = new URL(res.headers.get('location') as string, server.baseUrl);
    expect(location.pathname).to.equal('/login');
    return location.searchParams;
  };

  describe('the login page', () => {
    it('shows a link for each configured provider, carrying returnUrl and mode; none when unconfigured', async () => {
      const page = await server.get('/login?mode=mcp&returnUrl=%2Fmcp%2Fauthorize');
      const links = [...page.text.matchAll(/<a class="provider" id="provider-(\w+)" href="([^"]+)">([^<]+)<\/a>/g)].map((m) => [m[1], m[2]!.replace(/&amp;/g, '&'), m[3]]);
      expect(links).to.deep.equal([
        ['github', '/auth/github?returnUrl=%2Fmcp%2Fauthorize&mode=mcp', 'Sign in with GitHub'],
        ['gitlab', '/auth/gitlab?returnUrl=%2Fmcp%2Fauthorize&mode=mcp', 'Sign in with GitLab'],
        ['google', '/auth/google?returnUrl=%2Fmcp%2Fauthorize&mode=mcp', 'Sign in with Google'],
        ['microsoft', '/auth/microsoft?returnUrl=%2Fmcp%2Fauthorize&mode=mcp', 'Sign in with Microsoft'],
      ]);
      expect(page.text).to.include('action="/auth/email"');
      const plain = await testServer();
      try {
        const bare = await plain.get('/login');
        expect(bare.text).not.to.include('class="provider"');
        expectRefusal(await plain.get('/auth/google'), 404, apiError('not_found', 'No such sign-in provider'));
      } finally {
        await plain.close();
      }
      expectRefusal(await server.get('/auth/facebook'), 404, apiError('not_found', 'No such sign-in provider'));
    });
  });

  describe('Google', () => {
    it('links a first sign-in to the member with that verified address; PKCE S256, state and nonce are sent; later sign-ins go by subject', async () => {
      const tenant = await buildTenant(server.databaseUrl);
      const sub = unique('google-sub');
      fakes.google.account(sub, { email: tenant.owner.email.toUpperCase(), email_verified: true, name: 'Owner' });
      fakes.google.as(sub);
      const { res, start } = await signInWith(server.baseUrl, 'google', newBrowser(), '?returnUrl=%2Fapp%2Fsettings');
      const authorize = new URL(start.headers.get('location') as string);
      expect(authorize.origin).to.equal(fakes.google.issuer);
      expect(authorize.searchParams.get('code_challenge_method')).to.equal('S256');
      expect(authorize.searchParams.get('code_challenge')).to.match(/^[A-Za-z0-9_-]{43}$/);
      expect(authorize.searchParams.get('state')).to.match(/^[A-Za-z0-9_-]{43}$/);
      expect(authorize.searchParams.get('nonce')).to.match(/^[A-Za-z0-9_-]{43}$/);
      expect(authorize.searchParams.get('scope')).to.equal('openid email profile');
      expect(start.headers.getSetCookie().find((c) => c.startsWith('signInFlow='))).to.match(/; Path=\/auth; Max-Age=600; HttpOnly; SameSite=Lax$/);

      expect(res.status).to.equal(303);
      expect(res.headers.get('location')).to.equal('/app/settings');
      const cookie = res.headers.getSetCookie().find((c) => c.startsWith('sessionId=')) as string;
      expect(cookie).to.match(/^sessionId=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Lax$/);
      expect(res.headers.getSetCookie()).to.include('signInFlow=; Path=/auth; Max-Age=0; HttpOnly; SameSite=Lax');
      const session = cookie.split(';')[0]!.slice('sessionId='.length);
      expect((await me(session)).body.data.user.email).to.equal(tenant.owner.email);
      const linked = await identitiesOf(tenant.owner.userId);
      expect(linked.map((i) => [i.provider, i.subject, i.email, i.username])).to.deep.equal([['google', sub, tenant.owner.email, null]]);

      // The address changes at Google (unverified now): the link by subject still signs the same person in.
      fakes.google.account(sub, { email: 'changed@elsewhere.example', email_verified: false });
      const again = await signInWith(server.baseUrl, 'google');
      expect(again.res.headers.get('location')).to.equal('/');
      const second = again.res.headers.getSetCookie().find((c) => c.startsWith('sessionId='))!.split(';')[0]!.slice('sessionId='.length);
      expect((await me(second)).body.data.user.id).to.equal(tenant.owner.userId);
      expect((await identitiesOf(tenant.owner.userId)).map((i) => i.email)).to.deep.equal(['changed@elsewhere.example']);
    });

    it('refuses an unverified address, and a verified one nobody here has ("ask for an invitation"); nothing is created', async () => {
      const tenant = await buildTenant(server.databaseUrl);
      const before = await rowCounts(server.databaseUrl);
      const unverified = unique('unverified');
      fakes.google.account(unverified, { email: tenant.owner.email, email_verified: false });
      fakes.google.as(unverified);
      const refused = await signInWith(server.baseUrl, 'google', newBrowser(), '?mode=mcp&returnUrl=%2Fmcp%2Fauthorize');
      const params = loginError(refused.res);
      expect(Object.fromEntries(params)).to.deep.equal({ error: 'unverified_email', mode: 'mcp', returnUrl: '/mcp/authorize' });
      expect(refused.res.headers.getSetCookie().some((c) => c.startsWith('sessionId='))).to.equal(false);

      const stranger = unique('stranger');
      fakes.google.account(stranger, { email: `${stranger}@example.com`, email_verified: true });
      fakes.google.as(stranger);
      const unknown = await signInWith(server.baseUrl, 'google');
      expect(loginError(unknown.res).get('error')).to.equal('no_account');
      expect(await rowCounts(server.databaseUrl)).to.deep.equal(before);

      const page = await server.get('/login?error=no_account');
      expect(page.text).to.include('There is no account here for you yet. Ask an owner of your organisation for an invitation, then sign in again.');
      const lines = log.lines().filter((l) => l.msg === 'sign-in with provider refused').map((l) => [l.provider, l.problem]);
      expect(lines).to.deep.include(['google', 'unverified_email']).and.to.deep.include(['google', 'no_account']);
      expect(log.text()).not.to.include(tenant.owner.email).and.not.to.include(stranger);
    });

    it('a replayed callback, a forged state and a callback without the browser\'s flow cookie are refused', async () => {
      const tenant = await buildTenant(server.databaseUrl);
      const sub = unique('replay');
      fakes.google.account(sub, { email: tenant.owner.email, email_verified: true });
      fakes.google.as(sub);
      const first = await signInWith(server.baseUrl, 'google');
      expect(first.res.status).to.equal(303);
      expect(first.res.headers.get('location')).to.equal('/');
      const before = await rowCounts(server.databaseUrl);
      // The same callback again, with the flow cookie the browser had: used.
      const replay = await browse(first.browser.app, first.callback.href, { headers: { cookie: first.start.headers.getSetCookie().find((c) => c.startsWith('signInFlow='))!.split(';')[0]! } });
      expect(loginError(replay).get('error')).to.equal('state_invalid');

      const forged = await signInWith(server.baseUrl, 'google', newBrowser(), '', (url) => url.searchParams.set('state', 'forged-state-value-forged-state-value-12345'));
      expect(loginError(forged.res).get('error')).to.equal('state_invalid');
      // Another browser (no flow cookie) presenting a valid callback URL: refused.
      const stolen = await signInWith(server.baseUrl, 'google', newBrowser(), '', () => false);
      const elsewhere = await browse(newBrowser().app, stolen.callback.href);
      expect(loginError(elsewhere).get('error')).to.equal('state_invalid');
      expect(await rowCounts(server.databaseUrl)).to.deep.equal(before);
      // Neither the code, the state, the flow cookie nor the address reaches the log.
      for (const secret of [first.callback.searchParams.get('code'), first.callback.searchParams.get('state'), stolen.callback.searchParams.get('code'), tenant.owner.email, sub]) {
        expect(log.text()).not.to.include(secret as string);
      }
      expect(log.text()).not.to.include(first.start.headers.getSetCookie().find((c) => c.startsWith('signInFlow='))!.split(';')[0]!.slice('signInFlow='.length));
      expect(log.lines().filter((l) => l.problem === 'state_invalid').map((l) => l.reason)).to.include.members(['flow unknown, used or expired', 'state does not match the flow', 'no flow cookie']);
    });

    it('an ID token for another nonce is refused; nothing is created', async () => {
      const tenant = await buildTenant(server.databaseUrl);
      const sub = unique('nonce');
      fakes.google.account(sub, { email: tenant.owner.email, email_verified: true });
      fakes.google.as(sub);
      const before = await rowCounts(server.databaseUrl);
      fakes.google.nonceOverride = 'a-nonce-of-another-flow';
      try {
        const refused = await signInWith(server.baseUrl, 'google');
        expect(loginError(refused.res).get('error')).to.equal('verification_failed');
      } finally {
        fakes.google.nonceOverride = null;
      }
      expect(await rowCounts(server.databaseUrl)).to.deep.equal(before);
      expect(log.lines().find((l) => l.problem === 'verification_failed')?.reason).to.equal('ClientError OAUTH_JWT_CLAIM_COMPARISON_FAILED: unexpected JWT claim value encountered (claim nonce)');
    });

    it('denial at the provider is a clear page; the PKCE verifier is checked by the fake', async () => {
      fakes.google.deny();
      const before = await rowCounts(server.databaseUrl);
      const denied = await signInWith(server.baseUrl, 'google');
      expect(loginError(denied.res).get('error')).to.equal('provider_denied');
      expect(await rowCounts(server.databaseUrl)).to.deep.equal(before);
      expect((await server.get('/login?error=provider_denied')).text).to.include('The sign-in was cancelled or refused at the provider');

      // A code exchanged with a wrong verifier: the fake refuses it (so a signed-in test proves ours was right).
      const sub = unique('pkce');
      fakes.google.account(sub, { email: `${sub}@example.com`, email_verified: true });
      fakes.google.as(sub);
      const flow = await signInWith(server.baseUrl, 'google', newBrowser(), '', () => false);
      const code = flow.callback.searchParams.get('code') as string;
      const wrong = await fetch(`${fakes.google.issuer}/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: `${fakes.appUrl}/auth/google/callback`, code_verifier: 'x'.repeat(43), client_id: fakes.google.clientId, client_secret: fakes.google.clientSecret }),
      });
      expect(wrong.status).to.equal(400);
      expect(((await wrong.json()) as { error: string }).error).to.equal('invalid_grant');
    });
  });

  describe('Microsoft Entra ID', () => {
    it('nOAuth: an e-mail claim without xms_edov links nothing; with xms_edov true it links', async () => {
      const victim = await buildTenant(server.databaseUrl);
      const before = await rowCounts(server.databaseUrl);
      const attacker = unique('attacker-oid');
      // The attacker's own directory says the victim's address is theirs; Entra does not vouch for it.
      fakes.microsoft.account(attacker, { email: victim.owner.email, name: 'Not the owner' });
      fakes.microsoft.as(attacker);
      expect(loginError((await signInWith(server.baseUrl, 'microsoft')).res).get('error')).to.equal('unverified_email');
      fakes.microsoft.account(attacker, { email: victim.owner.email, xms_edov: false });
      expect(loginError((await signInWith(server.baseUrl, 'microsoft')).res).get('error')).to.equal('unverified_email');
      expect(await rowCounts(server.databaseUrl)).to.deep.equal(before);

      const owner = unique('owner-oid');
      fakes.microsoft.account(owner, { email: victim.owner.email, xms_edov: true });
      fakes.microsoft.as(owner);
      const ok = await signInWith(server.baseUrl, 'microsoft');
      expect(ok.res.status).to.equal(303);
      expect(ok.res.headers.get('location')).to.equal('/');
      expect((await identitiesOf(victim.owner.userId)).map((i) => [i.provider, i.subject])).to.deep.equal([['microsoft', owner]]);
    });

    it('a provider that cannot be reached is a clear page (discovery fails) and nothing is stored', async () => {
      const down = await testServer({ env: { IDP2_CLIENT_ID: 'x', IDP2_CLIENT_SECRET: 'y', IDP2_ISSUER: 'http://127.0.0.2:9/v2.0' } });
      try {
        const res = await down.with({ 'x-forwarded-for': '10.9.9.9' }).get('/auth/microsoft?mode=mcp&returnUrl=%2Fmcp%2Fauthorize');
        expect(Object.fromEntries(loginError(res as unknown as Response))).to.deep.equal({ error: 'provider_unavailable', mode: 'mcp', returnUrl: '/mcp/authorize' });
        expect(await rowCounts(down.databaseUrl)).to.deep.include({ externalIdentities: 0, loginSessions: 0 });
        expect((await down.get('/login?error=provider_unavailable')).text).to.include('The sign-in provider could not be reached.');
      } finally {
        await down.close();
      }
    });
  });

  describe('GitHub', () => {
    it('only verified addresses count; the login becomes the person identity of the matching person in each tenant', async () => {
      const tenant = await buildTenant(server.databaseUrl);
      const login = unique('Octo');
      const { db } = dbFor(server.databaseUrl);
      const [person] = await db.insert(people).values({ tenantId: tenant.tenantId, externalRef: unique('hr'), email: tenant.owner.email.toUpperCase() }).returning();
      const other = await buildTenant(server.databaseUrl);
      await buildMember(server.databaseUrl, other.tenantId, 'member', tenant.owner.email).catch(() => undefined);

      // The member's address is on the account but unverified; another, verified address is nobody's.
      fakes.github.account({ id: 4242, login, emails: [{ email: `${login}@users.example`, primary: true, verified: true }, { email: tenant.owner.email, primary: false, verified: false }] });
      fakes.github.as(login);
      const before = await rowCounts(server.databaseUrl);
      expect(loginError((await signInWith(server.baseUrl, 'github')).res).get('error')).to.equal('no_account');
      fakes.github.account({ id: 4242, login, emails: [{ email: tenant.owner.email, primary: false, verified: false }] });
      expect(loginError((await signInWith(server.baseUrl, 'github')).res).get('error')).to.equal('unverified_email');
      expect(await rowCounts(server.databaseUrl)).to.deep.equal(before);

      fakes.github.account({ id: 4242, login, emails: [{ email: `${login}@users.example`, primary: true, verified: true }, { email: tenant.owner.email, primary: false, verified: true }] });
      const ok = await signInWith(server.baseUrl, 'github', newBrowser(), '?returnUrl=%2Fapp%2F');
      expect(ok.res.status).to.equal(303);
      expect(ok.res.headers.get('location')).to.equal('/app/');
      expect(fakes.github.authorizations.at(-1)?.get('code_challenge_method')).to.equal('S256');
      expect(fakes.github.authorizations.at(-1)?.get('scope')).to.equal('read:user user:email');
      expect(fakes.github.authorizations.at(-1)?.has('nonce')).to.equal(false);
      expect((await identitiesOf(tenant.owner.userId)).map((i) => [i.provider, i.subject, i.username, i.email])).to.deep.equal([['github', '4242', login, `${login.toLowerCase()}@users.example`]]);
      const recorded = await db.select({ personId: personIdentities.personId, value: personIdentities.value, source: personIdentities.source })
        .from(personIdentities).where(and(eq(personIdentities.tenantId, tenant.tenantId), eq(personIdentities.kind, 'codehost_username')));
      expect(recorded).to.deep.equal([{ personId: person!.id, value: login.toLowerCase(), source: 'signin' }]);
      // The other tenant has no such person: nothing there.
      expect(await db.select().from(personIdentities).where(eq(personIdentities.tenantId, other.tenantId))).to.deep.equal([]);
    });

    it('denial, a wrong verifier at the token endpoint, and GitHub being down are each a page; nothing is created', async () => {
      const tenant = await buildTenant(server.databaseUrl);
      const login = unique('down');
      fakes.github.account({ id: 777001, login, emails: [{ email: tenant.owner.email, primary: true, verified: true }] });
      const before = await rowCounts(server.databaseUrl);
      fakes.github.deny();
      expect(loginError((await signInWith(server.baseUrl, 'github')).res).get('error')).to.equal('provider_denied');
      fakes.github.as(login);
      fakes.github.down = true;
      try {
        expect(loginError((await signInWith(server.baseUrl, 'github')).res).get('error')).to.equal('provider_unavailable');
      } finally {
        fakes.github.down = false;
      }
      expect(await rowCounts(server.databaseUrl)).to.deep.equal(before);
      const refusals = fakes.github.refusals.length;
      const flow = await signInWith(server.baseUrl, 'github', newBrowser(), '', () => false);
      const wrong = await fetch(`${fakes.github.url}/login/oauth/access_token`, {
        method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: new URLSearchParams({ client_id: fakes.github.clientId, client_secret: fakes.github.clientSecret, code: flow.callback.searchParams.get('code') as string, code_verifier: 'y'.repeat(43), redirect_uri: `${fakes.appUrl}/auth/github/callback` }),
      });
      expect(await wrong.json()).to.deep.include({ error: 'bad_verification_code' });
      expect(fakes.github.refusals.slice(refusals)).to.deep.equal(['pkce']);
    });
  });

  describe('invitations', () => {
    it('a pending invitation for the verified address admits a new person: user, membership with the invited role, link, session in that tenant', async () => {
      const tenant = await buildTenant(server.databaseUrl, 'Inviting Org');
      const email = `${unique('invitee')}@example.com`;
      const invited = await server.as(tenant.owner.apiKey).post('/api/invitations', { email, role: 'member' });
      expect(invited.status).to.equal(201);
      const sub = unique('invitee-sub');
      fakes.google.account(sub, { email, email_verified: true });
      fakes.google.as(sub);
      const before = await rowCounts(server.databaseUrl);
      const ok = await signInWith(server.baseUrl, 'google', newBrowser(), '?returnUrl=%2Fapp%2F');
      expect(ok.res.status).to.equal(303);
      expect(ok.res.headers.get('location')).to.equal('/app/');
      const session = ok.res.headers.getSetCookie().find((c) => c.startsWith('sessionId='))!.split(';')[0]!.slice('sessionId='.length);
      const mine = (await me(session)).body.data;
      expect(mine.user.email).to.equal(email);
      expect(mine.activeTenant).to.deep.include({ id: tenant.tenantId, role: 'member' });
      expect(await rowCounts(server.databaseUrl)).to.deep.equal({ ...before, users: before.users! + 1, memberships: before.memberships! + 1, externalIdentities: before.externalIdentities! + 1, loginSessions: before.loginSessions! + 1 });
      expect((await server.as(tenant.owner.apiKey).get('/api/invitations')).body.data).to.deep.equal([]);
    });

    it('a revoked invitation admits nobody, and neither does a pending one for an unverified address; nothing is created', async () => {
      const tenant = await buildTenant(server.databaseUrl);
      const email = `${unique('revoked')}@example.com`;
      const invited = await server.as(tenant.owner.apiKey).post('/api/invitations', { email, role: 'owner' });
      expect((await server.as(tenant.owner.apiKey).delete(`/api/invitations/${invited.body.data.id}`)).status).to.equal(200);
      const pendingEmail = `${unique('pending')}@example.com`;
      expect((await server.as(tenant.owner.apiKey).post('/api/invitations', { email: pendingEmail, role: 'member' })).status).to.equal(201);
      const before = await rowCounts(server.databaseUrl);
      const sub = unique('revoked-sub');
      fakes.google.account(sub, { email, email_verified: true });
      fakes.google.as(sub);
      expect(loginError((await signInWith(server.baseUrl, 'google')).res).get('error')).to.equal('no_account');
      fakes.google.account(sub, { email: pendingEmail, email_verified: false });
      expect(loginError((await signInWith(server.baseUrl, 'google')).res).get('error')).to.equal('unverified_email');
      expect(await rowCounts(server.databaseUrl)).to.deep.equal(before);
    });
  });

  describe('GitLab', () => {
    it('links by verified address and records the username (nickname) as a person identity', async () => {
      const tenant = await buildTenant(server.databaseUrl);
      const { db } = dbFor(server.databaseUrl);
      const [person] = await db.insert(people).values({ tenantId: tenant.tenantId, externalRef: unique('hr') }).returning();
      await db.insert(personIdentities).values({ tenantId: tenant.tenantId, personId: person!.id, kind: 'email', value: tenant.owner.email, source: 'manual' });
      const sub = String(90000 + n);
      fakes.gitlab.account(sub, { email: tenant.owner.email, email_verified: true, nickname: 'Lab-User', preferred_username: 'Lab-User' });
      fakes.gitlab.as(sub);
      const ok = await signInWith(server.baseUrl, 'gitlab');
      expect(ok.res.status).to.equal(303);
      expect(ok.res.headers.get('location')).to.equal('/');
      expect((await identitiesOf(tenant.owner.userId)).map((i) => [i.provider, i.subject, i.username])).to.deep.equal([['gitlab', sub, 'Lab-User']]);
      const recorded = await db.select({ value: personIdentities.value, source: personIdentities.source }).from(personIdentities)
        .where(and(eq(personIdentities.personId, person!.id), eq(personIdentities.kind, 'codehost_username')));
      expect(recorded).to.deep.equal([{ value: 'lab-user', source: 'signin' }]);
    });
  });
});
