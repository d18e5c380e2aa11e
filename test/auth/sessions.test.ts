import { expect } from 'chai';
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { loginSessions } from '../../src/db/schema/index.js';
import { sha256 } from '../../src/auth/secrets.js';
import { buildMember, buildSessionCookie, buildTenant, dbFor, type BuiltTenant } from '../helpers/factories.js';
import { apiError, expectRefusal } from '../helpers/refusals.js';
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
  /** The rotation of the session now holding `current` happened 61 seconds ago: its previous id's grace is over. */
  const endGrace = (current: string) =>
    dbFor(one.databaseUrl).db.update(loginSessions).set({ rotatedAt: sql`now() - interval '61 seconds'` }).where(eq(loginSessions.tokenHash, sha256(tokenOf(current))));

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
      expectRefusal(await fromNewAddress(one).with({ cookie }).get('/api/users/me'), 401, apiError('unauthorized', 'Missing or invalid credentials'));
      expectRefusal(await fromNewAddress(two).with({ cookie }).get('/api/users/me'), 401, apiError('unauthorized', 'Missing or invalid credentials'));
    }
  });

  it('rotates the id after a day of use: the new id works everywhere, the old one only for the grace', async () => {
    const cookie = await signIn();
    const { db } = dbFor(one.databaseUrl);
    await db.update(loginSessions).set({ rotatedAt: new Date(Date.now() - 25 * 3600_000) }).where(eq(loginSessions.tokenHash, sha256(tokenOf(cookie))));
    const res = await me(one, cookie);
    expect(res.status).to.equal(200);
    const rotated = cookieValue(res, 'sessionId') as string;
    expect(rotated).to.match(/^[A-Za-z0-9_-]{43}$/);
    expect(setCookies(res)[0]).to.match(/^sessionId=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Lax$/);
    expect((await me(two, `sessionId=${rotated}`)).status).to.equal(200);
    expect((await me(two, cookie)).status).to.equal(200);
    await endGrace(`sessionId=${rotated}`);
    expectRefusal(await fromNewAddress(two).with({ cookie }).get('/api/users/me'), 401, apiError('unauthorized', 'Missing or invalid credentials'));
    expectRefusal(await fromNewAddress(one).with({ cookie }).get('/api/users/me'), 401, apiError('unauthorized', 'Missing or invalid credentials'));
    expect((await me(one, `sessionId=${rotated}`)).status).to.equal(200);
  });

  describe('the grace of a rotated-away id', () => {
    const db = () => dbFor(one.databaseUrl).db;
    const rowsOf = (userId: string) => db().select().from(loginSessions).where(eq(loginSessions.userId, userId));

    /** A signed-in member of its own (so its session rows can be counted), acting in `tenantId`. */
    async function freshSession(tenantId = t.tenantId): Promise<{ userId: string; cookie: string }> {
      const user = await buildMember(one.databaseUrl, tenantId);
      return { userId: user.userId, cookie: await buildSessionCookie(one.databaseUrl, user.userId, tenantId) };
    }

    /** The session was last rotated 25 hours ago: its next use rotates it. */
    const dayOld = (cookie: string) => db().update(loginSessions).set({ rotatedAt: sql`now() - interval '25 hours'` }).where(eq(loginSessions.tokenHash, sha256(tokenOf(cookie))));

    async function rotate(cookie: string): Promise<string> {
      await dayOld(cookie);
      const res = await me(one, cookie);
      expect(res.status).to.equal(200);
      return `sessionId=${cookieValue(res, 'sessionId') as string}`;
    }

    it('parallel requests with the id due for rotation, on two instances: all 200, one rotation, one new id', async () => {
      const { userId, cookie } = await freshSession();
      await dayOld(cookie);
      const [before] = await rowsOf(userId);
      // Hold the row so that every request has read it as due before any of them may rotate it:
      // they all reach the conditional UPDATE and queue there.
      const blocker = new pg.Client({ connectionString: one.databaseUrl });
      await blocker.connect();
      try {
        await blocker.query('begin');
        await blocker.query('select 1 from login_sessions where id = $1 for update', [before!.id]);
        const requests = [one, two, one, two, one, two].map((server) => me(server, cookie));
        const deadline = Date.now() + 10_000;
        for (;;) {
          // From another connection: inside its transaction the blocker sees a frozen pg_stat_activity.
          const { rows } = await dbFor(one.databaseUrl).pool.query(
            `select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query like 'update "login_sessions"%'`,
          );
          if (rows[0].n === 6) break;
          if (Date.now() > deadline) throw new Error(`only ${rows[0].n} of 6 requests reached the rotation`);
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        await blocker.query('commit');
        const answers = await Promise.all(requests);
        expect(answers.map((r) => r.status)).to.deep.equal([200, 200, 200, 200, 200, 200]);
        for (const r of answers) expect(r.body.data.user.id).to.equal(userId);
        // Every answer carries the one new id (the losers through the grace path), so whichever
        // the browser stores last, it holds the current id.
        const ids = new Set(answers.map((r) => cookieValue(r, 'sessionId')));
        expect(ids.size).to.equal(1);
        const rotated = [...ids][0] as string;
        expect(rotated).to.match(/^[A-Za-z0-9_-]{43}$/);
        expect(rotated).to.not.equal(tokenOf(cookie));
        const rows = await rowsOf(userId);
        expect(rows).to.have.length(1);
        expect(rows[0]!.id).to.equal(before!.id);
        expect(rows[0]!.tokenHash).to.equal(sha256(rotated));
        expect(rows[0]!.previousTokenHash).to.equal(sha256(tokenOf(cookie)));
        expect((await me(two, `sessionId=${rotated}`)).status).to.equal(200);
      } finally {
        await blocker.end();
      }
    });

    it('the old id within the grace acts as the same session on both instances, never rotates again and gets the current id back', async () => {
      const other = await buildTenant(one.databaseUrl);
      const { userId, cookie } = await freshSession();
      await buildMember(one.databaseUrl, other.tenantId, 'member', (await db().execute<{ email: string }>(sql`select email from users where id = ${userId}`)).rows[0]!.email);
      expect((await one.with({ cookie }).patch('/api/users/me', { activeTenantId: other.tenantId })).status).to.equal(200);
      const rotated = await rotate(cookie);
      const [after] = await rowsOf(userId);

      for (const server of [two, one, two]) {
        const res = await me(server, cookie);
        expect(res.status).to.equal(200);
        expect(res.body.data.user.id).to.equal(userId);
        expect(res.body.data.activeTenant.id).to.equal(other.tenantId);
        expect(setCookies(res)).to.have.length(1);
        expect(setCookies(res)[0]).to.match(/^sessionId=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Lax$/);
        expect(`sessionId=${cookieValue(res, 'sessionId')}`).to.equal(rotated);
      }
      // The new id gets no cookie (nothing to change) and the row is as the rotation left it.
      const current = await me(two, rotated);
      expect(current.status).to.equal(200);
      expect(setCookies(current)).to.deep.equal([]);
      expect(await rowsOf(userId)).to.deep.equal([after]);
    });

    it('the old id after the grace is a 401 on both instances; the new id still works', async () => {
      const { cookie } = await freshSession();
      const rotated = await rotate(cookie);
      await endGrace(rotated);
      for (const server of [one, two]) {
        const res = await fromNewAddress(server).with({ cookie }).get('/api/users/me');
        expectRefusal(res, 401, apiError('unauthorized', 'Missing or invalid credentials'));
        expect(setCookies(res)).to.deep.equal([]);
        expect((await me(server, rotated)).status).to.equal(200);
      }
    });

    it('idle and absolute expiry end both ids', async () => {
      for (const column of ['idle_expires_at', 'absolute_expires_at']) {
        const { userId, cookie } = await freshSession();
        const rotated = await rotate(cookie);
        await db().execute(sql`update login_sessions set ${sql.identifier(column)} = now() - interval '1 second' where user_id = ${userId}`);
        for (const value of [cookie, rotated]) {
          expectRefusal(await fromNewAddress(one).with({ cookie: value }).get('/api/users/me'), 401, apiError('unauthorized', 'Missing or invalid credentials'), column);
          expectRefusal(await fromNewAddress(two).with({ cookie: value }).get('/api/users/me'), 401, apiError('unauthorized', 'Missing or invalid credentials'), column);
        }
      }
    });

    it('logout during the grace, with either id, ends the session: both ids fail on both instances', async () => {
      for (const logoutWith of ['old', 'new'] as const) {
        const { userId, cookie } = await freshSession();
        const rotated = await rotate(cookie);
        const res = await two.with({ cookie: logoutWith === 'old' ? cookie : rotated }).post('/auth/logout', {});
        expect(res.status).to.equal(200);
        expect(setCookies(res)).to.deep.equal([CLEARED]);
        expect(await rowsOf(userId), logoutWith).to.deep.equal([]);
        for (const value of [cookie, rotated]) {
          expectRefusal(await fromNewAddress(one).with({ cookie: value }).get('/api/users/me'), 401, apiError('unauthorized', 'Missing or invalid credentials'), logoutWith);
          expectRefusal(await fromNewAddress(two).with({ cookie: value }).get('/api/users/me'), 401, apiError('unauthorized', 'Missing or invalid credentials'), logoutWith);
        }
      }
    });

    it('logout with an old id past its grace ends nothing', async () => {
      const { userId, cookie } = await freshSession();
      const rotated = await rotate(cookie);
      await endGrace(rotated);
      expect((await fromNewAddress(one).with({ cookie }).post('/auth/logout', {})).status).to.equal(200);
      expect(await rowsOf(userId)).to.have.length(1);
      expect((await me(two, rotated)).status).to.equal(200);
    });
  });

  it('POST /auth/logout (JSON) ends the session on every instance and clears the cookie', async () => {
    const cookie = await signIn();
    expect((await me(two, cookie)).status).to.equal(200);
    const res = await one.with({ cookie }).post('/auth/logout', {});
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ data: { signedOut: true }, meta: {} });
    expect(setCookies(res)).to.deep.equal([CLEARED]);
    expectRefusal(await fromNewAddress(one).with({ cookie }).get('/api/users/me'), 401, apiError('unauthorized', 'Missing or invalid credentials'));
    expectRefusal(await fromNewAddress(two).with({ cookie }).get('/api/users/me'), 401, apiError('unauthorized', 'Missing or invalid credentials'));
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
    expectRefusal(forged, 403, apiError('forbidden', 'Invalid or missing CSRF token; reload the page and try again'));
    const wrong = await client.post('/auth/logout', `csrf=${csrf}`, { ...form, cookie: `${cookie}; csrfToken=${csrf.slice(1)}A` });
    expectRefusal(wrong, 403, apiError('forbidden', 'Invalid or missing CSRF token; reload the page and try again'));
    const foreign = await client.post('/auth/logout', {}, { origin: 'https://evil.example' });
    expectRefusal(foreign, 403, apiError('forbidden', 'Cross-origin request refused'));
    expect((await me(two, cookie)).status).to.equal(200);

    const done = await client.post('/auth/logout', `csrf=${csrf}`, { ...form, cookie: `${cookie}; csrfToken=${csrf}` });
    expect(done.status).to.equal(303);
    expect(done.headers.get('location')).to.equal('/login');
    expect(setCookies(done)).to.deep.equal([CLEARED]);
    expectRefusal(await fromNewAddress(two).with({ cookie }).get('/api/users/me'), 401, apiError('unauthorized', 'Missing or invalid credentials'));
  });

  it('a bearer API key is not a session: logout with it ends nothing', async () => {
    const cookie = await signIn();
    const res = await one.as(t.owner.apiKey).post('/auth/logout', {});
    expect(res.status).to.equal(200);
    expect((await one.as(t.owner.apiKey).get('/api/users/me')).status).to.equal(200);
    expect((await me(one, cookie)).status).to.equal(200);
  });
});
