import { expect } from 'chai';
import { eq } from 'drizzle-orm';
import { apiKeys } from '../../src/db/schema/index.js';
import { sha256 } from '../../src/auth/secrets.js';
import { PRINCIPAL_CACHE_MS, PrincipalCache, principalCache, principalFromApiKey, setPrincipalCache } from '../../src/apiKeys/principal.js';
import { buildMember, buildSessionCookie, dbFor, type BuiltTenant } from '../helpers/factories.js';
import { apiError, expectRefusal } from '../helpers/refusals.js';
import { testServer, type TestServer } from '../helpers/server.js';
import { serverWithTwoTenants } from '../helpers/suites.js';
import { until } from '../helpers/until.js';

/** Waits for `done` (checked every 10 ms), failing after 10 s. */
const waitFor = async (done: () => boolean): Promise<void> => void (await until('done', done, { everyMs: 10 }));

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

  it('a key revoked on one instance is refused by a second one that cached it, once the notification arrives', async () => {
    const second = await testServer({ databaseUrl: api.databaseUrl });
    try {
      // The second instance would keep the principal an hour: only `keys.changed` can make it let go.
      setPrincipalCache(second.running.app.database.db, new PrincipalCache(3_600_000));
      const created = await api.as(a.owner.apiKey).post('/api/keys', { name: 'short-lived' });
      expect((await second.as(created.body.data.key).get('/api/keys')).status).to.equal(200);
      expect(principalCache(second.running.app.database.db).size).to.equal(1);
      expect((await api.as(a.owner.apiKey).delete(`/api/keys/${created.body.data.id}`)).status).to.equal(200);
      // Refused on the revoking instance at once; on the other as soon as its listener hears it.
      expect((await api.as(created.body.data.key).get('/api/keys')).status).to.equal(401);
      await waitFor(() => principalCache(second.running.app.database.db).size === 0);
      expectRefusal(await second.as(created.body.data.key).get('/api/keys'), 401, apiError('unauthorized', 'Missing or invalid credentials'));
    } finally {
      await second.close();
    }
  });

  it('a key revoked behind the API (by hand in SQL) is refused once the cache bound has passed, not before', async () => {
    const db = dbFor(api.databaseUrl).db;
    let now = 0;
    const cache = new PrincipalCache(PRINCIPAL_CACHE_MS, 1_000, () => now);
    setPrincipalCache(db, cache);
    const created = await api.as(a.owner.apiKey).post('/api/keys', { name: 'revoked by hand' });
    const secret = created.body.data.key as string;
    expect(await principalFromApiKey(db, secret)).to.include({ kind: 'api_key', tenantId: a.tenantId, apiKeyId: created.body.data.id });
    await db.update(apiKeys).set({ revokedAt: new Date() }).where(eq(apiKeys.id, created.body.data.id));
    now = PRINCIPAL_CACHE_MS - 1;
    expect(await principalFromApiKey(db, secret), 'within the bound').to.include({ apiKeyId: created.body.data.id });
    now = PRINCIPAL_CACHE_MS;
    expect(await principalFromApiKey(db, secret), 'at the bound').to.equal(null);
    expect(cache.size).to.equal(0);
    expect(PRINCIPAL_CACHE_MS).to.equal(5_000);
  });

  it('the cache keeps at most its bound of keys, least recently used dropped first, and never an unknown key', async () => {
    const db = dbFor(api.databaseUrl).db;
    const cache = new PrincipalCache(PRINCIPAL_CACHE_MS, 2);
    setPrincipalCache(db, cache);
    const keys = [];
    for (const name of ['one', 'two', 'three']) keys.push((await api.as(a.owner.apiKey).post('/api/keys', { name })).body.data);
    await principalFromApiKey(db, keys[0].key);
    await principalFromApiKey(db, keys[1].key);
    await principalFromApiKey(db, keys[0].key); // `one` used last: `two` goes first
    await principalFromApiKey(db, keys[2].key);
    expect(cache.size).to.equal(2);
    expect(cache.get(sha256(keys[0].key))?.principal.apiKeyId).to.equal(keys[0].id);
    expect(cache.get(sha256(keys[1].key))).to.equal(null);
    expect(cache.get(sha256(keys[2].key))?.principal.apiKeyId).to.equal(keys[2].id);
    expect(await principalFromApiKey(db, 'gai_notakey')).to.equal(null);
    expect(cache.size).to.equal(2);
  });

  it('a lookup in flight when the tenant\'s keys are forgotten does not keep what it read, and an entry ages from its read', async () => {
    let now = 0;
    const cache = new PrincipalCache(PRINCIPAL_CACHE_MS, 10, () => now);
    const principal = { kind: 'api_key', tenantId: a.tenantId, userId: a.owner.userId, role: 'owner', permissions: [], apiKeyId: 'k' } as never;
    // Read, then a revocation forgets the tenant's keys, then the lookup comes back to store: refused.
    const inFlight = cache.begin();
    cache.forgetTenant(a.tenantId);
    cache.set('h1', principal, new Date(), inFlight);
    expect(cache.get('h1')).to.equal(null);
    // A read at 0 stored at 4,000 ms is gone at 5,000 ms (its read's age), not at 9,000.
    const read = cache.begin();
    now = 4_000;
    cache.set('h2', principal, new Date(), read);
    expect(cache.get('h2')).to.not.equal(null);
    now = 5_000;
    expect(cache.get('h2')).to.equal(null);
  });

  it('works with a session cookie too', async () => {
    const cookie = await buildSessionCookie(api.databaseUrl, a.owner.userId, a.tenantId);
    const res = await api.with({ cookie }).get('/api/keys');
    expect(res.status).to.equal(200);
  });
});
