import { expect } from 'chai';
import { pino } from 'pino';
import { eq } from 'drizzle-orm';
import { loadConfig } from '../../src/config/index.js';
import { freePort } from '../../src/dev.js';
import { startServer } from '../../src/server.js';
import { loginTokens } from '../../src/db/schema/index.js';
import { freshDatabase } from '../helpers/database.js';
import { buildTenant, dbFor } from '../helpers/factories.js';
import { baseEnv, HttpClient, testServer } from '../helpers/server.js';
import { cookieValue, fromNewAddress, hiddenField, insertLoginToken, setCookies, tokenOf } from './helpers.js';

describe('e-mail sign-in without a mailer', () => {
  it('development: the link is written to the log (info) and works', async () => {
    const databaseUrl = await freshDatabase();
    const port = await freePort();
    const config = loadConfig({ ...baseEnv(databaseUrl, port), NODE_ENV: 'development', LOG_LEVEL: 'info', JOBS_WORKER_ENABLED: 'false' });
    const lines: string[] = [];
    const running = await startServer(config, pino({ level: 'info' }, { write: (line: string) => void lines.push(line) }));
    try {
      const api = fromNewAddress(new HttpClient(running.url.replace('localhost', '127.0.0.1')));
      const t = await buildTenant(databaseUrl);
      const page = await api.get('/login');
      expect(page.text).to.include('id="dev-log"');

      const res = await api.post('/auth/email', { email: t.owner.email, returnUrl: '/welcome' });
      expect(res.status).to.equal(202);
      expect(res.body.data.delivery).to.equal('log');
      const entry = lines.map((l) => JSON.parse(l)).find((l) => l.msg === 'sign-in link (development: no mailer configured)');
      expect(entry).to.include({ level: 30, email: t.owner.email, expiresInMinutes: 15 });
      expect(entry.link).to.match(new RegExp(`^http://127\\.0\\.0\\.1:${port}/auth/email/callback\\?token=[A-Za-z0-9_-]{43}$`));

      const opened = await api.get(`/auth/email/callback?token=${tokenOf(entry.link)}`);
      expect(opened.status).to.equal(303);
      expect(opened.headers.get('location')).to.equal('/welcome');
      expect(setCookies(opened)[0]).not.to.include('Secure');
      // An unknown address logs nothing.
      const before = lines.length;
      await api.post('/auth/email', { email: 'unknown-dev@example.com' });
      expect(lines.slice(before).filter((l) => l.includes('sign-in link'))).to.deep.equal([]);
    } finally {
      await running.close();
    }
  });

  it('production: e-mail sign-in is unavailable (503), the page says so; cookies are Secure', async () => {
    const api = await testServer({ env: { NODE_ENV: 'production', APP_URL: 'https://analytics.example' } });
    try {
      const t = await buildTenant(api.databaseUrl);
      const client = fromNewAddress(api);
      const res = await client.post('/auth/email', { email: t.owner.email });
      expect(res.status).to.equal(503);
      expect(res.body).to.deep.equal({ error: { code: 'unavailable', message: 'E-mail sign-in is not available: no mailer is configured (MAILER_API_KEY)' } });
      expect(await dbFor(api.databaseUrl).db.select().from(loginTokens).where(eq(loginTokens.email, t.owner.email))).to.deep.equal([]);

      const page = await client.get('/login');
      expect(page.text).to.include('id="unavailable"');
      expect(page.text).not.to.include('action="/auth/email"');
      expect(setCookies(page)[0]).to.match(/^csrfToken=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=7200; HttpOnly; SameSite=Lax; Secure$/);

      // A link (issued before the mailer went away, say) still signs in, with a Secure cookie.
      const token = await insertLoginToken(api.databaseUrl, t.owner.email);
      const opened = await client.get(`/auth/email/callback?token=${token}`);
      expect(opened.status).to.equal(303);
      const cookie = setCookies(opened).find((c) => c.startsWith('sessionId='))!;
      expect(cookie).to.match(/^sessionId=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Lax; Secure$/);
      const session = `sessionId=${cookieValue(opened, 'sessionId')}`;
      const signedIn = await client.with({ cookie: session }).get('/login');
      const csrf = hiddenField(signedIn.text, 'csrf') as string;
      const out = await client.post('/auth/logout', `csrf=${csrf}`, { 'content-type': 'application/x-www-form-urlencoded', cookie: `${session}; csrfToken=${csrf}` });
      expect(out.status).to.equal(303);
      expect(setCookies(out)).to.deep.equal(['sessionId=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax; Secure']);
      // The origin of APP_URL counts as our own.
      expect((await client.post('/auth/logout', {}, { origin: 'https://analytics.example' })).status).to.equal(200);
    } finally {
      await api.close();
    }
  });
});
