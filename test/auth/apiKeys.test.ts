import { expect } from 'chai';
import { eq } from 'drizzle-orm';
import { apiKeys } from '../../src/db/schema/index.js';
import { sha256 } from '../../src/auth/secrets.js';
import { buildMember, buildSessionCookie, dbFor, type BuiltTenant } from '../helpers/factories.js';
import { apiError, expectRefusal } from '../helpers/refusals.js';
import { testServer, type TestServer } from '../helpers/server.js';
import { serverWithTwoTenants } from '../helpers/suites.js';

describe('API keys', () => {
  let api: TestServer, a: BuiltTenant, b: BuiltTenant;
  before(async () => ({ api, a, b } = await serverWithTwoTenants()));
  after(() => api.close());

  it('creates a key shown once, stored only as a hash, listed by prefix', async () => {
    const created = await api.as(a.owner.apiKey).post('/api/keys', { name: 'ci pipeline' });
    expect(created.status).to.equal(201);
    const { key, id, prefix, name, createdBy } = created.body.data;
    expect(key).to.match(/^gai_[A-Za-z0-9_-]{43}$/);
    expect(prefix).to.equal(key.slice(0, 10));
    expect(name).to.equal('ci pipeline');
    expect(createdBy).to.deep.equal({ userId: a.owner.userId, email: a.owner.email });
    expect(created.body.meta).to.deep.equal({});

    const [row] = await dbFor(api.databaseUrl).db.select().from(apiKeys).where(eq(apiKeys.id, id));
    expect(row!.keyHash).to.equal(sha256(key));
    expect(JSON.stringify(row)).not.to.include(key);

    const listed = await api.as(a.owner.apiKey).get('/api/keys');
    expect(listed.status).to.equal(200);
    const entry = listed.body.data.find((k: any) => k.id === id);
    expect(entry).to.include({ prefix, name: 'ci pipeline' });
    expect(entry).not.to.have.property('key');
    expect(listed.body.meta).to.deep.equal({ page: 1, perPage: 25, total: 2 });
    expect(listed.text).not.to.include(key);
  });

  it('the new key works and records when it was last used', async () => {
    const created = await api.as(a.owner.apiKey).post('/api/keys', { name: 'second' });
    const res = await api.as(created.body.data.key).get('/api/keys');
    expect(res.status).to.equal(200);
    const mine = res.body.data.find((k: any) => k.id === created.body.data.id);
    expect(mine.lastUsedAt).to.be.a('string');
  });

  it('rejects a bad body with every problem, and unknown fields', async () => {
    const res = await api.as(a.owner.apiKey).post('/api/keys', { name: '', extra: 1 });
    expect(res.status).to.equal(400);
    expect(res.body.error.code).to.equal('validation_failed');
    expect(res.body.error.details.map((d: any) => d.path).sort()).to.deep.equal(['', 'name'].map((p) => p || 'body').sort());
  });

  it('says "Required" for an absent field and the type problem for a wrong one', async () => {
    const absent = await api.as(a.owner.apiKey).post('/api/keys', {});
    expect(absent.body.error.details).to.deep.equal([{ path: 'name', message: 'Required' }]);
    const wrong = await api.as(a.owner.apiKey).post('/api/keys', { name: 5 });
    expect(wrong.body.error.details).to.have.length(1);
    expect(wrong.body.error.details[0].path).to.equal('name');
    expect(wrong.body.error.details[0].message).to.equal('Must be text');
  });

  it('rejects out-of-range paging with 400', async () => {
    for (const q of ['page=0', 'perPage=101', 'perPage=abc']) {
      const res = await api.as(a.owner.apiKey).get(`/api/keys?${q}`);
      expect(res.status, q).to.equal(400);
      expect(res.body.error.code).to.equal('validation_failed');
    }
  });

  it('401 without or with invalid credentials', async () => {
    expect((await api.get('/api/keys')).body).to.deep.equal({ error: { code: 'unauthorized', message: 'Missing or invalid credentials' } });
    expectRefusal(await api.as('gai_nottherightkey').get('/api/keys'), 401, apiError('unauthorized', 'Missing or invalid credentials'));
    expectRefusal(await api.with({ authorization: 'Basic abc' }).get('/api/keys'), 401, apiError('unauthorized', 'Missing or invalid credentials'));
  });

  it("404 for another tenant's key, and nothing is revoked", async () => {
    const created = await api.as(a.owner.apiKey).post('/api/keys', { name: 'a-only' });
    const res = await api.as(b.owner.apiKey).delete(`/api/keys/${created.body.data.id}`);
    expect(res.status).to.equal(404);
    expect(res.body).to.deep.equal({ error: { code: 'not_found', message: 'API key not found' } });
    expect((await api.as(created.body.data.key).get('/api/keys')).status).to.equal(200);
    expectRefusal(await api.as(a.owner.apiKey).delete('/api/keys/not-a-uuid'), 404, apiError('not_found', 'API key not found'));
  });

  it("a member cannot revoke another member's key; an owner can revoke any", async () => {
    const m1 = await buildMember(api.databaseUrl, a.tenantId);
    const m2 = await buildMember(api.databaseUrl, a.tenantId);
    const k2 = await api.as(m2.apiKey).post('/api/keys', { name: 'm2' });
    const denied = await api.as(m1.apiKey).delete(`/api/keys/${k2.body.data.id}`);
    expect(denied.status).to.equal(403);
    expect(denied.body.error.code).to.equal('forbidden');
    const own = await api.as(m1.apiKey).post('/api/keys', { name: 'm1-own' });
    expect((await api.as(m1.apiKey).delete(`/api/keys/${own.body.data.id}`)).status).to.equal(200);
    const byOwner = await api.as(a.owner.apiKey).delete(`/api/keys/${k2.body.data.id}`);
    expect(byOwner.status).to.equal(200);
    expect(byOwner.body.data.revokedAt).to.be.a('string');
    expect((await api.as(k2.body.data.key).get('/api/keys')).status).to.equal(401);
  });

  it('a member lists only their own keys', async () => {
    const m = await buildMember(api.databaseUrl, a.tenantId);
    const res = await api.as(m.apiKey).get('/api/keys');
    expect(res.body.data.map((k: any) => k.createdBy.userId)).to.deep.equal([m.userId]);
  });

  it('a revoked key is refused by a second instance at once', async () => {
    const second = await testServer({ databaseUrl: api.databaseUrl });
    try {
      const created = await api.as(a.owner.apiKey).post('/api/keys', { name: 'short-lived' });
      expect((await second.as(created.body.data.key).get('/api/keys')).status).to.equal(200);
      expect((await api.as(a.owner.apiKey).delete(`/api/keys/${created.body.data.id}`)).status).to.equal(200);
      expect((await second.as(created.body.data.key).get('/api/keys')).status).to.equal(401);
    } finally {
      await second.close();
    }
  });

  it('works with a session cookie too', async () => {
    const cookie = await buildSessionCookie(api.databaseUrl, a.owner.userId, a.tenantId);
    const res = await api.with({ cookie }).get('/api/keys');
    expect(res.status).to.equal(200);
  });
});
