import type { IncomingMessage } from 'node:http';
import { expect } from 'chai';
import { eq } from 'drizzle-orm';
import WebSocket from 'ws';
import { sha256 } from '../../src/auth/secrets.js';
import { loginSessions } from '../../src/db/schema/index.js';
import { buildSessionCookie, buildTenant, dbFor } from '../helpers/factories.js';
import { apiError, expectRefusal } from '../helpers/refusals.js';
import { testServer, type TestServer } from '../helpers/server.js';

/**
 * The websocket upgrade rotated a day-old session id in the table but never sent the new cookie:
 * the browser kept the old id, which no longer works (signed out). The new id must come back on
 * the 101 answer, and on a refusal.
 */
describe('review: a session rotated by the /api/live upgrade reaches the browser', () => {
  let server: TestServer;
  before(async () => {
    server = await testServer();
  });
  after(async () => {
    await server.close();
  });

  async function dayOldSession(): Promise<string> {
    const t = await buildTenant(server.databaseUrl);
    const cookie = await buildSessionCookie(server.databaseUrl, t.owner.userId, t.tenantId);
    await dbFor(server.databaseUrl).db.update(loginSessions).set({ rotatedAt: new Date(Date.now() - 25 * 3600_000) })
      .where(eq(loginSessions.tokenHash, sha256(cookie.slice('sessionId='.length))));
    return cookie;
  }

  function upgrade(headers: Record<string, string>): Promise<{ status: number; setCookie: string[] }> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(`${server.baseUrl.replace('http', 'ws')}/api/live`, { headers });
      const done = (res: IncomingMessage) => resolve({ status: res.statusCode as number, setCookie: ([] as string[]).concat(res.headers['set-cookie'] ?? []) });
      ws.on('upgrade', (res) => {
        done(res);
        ws.close();
      });
      ws.on('unexpected-response', (_req, res) => {
        done(res);
        res.resume();
      });
      ws.on('error', reject);
    });
  }

  const newId = (setCookie: string[]) => /^sessionId=([A-Za-z0-9_-]{43}); Path=\/; Max-Age=\d+; HttpOnly; SameSite=Lax$/.exec(setCookie[0] ?? '')?.[1];

  it('the 101 answer carries the new id, which then works; the old one only for its grace (docs/auth.md)', async () => {
    const cookie = await dayOldSession();
    const { status, setCookie } = await upgrade({ cookie, origin: new URL(server.running.app.config.appUrl).origin });
    expect(status).to.equal(101);
    const rotated = newId(setCookie);
    expect(rotated).to.be.a('string');
    expect((await server.get('/api/users/me', { cookie: `sessionId=${rotated}` })).status).to.equal(200);
    await dbFor(server.databaseUrl).db.update(loginSessions).set({ rotatedAt: new Date(Date.now() - 61_000) })
      .where(eq(loginSessions.tokenHash, sha256(rotated as string)));
    expectRefusal(await server.get('/api/users/me', { cookie }), 401, apiError('unauthorized', 'Missing or invalid credentials'));
  });

  it('a refused cross-origin upgrade still returns the rotated id', async () => {
    const cookie = await dayOldSession();
    const { status, setCookie } = await upgrade({ cookie, origin: 'https://evil.example' });
    expect(status).to.equal(403);
    const rotated = newId(setCookie);
    expect((await server.get('/api/users/me', { cookie: `sessionId=${rotated}` })).status).to.equal(200);
  });
});
