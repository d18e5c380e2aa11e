import { expect } from 'chai';
import { externalIdentities } from '../../src/db/schema/index.js';
import { buildMember, buildSessionCookie, buildTenant, dbFor, twoTenants } from '../helpers/factories.js';
import { apiError, expectRefusal } from '../helpers/refusals.js';
import { testServer, type TestServer } from '../helpers/server.js';

async function link(databaseUrl: string, userId: string, provider: 'github' | 'gitlab' | 'google' | 'microsoft', subject: string, extra: { email?: string; username?: string } = {}) {
  const [row] = await dbFor(databaseUrl).db.insert(externalIdentities)
    .values({ userId, provider, subject, email: extra.email ?? null, username: extra.username ?? null, createdAt: new Date(Date.now() - 60_000 * subject.length) })
    .returning();
  return row!;
}

const shape = (row: typeof externalIdentities.$inferSelect, providerName: string) => ({
  id: row.id, provider: row.provider, providerName, username: row.username, email: row.email,
  createdAt: row.createdAt.toISOString(), lastSignInAt: row.lastSignInAt.toISOString(),
});

describe('GET and DELETE /api/users/me/identities (linked sign-in accounts)', () => {
  let server: TestServer;
  before(async () => {
    server = await testServer();
  });
  after(async () => server?.close());

  it('lists the caller\'s own accounts, oldest first, never the subject; meta says whether e-mail sign-in is available', async () => {
    const tenant = await buildTenant(server.databaseUrl);
    const github = await link(server.databaseUrl, tenant.owner.userId, 'github', 'subject-github-long', { username: 'octo', email: tenant.owner.email });
    const google = await link(server.databaseUrl, tenant.owner.userId, 'google', 'sub-g', { email: tenant.owner.email });
    const other = await buildMember(server.databaseUrl, tenant.tenantId);
    await link(server.databaseUrl, other.userId, 'google', 'sub-of-someone-else');
    const cookie = await buildSessionCookie(server.databaseUrl, tenant.owner.userId);
    const res = await server.with({ cookie }).get('/api/users/me/identities');
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ data: [shape(github, 'GitHub'), shape(google, 'Google')], meta: { emailSignIn: true } });
    expect(res.text).not.to.include('subject-github-long');
  });

  it('removes one of the caller\'s accounts; another user\'s id (same tenant or another tenant) and a malformed id are 404 and change nothing', async () => {
    const { a, b } = await twoTenants(server.databaseUrl);
    const mine = await link(server.databaseUrl, a.owner.userId, 'gitlab', 'gl-1', { username: 'me' });
    const colleague = await buildMember(server.databaseUrl, a.tenantId);
    const colleagues = await link(server.databaseUrl, colleague.userId, 'gitlab', 'gl-2');
    const tenantB = await link(server.databaseUrl, b.owner.userId, 'microsoft', 'ms-b');
    const cookie = await buildSessionCookie(server.databaseUrl, a.owner.userId);
    const api = server.with({ cookie });
    for (const id of [colleagues.id, tenantB.id, 'not-a-uuid', '00000000-0000-0000-0000-000000000000']) {
      const res = await api.delete(`/api/users/me/identities/${id}`);
      expect(res.status, id).to.equal(404);
      expect(res.body).to.deep.equal({ error: { code: 'not_found', message: 'Linked account not found' } });
    }
    const bCookie = await buildSessionCookie(server.databaseUrl, b.owner.userId);
    expect((await server.with({ cookie: bCookie }).get('/api/users/me/identities')).body.data.map((i: { id: string }) => i.id)).to.deep.equal([tenantB.id]);
    expectRefusal(await server.with({ cookie: bCookie }).delete(`/api/users/me/identities/${mine.id}`), 404, apiError('not_found', 'Linked account not found'));

    const removed = await api.delete(`/api/users/me/identities/${mine.id}`);
    expect(removed.status).to.equal(200);
    expect(removed.body).to.deep.equal({ data: shape(mine, 'GitLab'), meta: {} });
    expect((await api.get('/api/users/me/identities')).body.data).to.deep.equal([]);
    expect((await dbFor(server.databaseUrl).db.select().from(externalIdentities)).map((i) => i.id)).to.include.members([colleagues.id, tenantB.id]);
  });

  it('an API key is refused (403), no credentials is 401', async () => {
    const tenant = await buildTenant(server.databaseUrl);
    const res = await server.as(tenant.owner.apiKey).get('/api/users/me/identities');
    expect(res.status).to.equal(403);
    expect(res.body.error.code).to.equal('forbidden');
    expectRefusal(await server.with({ 'x-forwarded-for': '10.77.0.1' }).get('/api/users/me/identities'), 401, apiError('unauthorized', 'Missing or invalid credentials'));
  });

  it('without e-mail sign-in (production, no mailer) the last linked account cannot be removed (409)', async () => {
    const prod = await testServer({ env: { NODE_ENV: 'production', APP_URL: 'https://analytics.example.com' } });
    try {
      const tenant = await buildTenant(prod.databaseUrl);
      const first = await link(prod.databaseUrl, tenant.owner.userId, 'github', 'gh-prod');
      const second = await link(prod.databaseUrl, tenant.owner.userId, 'google', 'g-prod');
      const api = prod.with({ cookie: await buildSessionCookie(prod.databaseUrl, tenant.owner.userId) });
      expect((await api.get('/api/users/me/identities')).body.meta).to.deep.equal({ emailSignIn: false });
      expect((await api.delete(`/api/users/me/identities/${first.id}`)).status).to.equal(200);
      const last = await api.delete(`/api/users/me/identities/${second.id}`);
      expect(last.status).to.equal(409);
      expect(last.body).to.deep.equal({ error: { code: 'conflict', message: 'This is your only way to sign in (e-mail sign-in is not available on this server): sign in with another provider first, then remove this one' } });
      expect((await api.get('/api/users/me/identities')).body.data.map((i: { id: string }) => i.id)).to.deep.equal([second.id]);
    } finally {
      await prod.close();
    }
  });
});
