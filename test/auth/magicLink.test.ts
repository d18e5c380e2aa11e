import { expect } from 'chai';
import { eq } from 'drizzle-orm';
import { loginSessions, loginTokens } from '../../src/db/schema/index.js';
import { sha256 } from '../../src/auth/secrets.js';
import { buildTenant, dbFor, type BuiltTenant } from '../helpers/factories.js';
import { fakePostmark, type FakePostmark } from '../helpers/fakePostmark.js';
import { expectRefusal } from '../helpers/refusals.js';
import { testServer, type TestServer } from '../helpers/server.js';
import { cookieValue, fromNewAddress, hiddenField, insertLoginToken, setCookies, tokenOf } from './helpers.js';

const ANSWER = { data: { message: 'If an account exists for this address, a sign-in link has been sent to it.', expiresInMinutes: 15, delivery: 'mail' }, meta: {} };
const INVALID_LINK = '/login?error=invalid_link';

describe('e-mail sign-in by magic link (Postmark mailer)', () => {
  let mail: FakePostmark;
  let one: TestServer;
  let two: TestServer;
  let t: BuiltTenant;
  before(async () => {
    mail = await fakePostmark();
    const env = { MAILER_API_KEY: mail.token, MAILER_API_URL: mail.url, MAILER_FROM: 'Analytics <signin@example.com>' };
    one = await testServer({ env });
    two = await testServer({ env, databaseUrl: one.databaseUrl });
    t = await buildTenant(one.databaseUrl);
  });
  after(async () => {
    await one.close();
    await two.close();
    await mail.close();
  });

  it('mails a single-use link valid 15 minutes, storing only its hash', async () => {
    const before = Date.now();
    const res = await fromNewAddress(one).post('/auth/email', { email: t.owner.email.toUpperCase(), returnUrl: '/teams?month=2026-01' });
    expect(res.status).to.equal(202);
    expect(res.body).to.deep.equal(ANSWER);

    const message = await mail.waitFor(t.owner.email);
    expect(message.From).to.equal('Analytics <signin@example.com>');
    expect(message.Subject).to.equal('Your sign-in link for Delivery Analytics');
    expect(message.MessageStream).to.equal('outbound');
    const link = /(http:\/\/\S+)/.exec(message.TextBody)![1] as string;
    expect(link).to.match(new RegExp(`^${one.baseUrl}/auth/email/callback\\?token=[A-Za-z0-9_-]{43}$`));
    expect(message.HtmlBody).to.include(`href="${link}"`);

    const rows = await dbFor(one.databaseUrl).db.select().from(loginTokens).where(eq(loginTokens.email, t.owner.email));
    expect(rows).to.have.length(1);
    const row = rows[0]!;
    expect(row.tokenHash).to.equal(sha256(tokenOf(link)));
    expect(JSON.stringify(row)).not.to.include(tokenOf(link));
    expect(row.returnUrl).to.equal('/teams?month=2026-01');
    expect(row.usedAt).to.equal(null);
    expect(row.expiresAt.getTime() - before).to.be.within(15 * 60_000 - 1000, 15 * 60_000 + 5000);

    // Opened on the other instance: a session, the cookie, the stored return path.
    const opened = await fromNewAddress(two).get(new URL(link).pathname + new URL(link).search);
    expect(opened.status).to.equal(303);
    expect(opened.headers.get('location')).to.equal('/teams?month=2026-01');
    expect(opened.headers.get('cache-control')).to.equal('no-store');
    const cookie = setCookies(opened).find((c) => c.startsWith('sessionId='))!;
    expect(cookie).to.match(/^sessionId=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=(\d+); HttpOnly; SameSite=Lax$/);
    expect(Number(/Max-Age=(\d+)/.exec(cookie)![1])).to.be.within(30 * 86400 - 60, 30 * 86400);
    const me = await one.with({ cookie: cookie.split(';')[0] as string }).get('/api/users/me');
    expect(me.status).to.equal(200);
    expect(me.body.data.user.email).to.equal(t.owner.email);
    const sessions = await dbFor(one.databaseUrl).db.select().from(loginSessions).where(eq(loginSessions.userId, t.owner.userId));
    expect(sessions.map((s) => s.tokenHash)).to.include(sha256(cookieValue(opened, 'sessionId') as string));

    // Single use, on any instance.
    for (const server of [one, two]) {
      const again = await fromNewAddress(server).get(new URL(link).pathname + new URL(link).search);
      expect(again.status).to.equal(303);
      expect(again.headers.get('location')).to.equal(INVALID_LINK);
      expect(cookieValue(again, 'sessionId')).to.equal(undefined);
    }
    const explained = await fromNewAddress(one).get(INVALID_LINK);
    expect(explained.text).to.include('<p class="error" id="error">That sign-in link is invalid, was already used, or has expired.');
    expect(explained.text).to.include('<form method="post" action="/auth/email">');
  });

  it('answers the same for an unknown address and stores and sends nothing', async () => {
    const res = await fromNewAddress(one).post('/auth/email', { email: 'nobody-here@example.com' });
    expect(res.status).to.equal(202);
    expect(res.body).to.deep.equal(ANSWER);
    expect(await dbFor(one.databaseUrl).db.select().from(loginTokens).where(eq(loginTokens.email, 'nobody-here@example.com'))).to.deep.equal([]);
    // A send starts before the answer: once a link asked for afterwards reached the mail API, one
    // for the unknown address would have reached it first.
    const known = await buildTenant(one.databaseUrl);
    expect((await fromNewAddress(one).post('/auth/email', { email: known.owner.email })).status).to.equal(202);
    await mail.waitForAttempt(known.owner.email);
    expect(mail.attempts.filter((a) => a.to === 'nobody-here@example.com')).to.deep.equal([]);
  });

  it('refuses an expired link', async () => {
    const token = await insertLoginToken(one.databaseUrl, t.owner.email, { expiresAt: new Date(Date.now() - 1000) });
    const res = await fromNewAddress(one).get(`/auth/email/callback?token=${token}`);
    expect(res.status).to.equal(303);
    expect(res.headers.get('location')).to.equal(INVALID_LINK);
    expect(cookieValue(res, 'sessionId')).to.equal(undefined);
    const [row] = await dbFor(one.databaseUrl).db.select().from(loginTokens).where(eq(loginTokens.tokenHash, sha256(token)));
    expect(row!.usedAt).to.equal(null);
  });

  it('refuses unknown, tampered and missing tokens', async () => {
    const token = await insertLoginToken(one.databaseUrl, t.owner.email);
    const tampered = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    const client = fromNewAddress(one);
    for (const path of [`/auth/email/callback?token=${tampered}`, '/auth/email/callback?token=short', '/auth/email/callback', `/auth/email/callback?token=${token}&token=${token}`]) {
      const res = await client.get(path);
      expect(res.status, path).to.equal(303);
      expect(res.headers.get('location'), path).to.equal(INVALID_LINK);
    }
  });

  it('never follows a return URL off the site, at request or at callback', async () => {
    const other = await buildTenant(one.databaseUrl);
    const client = fromNewAddress(one);
    // Five per address in 15 minutes: the other forms are covered by the /login test below.
    for (const returnUrl of ['https://evil.example', '//evil.example', '/\\evil.example', '/\t/evil.example', 'javascript:alert(1)']) {
      const res = await client.post('/auth/email', { email: other.owner.email, returnUrl });
      expect(res.status, returnUrl).to.equal(202);
    }
    const rows = await dbFor(one.databaseUrl).db.select().from(loginTokens).where(eq(loginTokens.email, other.owner.email));
    expect(rows.map((r) => r.returnUrl)).to.deep.equal(['/', '/', '/', '/', '/']);

    // A row that somehow holds a foreign URL is still not followed.
    const token = await insertLoginToken(one.databaseUrl, t.owner.email, { returnUrl: 'https://evil.example/x' });
    const opened = await client.get(`/auth/email/callback?token=${token}`);
    expect(opened.status).to.equal(303);
    expect(opened.headers.get('location')).to.equal('/');
  });

  it('validates the body: a bad address and unknown fields are 400', async () => {
    const client = fromNewAddress(one);
    const bad = await client.post('/auth/email', { email: 'not-an-address', extra: true });
    expect(bad.status).to.equal(400);
    expect(bad.body.error.code).to.equal('validation_failed');
    expect(bad.body.error.details.map((d: { path: string }) => d.path).sort()).to.deep.equal(['body', 'email']);
    const text = await client.post('/auth/email', 'email=a@example.com', { 'content-type': 'text/plain' });
    expectRefusal(text, 400, { error: { code: 'validation_failed', message: 'Invalid request body', details: [{ path: 'body', message: 'Content-Type must be application/json' }] } });
  });

  it('limits links per address to 5 in 15 minutes, whoever asks and whether or not it is known', async () => {
    const other = await buildTenant(one.databaseUrl);
    for (const email of [other.owner.email.replace('owner-', 'OWNER-'), 'nobody-limited@example.com']) {
      const statuses: number[] = [];
      for (let i = 0; i < 6; i += 1) statuses.push((await fromNewAddress(i % 2 ? one : two).post('/auth/email', { email })).status);
      expect(statuses, email).to.deep.equal([202, 202, 202, 202, 202, 429]);
    }
  });

  it('a failing mail API still gets the same answer, and no one is signed in', async () => {
    const other = await buildTenant(one.databaseUrl);
    mail.failWith = { status: 422, errorCode: 406 };
    try {
      const res = await fromNewAddress(one).post('/auth/email', { email: other.owner.email });
      expect(res.status).to.equal(202);
      expect(res.body).to.deep.equal(ANSWER);
      // The send was tried and refused (after the answer, which did not wait for it).
      expect(await mail.waitForAttempt(other.owner.email)).to.deep.equal({ to: other.owner.email, status: 422 });
      expect(mail.messages.filter((m) => m.To === other.owner.email)).to.deep.equal([]);
      expect(await dbFor(one.databaseUrl).db.select().from(loginSessions).where(eq(loginSessions.userId, other.owner.userId))).to.deep.equal([]);
    } finally {
      mail.failWith = null;
    }
  });

  describe('the HTML form', () => {
    it('GET /login renders the form with a CSRF token, honouring mode=mcp and a same-origin returnUrl', async () => {
      const res = await fromNewAddress(one).get('/login?mode=mcp&returnUrl=%2Fmcp%2Fauthorize%3Finteraction%3Dabc');
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.equal('text/html; charset=utf-8');
      expect(res.headers.get('content-security-policy')).to.include("frame-ancestors 'none'");
      expect(res.headers.get('cache-control')).to.equal('no-store');
      expect(res.text).to.include('id="mcp-notice"');
      expect(res.text).to.include('An AI assistant is asking for access');
      expect(res.text).to.include('<form method="post" action="/auth/email">');
      expect(hiddenField(res.text, 'returnUrl')).to.equal('/mcp/authorize?interaction=abc');
      expect(hiddenField(res.text, 'mode')).to.equal('mcp');
      const csrf = hiddenField(res.text, 'csrf');
      expect(csrf).to.match(/^[A-Za-z0-9_-]{43}$/);
      expect(setCookies(res)).to.deep.equal([`csrfToken=${csrf}; Path=/; Max-Age=7200; HttpOnly; SameSite=Lax`]);
      expect(res.text).not.to.include('id="dev-log"');

      const plain = await fromNewAddress(one).get('/login');
      expect(plain.text).not.to.include('mcp-notice');
      expect(hiddenField(plain.text, 'mode')).to.equal(undefined);
      expect(hiddenField(plain.text, 'returnUrl')).to.equal('/');
      // The browser's token is kept, so two open tabs both work.
      const again = await fromNewAddress(one).get('/login', { cookie: `csrfToken=${csrf}` });
      expect(hiddenField(again.text, 'csrf')).to.equal(csrf);
    });

    it('falls back to / for every foreign or malformed returnUrl and escapes what it shows', async () => {
      const client = fromNewAddress(one);
      for (const returnUrl of ['https://evil.example', '//evil.example', '/\\evil.example', '/%09/evil.example'.replace('%09', '\t'), 'http:evil.example']) {
        const res = await client.get(`/login?returnUrl=${encodeURIComponent(returnUrl)}`);
        expect(hiddenField(res.text, 'returnUrl'), returnUrl).to.equal('/');
      }
      const res = await client.get(`/login?returnUrl=${encodeURIComponent('/x"><script>alert(1)</script>')}`);
      expect(res.text).not.to.include('<script>');
      expect(hiddenField(res.text, 'returnUrl')).to.equal('/x%22%3E%3Cscript%3Ealert(1)%3C/script%3E');
    });

    it('a form post with the token sends the link and shows "check your e-mail"; the link returns to the consent page', async () => {
      const other = await buildTenant(one.databaseUrl);
      const client = fromNewAddress(one);
      const page = await client.get('/login?mode=mcp&returnUrl=%2Fmcp%2Fauthorize');
      const csrf = hiddenField(page.text, 'csrf') as string;
      const form = new URLSearchParams({ csrf, returnUrl: '/mcp/authorize', mode: 'mcp', email: other.owner.email }).toString();
      const posted = await client.post('/auth/email', form, { 'content-type': 'application/x-www-form-urlencoded', cookie: `csrfToken=${csrf}` });
      expect(posted.status).to.equal(303);
      expect(posted.headers.get('location')).to.equal('/login?sent=1&mode=mcp&returnUrl=%2Fmcp%2Fauthorize');
      const sent = await client.get(posted.headers.get('location') as string);
      expect(sent.text).to.include('id="sent"');
      expect(sent.text).to.include('id="mcp-notice"');

      const link = /(http:\/\/\S+)/.exec((await mail.waitFor(other.owner.email)).TextBody)![1] as string;
      const opened = await client.get(`/auth/email/callback?token=${tokenOf(link)}`);
      expect(opened.headers.get('location')).to.equal('/mcp/authorize');
      expect(cookieValue(opened, 'sessionId')).to.match(/^[A-Za-z0-9_-]{43}$/);
    });

    it('refuses a form post without the token, with a wrong token, or from another origin', async () => {
      const client = fromNewAddress(two);
      const page = await client.get('/login');
      const csrf = hiddenField(page.text, 'csrf') as string;
      const headers = { 'content-type': 'application/x-www-form-urlencoded' };
      const attempts = [
        await client.post('/auth/email', `email=${encodeURIComponent(t.owner.email)}`, { ...headers, cookie: `csrfToken=${csrf}` }),
        await client.post('/auth/email', `email=${encodeURIComponent(t.owner.email)}&csrf=${csrf}`, headers),
        await client.post('/auth/email', `email=${encodeURIComponent(t.owner.email)}&csrf=${csrf}x`, { ...headers, cookie: `csrfToken=${csrf}` }),
        await client.post('/auth/email', `email=${encodeURIComponent(t.owner.email)}&csrf=${csrf}`, { ...headers, cookie: `csrfToken=${csrf}`, origin: 'https://evil.example' }),
        await client.post('/auth/email', { email: t.owner.email }, { origin: 'https://evil.example' }),
      ];
      expect(attempts.map((r) => r.status)).to.deep.equal([403, 403, 403, 403, 403]);
      expect(attempts[0]!.body).to.deep.equal({ error: { code: 'forbidden', message: 'Invalid or missing CSRF token; reload the page and try again' } });
      expect(attempts[4]!.body).to.deep.equal({ error: { code: 'forbidden', message: 'Cross-origin request refused' } });
      // Same origin (what a browser sends for our own page) is fine.
      const own = await client.post('/auth/email', { email: 'nobody-own-origin@example.com' }, { origin: two.baseUrl });
      expect(own.status).to.equal(202);
    });
  });
});
