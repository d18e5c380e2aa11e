import { expect } from 'chai';
import { sha256 } from '../../src/auth/secrets.js';
import { buildMember, buildTenant } from '../helpers/factories.js';
import { expectRefusal } from '../helpers/refusals.js';
import { testServer, type TestServer } from '../helpers/server.js';
import { DEPLOYMENTS, deployment, ISSUES, issue, rows } from './helpers.js';

const keyId = async (api: TestServer, key: string) => (await rows(api, 'select id from api_keys where key_hash = $1', [sha256(key)]))[0].id as string;

describe('webhook API v1: rate limits per API key', () => {
  let api: TestServer;
  before(async () => {
    api = await testServer();
  });
  after(() => api.close());

  it('allows 100 requests a minute, then 429 with Retry-After and RateLimit-* headers, writing nothing', async function () {
    this.timeout(60_000);
    const t = await buildTenant(api.databaseUrl);
    const client = api.as(t.owner.apiKey);
    const first = await client.post(ISSUES, issue());
    expect(first.status).to.equal(201);
    expect(first.headers.get('ratelimit-limit')).to.equal('100');
    expect(first.headers.get('ratelimit-remaining')).to.equal('99');
    expect(Number(first.headers.get('ratelimit-reset'))).to.be.within(1, 60);
    // Both endpoints share the key's allowance; invalid requests count too.
    for (let batch = 0; batch < 9; batch += 1) {
      const results = await Promise.all(Array.from({ length: 11 }, (_, i) => (i === 0 ? client.post(DEPLOYMENTS, {}) : client.post(i % 2 ? ISSUES : DEPLOYMENTS, i % 2 ? issue() : deployment()))));
      expect(results.map((r) => r.status)).to.deep.equal([400, ...Array(10).fill(201)]);
    }
    const refused = await client.post(ISSUES, issue({ projectKey: 'limited/out' }));
    expect(refused.status).to.equal(429);
    expect(refused.text).to.equal('{"error":"Too many requests"}');
    expect(refused.headers.get('ratelimit-limit')).to.equal('100');
    expect(refused.headers.get('ratelimit-remaining')).to.equal('0');
    expect(Number(refused.headers.get('retry-after'))).to.be.within(1, 60);
    expect(Number(refused.headers.get('ratelimit-reset'))).to.be.within(1, 60);
    expect(await rows(api, `select 1 from projects where project_key = 'limited/out'`)).to.deep.equal([]);

    // Another key of the same tenant and user's colleague has its own allowance.
    const other = await buildMember(api.databaseUrl, t.tenantId);
    expect((await api.as(other.apiKey).post(ISSUES, issue())).status).to.equal(201);
    // The webhook buckets are not the general API's: the general API still answers this key.
    expect((await client.get('/api/keys')).status).to.equal(200);
  });

  it('allows 1000 requests an hour: the 1001st gets 429 with an hour-scale Retry-After', async () => {
    const t = await buildTenant(api.databaseUrl);
    const id = await keyId(api, t.owner.apiKey);
    // 998 requests already counted this hour, in a window that closes in 3000 s.
    await rows(api, `update api_keys set webhook_hour_points = 998, webhook_hour_resets_at = now() + interval '3000 seconds' where id = $1`, [id]);
    const client = api.as(t.owner.apiKey);
    const ok = await client.post(DEPLOYMENTS, deployment());
    expect(ok.status).to.equal(201);
    // The tightest window is reported: the hour, with 1 left.
    expect(ok.headers.get('ratelimit-limit')).to.equal('1000');
    expect(ok.headers.get('ratelimit-remaining')).to.equal('1');
    const last = await client.post(DEPLOYMENTS, deployment());
    expect(last.status).to.equal(201);
    expect(last.headers.get('ratelimit-remaining')).to.equal('0');
    const refused = await client.post(DEPLOYMENTS, deployment({ projectKey: 'hour/out' }));
    expect(refused.status).to.equal(429);
    expect(refused.text).to.equal('{"error":"Too many requests"}');
    expect(refused.headers.get('ratelimit-limit')).to.equal('1000');
    expect(refused.headers.get('ratelimit-remaining')).to.equal('0');
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).to.be.within(2990, 3000);
    expect(refused.headers.get('ratelimit-reset')).to.equal(String(retryAfter));
    expect(await rows(api, `select 1 from projects where project_key = 'hour/out'`)).to.deep.equal([]);
    // The minute counter saw only three requests.
    const [minute] = await rows(api, 'select webhook_minute_points as points from api_keys where id = $1', [id]);
    expect(minute.points).to.equal(3);
  });

  it('counts requests without a valid key against the address (10 a minute), like the rest of the API', async () => {
    const fresh = await testServer();
    try {
      for (let i = 0; i < 10; i += 1) {
        const res = await fresh.post(DEPLOYMENTS, deployment(), i % 2 ? { authorization: 'Bearer gai_nope' } : {});
        expectRefusal(res, 401, { error: 'Unauthorized' });
        expect(res.headers.get('ratelimit-limit')).to.equal('10');
      }
      const refused = await fresh.post(DEPLOYMENTS, deployment(), { authorization: 'Bearer gai_nope' });
      expect(refused.status).to.equal(429);
      expect(refused.text).to.equal('{"error":"Too many requests"}');
      // A valid key is counted per key, not per address.
      const t = await buildTenant(fresh.databaseUrl);
      expect((await fresh.as(t.owner.apiKey).post(DEPLOYMENTS, deployment())).status).to.equal(201);
    } finally {
      await fresh.close();
    }
  });

  it('a refused body still answers 401 and 429 first, and counts against the key', async () => {
    const t = await buildTenant(api.databaseUrl);
    const id = await keyId(api, t.owner.apiKey);
    const bad = await api.post(ISSUES, '{not json', { 'content-type': 'application/json', authorization: 'Bearer gai_unknown' });
    expectRefusal(bad, 401, { error: 'Unauthorized' });
    await rows(api, `update api_keys set webhook_minute_points = 100, webhook_minute_resets_at = now() + interval '30 seconds' where id = $1`, [id]);
    const limited = await api.as(t.owner.apiKey).post(ISSUES, '{not json', { 'content-type': 'application/json' });
    expect(limited.status).to.equal(429);
    expect(limited.text).to.equal('{"error":"Too many requests"}');
    expect(Number(limited.headers.get('retry-after'))).to.be.within(29, 30);
  });

  it('records when the key was last used', async () => {
    const t = await buildTenant(api.databaseUrl);
    const id = await keyId(api, t.owner.apiKey);
    await rows(api, 'update api_keys set last_used_at = null where id = $1', [id]);
    expect((await api.as(t.owner.apiKey).post(ISSUES, issue())).status).to.equal(201);
    const [key] = await rows(api, 'select last_used_at from api_keys where id = $1', [id]);
    expect(Date.now() - key.last_used_at.getTime()).to.be.below(10_000);
  });
});
