/**
 * Invitations end to end over HTTP: two instances on one database, one without a mailer (the link
 * comes back to the owner) and one speaking to a local Postmark-compatible server.
 */
import { expect } from 'chai';
import { and, eq } from 'drizzle-orm';
import { invitations, tenantMemberships, users } from '../../src/db/schema/index.js';
import { sha256 } from '../../src/auth/secrets.js';
import { buildMember, buildSessionCookie, buildTenant, dbFor, twoTenants, type BuiltTenant, type BuiltUser } from '../helpers/factories.js';
import { fakePostmark, type FakePostmark } from '../helpers/fakePostmark.js';
import { apiError, expectRefusal, expectRefusalPage } from '../helpers/refusals.js';
import { capturedLog, testServer, type TestServer } from '../helpers/server.js';
import { until } from '../helpers/until.js';
import { cookieValue, fromNewAddress, hiddenField, setCookies } from './helpers.js';

const NO_MAILER_REASON = 'No e-mail was sent: this server has no mailer configured (MAILER_API_KEY). Copy the link and send it to the person yourself.';
const NOT_FOUND = { error: { code: 'not_found', message: 'Invitation not found' } };
const FORBIDDEN = { error: { code: 'forbidden', message: 'You do not have permission to do this' } };
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const DAY = 86_400_000;

let counter = 0;
const newAddress = () => `invitee-${process.pid}-${(counter += 1)}@example.com`;
const tokenOfLink = (link: string) => /\/invite\/([A-Za-z0-9_-]+)$/.exec(link)![1] as string;
const linkIn = (text: string) => /(http:\/\/\S+)/.exec(text)![1] as string;

