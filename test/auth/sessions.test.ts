import { expect } from 'chai';
import { eq } from 'drizzle-orm';
import { loginSessions } from '../../src/db/schema/index.js';
import { sha256 } from '../../src/auth/secrets.js';
import { buildSessionCookie, buildTenant, dbFor, type BuiltTenant } from '../helpers/factories.js';
import { testServer, type TestServer } from '../helpers/server.js';
import { cookieValue, fromNewAddress, hiddenField, setCookies } from './helpers.js';

const CLEARED = 'sessionId=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax';

describe('login sessions', () => {
  let one: TestServer;
  let two: TestServer;
  let t: BuiltTenant;
  before(async () => {
    one = await testServer();
    two = await testServer({ databaseUrl: one.databaseUrl });
    t = await buildTenant(one.databaseUrl);
  });
  after(async () => {
    await one.close();
    await two.close();
  });

  const signIn = () => buildSessionCookie(one.databaseUrl, t.owner.userId, t.tenantId);
  const tokenOf = (cookie: string) => cookie.slice('sessionId='.length);
  const me = (server: TestServer, cookie: string) => server.with({ cookie }).get('/api/users/me');

  it('a session made on one instance works on the other', async () => {
    const cookie = await signIn();
    expect((await me(one, cookie)).status).to.equal(200);
    const res = await me(two, cookie);
    expect(res.status).to.equal(200);
    expect(res.body.data.user.id).to.equal(t.owner.userId);
  });

  it('refuses a tampered or unknown session cookie with 401', async () => {
    const cookie = await signIn();
    const token = tokenOf(cookie);
    const tampered = `${token.slice(0, 10)}${token[10] === 'a' ? 'b' : 'a'}${token.slice(11)}`;
    for (const value of [`sessionId=${tampered}`, `sessionId=${token}x`, 'sessionId=short', 'sessionId=']) {
      const res = await fromNewAddress(one).with({ cookie: value }).get('/api/users/me');
      expect(res.status, value).to.equal(401);
      expect(res.body).to.deep.equal({ error: { code: 'unauthorized', message: 'Missing or invalid credentials' } });
    }
    expect((await me(one, cookie)).status).to.equal(200);
  });

  it('refuses a session past its idle or absolute expiry', async () => {
    const { db } = dbFor(one.databaseUrl);
    const idle = await signIn();
    await db.update(loginSessions).set({ idleExpiresAt: new Date(Date.now() - 1000) }).where(eq(loginSessions.tokenHash, sha256(tokenOf(idle))));
    const absolute = await signIn();
    await db.update(loginSessions).set({ absoluteExpiresAt: new Date(Date.now() - 1000) }).where(eq(loginSessions.tokenHash, sha256(tokenOf(absolute))));
    for (const cookie of [idle, absolute]) {
      expect((await fromNewAddress(one).with({ cookie }).get('/api/users/me')).status).to.equal(401);
      expect((await fromNewAddress(two).with({ cookie }).get('/api/users/me')).status).to.equal(401);
    }
  });

  it('rotates the id after a day of use: the new id works everywhere, the old one nowhere', async () => {
    const cookie = await signIn();
    const { db } = dbFor(one.databaseUrl);
    await db.update(loginSessions).set({ rotatedAt: new Date(Date.now() - 25 * 3600_000) }).where(eq(loginSessions.tokenHash, sha256(tokenOf(cookie))));
    const res = await me(one, cookie);
    expect(res.status).to.equal(200);
    const rotated = cookieValue(res, 'sessionId') as string;
    expect(rotated).to.match(/^[A-Za-z0-9_-]{43}$/);
    expect(setCookies(res)[0]).to.match(/^sessionId=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Lax$/);
    expect((await me(two, `sessionId=${rotated}`)).status).to.equal(200);
    expect((await fromNewAddress(two).with({ cookie }).get('/api/users/me')).status).to.equal(401);
  });

  it('POST /auth/logout (JSON) ends the session on every instance and clears the cookie', async () => {
    const cookie = await signIn();
    expect((await me(two, cookie)).status).to.equal(200);
    const res = await one.with({ cookie }).post('/auth/logout', {});
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ data: { signedOut: true }, meta: {} });
    expect(setCookies(res)).to.deep.equal([CLEARED]);
    expect((await fromNewAddress(one).with({ cookie }).get('/api/users/me')).status).to.equal(401);
    expect((await fromNewAddress(two).with({ cookie }).get('/api/users/me')).status).to.equal(401);
    expect(await dbFor(one.databaseUrl).db.select().from(loginSessions).where(eq(loginSessions.tokenHash, sha256(tokenOf(cookie))))).to.deep.equal([]);
    // Without a session (or a second time) logout still answers 200 and clears the cookie.
    const again = await fromNewAddress(two).with({ cookie }).post('/auth/logout');
    expect(again.status).to.equal(200);
    expect(setCookies(again)).to.deep.equal([CLEARED]);
  });

  it('the sign-out form of /login needs its CSRF token', async () => {
    const cookie = await signIn();
    const client = fromNewAddress(one).with({ cookie });
    const page = await client.get('/login?returnUrl=%2Fsettings');
    expect(page.text).to.include(`You are signed in as ${t.owner.email}.`);
    expect(page.text).to.include('<a href="/settings">Continue</a>');
    expect(page.text).to.include('<form method="post" action="/auth/logout">');
    const csrf = hiddenField(page.text, 'csrf') as string;
    const form = { 'content-type': 'application/x-www-form-urlencoded' };

    const forged = await client.post('/auth/logout', '', { ...form });
    expect(forged.status).to.equal(403);
    const wrong = await client.post('/auth/logout', `csrf=${csrf}`, { ...form, cookie: `${cookie}; csrfToken=${csrf.slice(1)}A` });
    expect(wrong.status).to.equal(403);
    const foreign = await client.post('/auth/logout', {}, { origin: 'https://evil.example' });
    expect(foreign.status).to.equal(403);
    expect((await me(two, cookie)).status).to.equal(200);

    const done = await client.post('/auth/logout', `csrf=${csrf}`, { ...form, cookie: `${cookie}; csrfToken=${csrf}` });
    expect(done.status).to.equal(303);
    expect(done.headers.get('location')).to.equal('/login');
    expect(setCookies(done)).to.deep.equal([CLEARED]);
    expect((await fromNewAddress(two).with({ cookie }).get('/api/users/me')).status).to.equal(401);
  });

  it('a bearer API key is not a session: logout with it ends nothing', async () => {
    const cookie = await signIn();
    const res = await one.as(t.owner.apiKey).post('/auth/logout', {});
    expect(res.status).to.equal(200);
    expect((await one.as(t.owner.apiKey).get('/api/users/me')).status).to.equal(200);
    expect((await me(one, cookie)).status).to.equal(200);
  });
});