describe('invitations', () => {
  const plainLog = capturedLog('info');
  const mailedLog = capturedLog('info');
  let mail: FakePostmark;
  let plain: TestServer;
  let mailed: TestServer;
  let a: BuiltTenant;
  let b: BuiltTenant;
  let member: BuiltUser;
  const issued: string[] = [];

  before(async () => {
    mail = await fakePostmark();
    plain = await testServer({ logger: plainLog.logger });
    mailed = await testServer({ databaseUrl: plain.databaseUrl, logger: mailedLog.logger, env: { MAILER_API_KEY: mail.token, MAILER_API_URL: mail.url, MAILER_FROM: 'Analytics <invites@example.com>' } });
    ({ a, b } = await twoTenants(plain.databaseUrl, { a: 'Acme Invitations' }));
    member = await buildMember(plain.databaseUrl, a.tenantId, 'member');
  });
  after(async () => {
    // No invitation token ever reached a log line, whatever happened above.
    for (const token of issued) {
      expect(plainLog.text()).not.to.include(token);
      expect(mailedLog.text()).not.to.include(token);
    }
    await plain.close();
    await mailed.close();
    await mail.close();
  });

  const db = () => dbFor(plain.databaseUrl).db;
  const rowOf = async (id: string) => (await db().select().from(invitations).where(eq(invitations.id, id)))[0]!;
  const roleIn = async (tenantId: string, userId: string) => {
    const [row] = await db().select({ role: tenantMemberships.role }).from(tenantMemberships)
      .where(and(eq(tenantMemberships.tenantId, tenantId), eq(tenantMemberships.userId, userId)));
    return row?.role ?? null;
  };

  /** Invites through the instance without a mailer; returns the invitation and its link's token. */
  async function invite(t: BuiltTenant, email = newAddress(), role = 'member') {
    const res = await plain.as(t.owner.apiKey).post('/api/invitations', { email, role });
    expect(res.status, res.text).to.equal(201);
    const token = tokenOfLink(res.body.data.delivery.link);
    issued.push(token);
    return { id: res.body.data.id as string, email, token, body: res.body };
  }

  /** The page of a link, as a browser with `cookie` (and a fresh client address) opens it. */
  const open = (token: string, cookie?: string) => fromNewAddress(plain).get(`/invite/${token}`, cookie ? { cookie } : {});

  /** Posts a page's form the way the browser would: its CSRF cookie and field, our Origin. */
  async function submit(page: Awaited<ReturnType<typeof open>>, action: string, cookie?: string, server = plain) {
    const csrf = hiddenField(page.text, 'csrf') as string;
    expect(csrf, page.text).to.match(/^[A-Za-z0-9_-]{43}$/);
    const cookies = [`csrfToken=${cookieValue(page, 'csrfToken')}`, ...(cookie ? [cookie] : [])].join('; ');
    return fromNewAddress(server).post(action, `csrf=${csrf}`, { ...FORM, cookie: cookies, origin: server.baseUrl });
  }

  it('without a mailer: 201 with the link for the owner to copy, and why; only the token’s hash is stored', async () => {
    const before = Date.now();
    const email = newAddress();
    const res = await plain.as(a.owner.apiKey).post('/api/invitations', { email: email.toUpperCase(), role: 'member' });
    expect(res.status).to.equal(201);
    const { data, meta } = res.body;
    expect(meta).to.deep.equal({});
    expect(Object.keys(data)).to.deep.equal(['id', 'email', 'role', 'status', 'invitedBy', 'createdAt', 'expiresAt', 'delivery']);
    expect(data).to.deep.include({ email, role: 'member', status: 'pending', invitedBy: { userId: a.owner.userId, email: a.owner.email } });
    expect(data.delivery).to.deep.equal({ method: 'link', link: data.delivery.link, reason: NO_MAILER_REASON });
    expect(data.delivery.link).to.match(new RegExp(`^${plain.baseUrl}/invite/[A-Za-z0-9_-]{43}$`));
    const token = tokenOfLink(data.delivery.link);
    issued.push(token);
    expect(Date.parse(data.expiresAt) - Date.parse(data.createdAt)).to.equal(7 * DAY);
    expect(Date.parse(data.createdAt)).to.be.within(before - 5000, Date.now() + 5000);

    const row = await rowOf(data.id);
    expect(row).to.deep.include({ tenantId: a.tenantId, email, role: 'member', tokenHash: sha256(token), acceptedAt: null, revokedAt: null, invitedBy: a.owner.userId });
    expect(JSON.stringify(row)).not.to.include(token);
  });

  it('with a mailer: the e-mail carries the link, the answer never does', async () => {
    const email = newAddress();
    const res = await mailed.as(a.owner.apiKey).post('/api/invitations', { email, role: 'owner' });
    expect(res.status).to.equal(201);
    expect(res.body.data.delivery).to.deep.equal({ method: 'mail' });
    expect(res.text).not.to.include('/invite/');

    const message = await mail.waitFor(email);
    expect(message.From).to.equal('Analytics <invites@example.com>');
    expect(message.Subject).to.equal('Invitation to Acme Invitations on Delivery Analytics');
    const link = linkIn(message.TextBody);
    expect(link).to.match(new RegExp(`^${mailed.baseUrl}/invite/[A-Za-z0-9_-]{43}$`));
    expect(message.TextBody).to.include(`${a.owner.email} invited you to join Acme Invitations on Delivery Analytics as an owner.`);
    expect(message.HtmlBody).to.include(`href="${link}"`);
    issued.push(tokenOfLink(link));
    expect((await rowOf(res.body.data.id)).tokenHash).to.equal(sha256(tokenOfLink(link)));
    expect(res.text).not.to.include(tokenOfLink(link));
  });

  it('a hostile tenant name is text on the link\'s page and in the e-mail, never markup', async () => {
    const hostile = `<script>alert(1)</script>"><img src=x onerror=alert(1)> ${process.pid}`;
    const escaped = `&lt;script&gt;alert(1)&lt;/script&gt;&quot;&gt;&lt;img src=x onerror=alert(1)&gt; ${process.pid}`;
    const t = await buildTenant(plain.databaseUrl, hostile);
    const email = newAddress();
    expect((await mailed.as(t.owner.apiKey).post('/api/invitations', { email, role: 'member' })).status).to.equal(201);
    const message = await mail.waitFor(email);
    expect(message.HtmlBody).to.include(`<p>${t.owner.email} invited you to join ${escaped} on Delivery Analytics as a member.</p>`);
    expect(message.HtmlBody).not.to.match(/<script|<img/);
    const token = tokenOfLink(linkIn(message.TextBody));
    issued.push(token);

    const page = await fromNewAddress(mailed).get(`/invite/${token}`);
    expect(page.status).to.equal(200);
    expect(page.text).to.include(`<title>Join ${escaped} · Delivery Analytics</title>`);
    expect(page.text).to.include(`<p id="offer">${t.owner.email} invited <strong>${email}</strong> to join <strong>${escaped}</strong> as a member.</p>`);
    expect(page.text).not.to.match(/<script|<img/);
  });

  it('a mail API failure withdraws the invitation and says so (503)', async () => {
    mail.failWith = { status: 500, errorCode: 500 };
    try {
      const email = newAddress();
      const res = await mailed.as(a.owner.apiKey).post('/api/invitations', { email, role: 'member' });
      expect(res.status).to.equal(503);
      expect(res.body).to.deep.equal({ error: { code: 'unavailable', message: 'The invitation e-mail could not be sent, so the invitation was withdrawn; try again later' } });
      const listed = await plain.as(a.owner.apiKey).get('/api/invitations?perPage=100');
      expect(listed.body.data.map((i: any) => i.email)).not.to.include(email);
    } finally {
      mail.failWith = null;
    }
  });

  it('lists open invitations to owners, never a token; members may neither list, invite nor revoke (403)', async () => {
    const t = await buildTenant(plain.databaseUrl);
    const m = await buildMember(plain.databaseUrl, t.tenantId, 'member');
    const first = await invite(t);
    const second = await invite(t, newAddress(), 'owner');
    const listed = await plain.as(t.owner.apiKey).get('/api/invitations');
    expect(listed.status).to.equal(200);
    expect(listed.body.meta).to.deep.equal({ page: 1, perPage: 25, total: 2 });
    expect(listed.body.data.map((i: any) => [i.id, i.email, i.role, i.status])).to.deep.equal([
      [second.id, second.email, 'owner', 'pending'],
      [first.id, first.email, 'member', 'pending'],
    ]);
    expect(Object.keys(listed.body.data[0])).to.deep.equal(['id', 'email', 'role', 'status', 'invitedBy', 'createdAt', 'expiresAt']);
    for (const token of [first.token, second.token]) {
      expect(listed.text).not.to.include(token);
      expect(listed.text).not.to.include(sha256(token));
    }

    const memberCookie = await buildSessionCookie(plain.databaseUrl, m.userId, t.tenantId);
    for (const as of [plain.as(m.apiKey), plain.with({ cookie: memberCookie })]) {
      for (const res of [
        await as.get('/api/invitations'),
        await as.post('/api/invitations', { email: newAddress(), role: 'member' }),
        await as.delete(`/api/invitations/${first.id}`),
      ]) {
        expect(res.status).to.equal(403);
        expect(res.body).to.deep.equal(FORBIDDEN);
      }
    }
    expect((await rowOf(first.id)).revokedAt).to.equal(null);
  });

  it('validates the body: every field’s problem under its name', async () => {
    const res = await plain.as(a.owner.apiKey).post('/api/invitations', { email: 'not an address', role: 'admin' });
    expect(res.status).to.equal(400);
    expect(res.body.error.code).to.equal('validation_failed');
    expect(res.body.error.details.map((d: any) => d.path)).to.deep.equal(['email', 'role']);
    const empty = await plain.as(a.owner.apiKey).post('/api/invitations', {});
    expect(empty.body.error.details).to.deep.equal([{ path: 'email', message: 'Required' }, { path: 'role', message: 'Required' }]);
    expectRefusal(await plain.as(a.owner.apiKey).post('/api/invitations', { email: newAddress(), role: 'member', token: 'x' }), 400, { error: { code: 'validation_failed', message: 'Validation failed', details: [{ path: 'body', message: 'Unknown field: token' }] } });
  });

  it('someone already in the tenant is a 409 already_member, with the problem under email', async () => {
    const res = await plain.as(a.owner.apiKey).post('/api/invitations', { email: member.email.toUpperCase(), role: 'owner' });
    expect(res.status).to.equal(409);
    expect(res.body).to.deep.equal({ error: { code: 'already_member', message: 'This person is already a member of the tenant', details: [{ path: 'email', message: 'Already a member of this tenant' }] } });
  });

  it('inviting an address again replaces the open invitation: same id, new token, role and expiry; the old link is dead', async () => {
    const t = await buildTenant(plain.databaseUrl);
    const first = await invite(t);
    await db().update(invitations).set({ expiresAt: new Date(Date.now() + DAY) }).where(eq(invitations.id, first.id));
    const again = await invite(t, first.email, 'owner');
    expect(again.id).to.equal(first.id);
    expect(again.token).not.to.equal(first.token);
    expect(again.body.data).to.include({ role: 'owner', status: 'pending' });
    expect(Date.parse(again.body.data.expiresAt) - Date.now()).to.be.within(7 * DAY - 60_000, 7 * DAY + 5000);
    const listed = await plain.as(t.owner.apiKey).get('/api/invitations');
    expect(listed.body.data.map((i: any) => i.id)).to.deep.equal([first.id]);
    expectRefusalPage(await open(first.token), 404, 'Invitation not found · Delivery Analytics', 'This invitation link is not valid.');
    expect((await open(again.token)).status).to.equal(200);
  });

  it('signed in as the invited address: the page offers to join; joining adds the role and acts in the tenant', async () => {
    const { a: t, b: elsewhere } = await twoTenants(plain.databaseUrl, { a: 'Joinable Co' });
    const person = await buildMember(plain.databaseUrl, elsewhere.tenantId, 'member');
    const { id, token } = await invite(t, person.email.toUpperCase(), 'owner');
    const cookie = await buildSessionCookie(plain.databaseUrl, person.userId, elsewhere.tenantId);

    const page = await open(token, cookie);
    expect(page.status).to.equal(200);
    expect(page.headers.get('content-type')).to.equal('text/html; charset=utf-8');
    expect(page.headers.get('cache-control')).to.equal('no-store');
    expect(page.headers.get('referrer-policy')).to.equal('same-origin');
    expect(page.text).to.include(`<p id="offer">${t.owner.email} invited <strong>${person.email}</strong> to join <strong>Joinable Co</strong> as an owner.</p>`);
    expect(page.text).to.include(`<form method="post" action="/invite/${token}">`);
    expect(page.text).to.include('<button type="submit">Join Joinable Co</button>');

    // Without the CSRF field, or from another origin: refused, nothing changes.
    const noToken = await fromNewAddress(plain).post(`/invite/${token}`, '', { ...FORM, cookie });
    expectRefusal(noToken, 403, apiError('forbidden', 'Invalid or missing CSRF token; reload the page and try again'));
    const foreign = await fromNewAddress(plain).post(`/invite/${token}`, 'csrf=x', { ...FORM, cookie, origin: 'https://evil.example' });
    expectRefusal(foreign, 403, apiError('forbidden', 'Cross-origin request refused'));
    expect(await roleIn(t.tenantId, person.userId)).to.equal(null);

    const joined = await submit(page, `/invite/${token}`, cookie);
    expect(joined.status).to.equal(303);
    expect(joined.headers.get('location')).to.equal('/app/');
    expect(await roleIn(t.tenantId, person.userId)).to.equal('owner');
    const me = await plain.with({ cookie }).get('/api/users/me');
    expect(me.body.data.activeTenant).to.deep.include({ id: t.tenantId, name: 'Joinable Co', role: 'owner' });
    const row = await rowOf(id);
    expect(row.acceptedBy).to.equal(person.userId);
    expect(row.acceptedAt).to.be.instanceOf(Date);
    expect((await plain.as(t.owner.apiKey).get('/api/invitations')).body.data).to.deep.equal([]);

    // Single use: the link and its form now explain, with 410.
    const reused = await open(token, cookie);
    expect(reused.status).to.equal(410);
    expect(reused.text).to.include('This invitation to Joinable Co has already been accepted; each link works once.');
    const resubmitted = await submit(page, `/invite/${token}`, cookie);
    expectRefusalPage(resubmitted, 410, 'Invitation already used · Delivery Analytics', 'This invitation to Joinable Co has already been accepted; each link works once.');
  });

  it('signed in as another address: a clear 403 page with a sign-out that comes back to the link', async () => {
    const { email, token } = await invite(a);
    const cookie = await buildSessionCookie(plain.databaseUrl, member.userId, a.tenantId);
    const page = await open(token, cookie);
    expect(page.status).to.equal(403);
    expect(page.text).to.include(`You are signed in as ${member.email}, but this invitation is for ${email}. Sign out, then sign in as ${email} to accept it.`);
    expect(page.text).not.to.include(`action="/invite/${token}"`);
    const joined = await submit(page, `/invite/${token}`, cookie);
    expect(joined.status).to.equal(303);
    expect(joined.headers.get('location')).to.equal(`/invite/${token}`);
    expect((await rowOf((await db().select().from(invitations).where(eq(invitations.tokenHash, sha256(token))))[0]!.id)).acceptedAt).to.equal(null);

    const csrf = hiddenField(page.text, 'csrf') as string;
    expect(hiddenField(page.text, 'returnUrl')).to.equal(`/invite/${token}`);
    const out = await fromNewAddress(plain).post('/auth/logout', `csrf=${csrf}&returnUrl=${encodeURIComponent(`/invite/${token}`)}`, {
      ...FORM, cookie: `csrfToken=${cookieValue(page, 'csrfToken')}; ${cookie}`, origin: plain.baseUrl,
    });
    expect(out.status).to.equal(303);
    expect(out.headers.get('location')).to.equal(`/invite/${token}`);
  });

  it('signed out, a new address: the page e-mails a sign-in link to the invited address; opening it joins and signs in', async () => {
    const { body } = { body: await mailed.as(a.owner.apiKey).post('/api/invitations', { email: newAddress(), role: 'member' }) };
    const email = body.body.data.email as string;
    const token = tokenOfLink(linkIn((await mail.waitFor(email)).TextBody));
    issued.push(token);
    expect((await db().select().from(users).where(eq(users.email, email)))).to.have.length(0);

    const page = await fromNewAddress(mailed).get(`/invite/${token}`);
    expect(page.status).to.equal(200);
    expect(page.text).to.include(`To accept, sign in as ${email}: we e-mail a sign-in link to that address.`);
    expect(page.text).to.include(`<form method="post" action="/invite/${token}/sign-in">`);
    const asked = await submit(page, `/invite/${token}/sign-in`, undefined, mailed);
    expect(asked.status).to.equal(303);
    expect(asked.headers.get('location')).to.equal(`/invite/${token}?sent=1`);
    const sent = await fromNewAddress(mailed).get(`/invite/${token}?sent=1`);
    expect(sent.text).to.include(`Check your e-mail at ${email}`);

    const signIn = await waitForSecond(mail, email);
    expect(signIn.Subject).to.equal('Sign in to join Acme Invitations on Delivery Analytics');
    const link = new URL(linkIn(signIn.TextBody));
    expect(link.pathname).to.equal('/auth/email/callback');
    const opened = await fromNewAddress(plain).get(link.pathname + link.search);
    expect(opened.status).to.equal(303);
    expect(opened.headers.get('location')).to.equal('/app/');
    const session = setCookies(opened).find((c) => c.startsWith('sessionId='))!.split(';')[0] as string;
    const me = await plain.with({ cookie: session }).get('/api/users/me');
    expect(me.status).to.equal(200);
    expect(me.body.data.user.email).to.equal(email);
    expect(me.body.data.activeTenant).to.deep.include({ id: a.tenantId, role: 'member' });
    expectRefusalPage(await open(token), 410, 'Invitation already used · Delivery Analytics', 'This invitation to Acme Invitations has already been accepted; each link works once.');
    // The sign-in link itself is single use too.
    expect((await fromNewAddress(plain).get(link.pathname + link.search)).headers.get('location')).to.equal('/login?error=invalid_link');
  });

  it('without a mailer the invitee’s sign-in link goes to the development log, not the invitation token', async () => {
    const { token, email } = await invite(a);
    const page = await open(token);
    expect(page.text).to.include('Development mode without a mailer: the sign-in link is written to the server log.');
    expect((await submit(page, `/invite/${token}/sign-in`)).status).to.equal(303);
    const line = plainLog.lines().find((l) => l.msg === 'sign-in link (development: no mailer configured)' && l.email === email);
    expect(line?.link).to.match(/\/auth\/email\/callback\?token=/);
  });

  it('expired: the page says so (410), joining and asking for a sign-in link are refused, a link asked before does not join', async () => {
    const { a: t, b: elsewhere } = await twoTenants(plain.databaseUrl, { a: 'Expiring Co' });
    const person = await buildMember(plain.databaseUrl, elsewhere.tenantId, 'member');
    const { id, token } = await invite(t, person.email);
    const cookie = await buildSessionCookie(plain.databaseUrl, person.userId, elsewhere.tenantId);
    const joinPage = await open(token, cookie);
    const signInPage = await open(token);
    expect((await submit(signInPage, `/invite/${token}/sign-in`)).status).to.equal(303);
    const line = plainLog.lines().find((l) => l.msg === 'sign-in link (development: no mailer configured)' && l.email === person.email)!;

    // Backdated past its 7 days (the database clock decides).
    await db().update(invitations).set({ createdAt: new Date(Date.now() - 8 * DAY), expiresAt: new Date(Date.now() - DAY) }).where(eq(invitations.id, id));
    const page = await open(token, cookie);
    expect(page.status).to.equal(410);
    expect(page.text).to.include('<title>Invitation expired · Delivery Analytics</title>');
    expect(page.text).to.include('This invitation to Expiring Co has expired (invitations are valid for 7 days).');
    expectRefusalPage(await submit(joinPage, `/invite/${token}`, cookie), 410, 'Invitation expired · Delivery Analytics', 'This invitation to Expiring Co has expired (invitations are valid for 7 days).');
    expectRefusalPage(await submit(signInPage, `/invite/${token}/sign-in`), 410, 'Invitation expired · Delivery Analytics', 'This invitation to Expiring Co has expired (invitations are valid for 7 days).');

    const link = new URL(line.link as string);
    const opened = await fromNewAddress(plain).get(link.pathname + link.search);
    expect(opened.headers.get('location')).to.equal('/login?error=invitation_unavailable');
    expect(setCookies(opened).some((c) => c.startsWith('sessionId='))).to.equal(false);
    expect((await fromNewAddress(plain).get('/login?error=invitation_unavailable')).text).to.include('That invitation was revoked, already used, or has expired');
    expect(await roleIn(t.tenantId, person.userId)).to.equal(null);
    const listed = await plain.as(t.owner.apiKey).get('/api/invitations');
    expect(listed.body.data.map((i: any) => [i.id, i.status])).to.deep.equal([[id, 'expired']]);
  });

  it('revoked: the link shows a clear 410 page; a new address asked a sign-in link before gets no account', async () => {
    const { id, token, email } = await invite(a);
    const page = await open(token);
    expect((await submit(page, `/invite/${token}/sign-in`)).status).to.equal(303);
    const line = plainLog.lines().find((l) => l.msg === 'sign-in link (development: no mailer configured)' && l.email === email)!;

    const revoked = await plain.as(a.owner.apiKey).delete(`/api/invitations/${id}`);
    expect(revoked.status).to.equal(200);
    expect(revoked.body.data).to.include({ id, email, status: 'revoked' });
    expect((await rowOf(id)).revokedAt).to.be.instanceOf(Date);
    expect((await plain.as(a.owner.apiKey).delete(`/api/invitations/${id}`)).body).to.deep.equal(NOT_FOUND);

    const dead = await open(token);
    expect(dead.status).to.equal(410);
    expect(dead.text).to.include('This invitation to Acme Invitations was withdrawn by an owner of the tenant.');
    expect(dead.text).not.to.match(/at \S+\.ts:\d+/);
    const link = new URL(line.link as string);
    expect((await fromNewAddress(plain).get(link.pathname + link.search)).headers.get('location')).to.equal('/login?error=invitation_unavailable');
    expect(await db().select().from(users).where(eq(users.email, email))).to.have.length(0);
  });

  it('an unknown or malformed token is a 404 page, never a stack', async () => {
    for (const token of ['A'.repeat(43), 'short', 'x'.repeat(299)]) {
      const res = await open(token);
      expect(res.status, token).to.equal(404);
      expect(res.headers.get('content-type')).to.equal('text/html; charset=utf-8');
      expect(res.text).to.include('This invitation link is not valid.');
    }
    expectRefusal(await open('x'.repeat(301)), 400, { error: { code: 'validation_failed', message: 'Validation failed', details: [{ path: 'params.token', message: 'Must be at most 300 characters' }] } });
  });

  it('another tenant’s invitation id is 404 for every endpoint and stays untouched', async () => {
    const { id } = await invite(a);
    const listed = await plain.as(b.owner.apiKey).get('/api/invitations');
    expect(listed.body.data.map((i: any) => i.id)).not.to.include(id);
    for (const target of [id, '6d1f8a52-6b0e-4c5b-9d1e-1f2a3b4c5d6e', 'nope']) {
      const res = await plain.as(b.owner.apiKey).delete(`/api/invitations/${target}`);
      expect(res.status, target).to.equal(404);
      expect(res.body).to.deep.equal(NOT_FOUND);
    }
    expect((await rowOf(id)).revokedAt).to.equal(null);
  });
});

/** The second message to `to` (the first was the invitation). */
function waitForSecond(mail: FakePostmark, to: string) {
  return until(`a second e-mail to ${to}`, () => mail.messages.filter((m) => m.To === to)[1], { timeoutMs: 5000, everyMs: 20 });
}
