import { expect } from 'chai';
import { buildTenant, dbFor } from '../helpers/factories.js';
import { apiError, expectRefusal } from '../helpers/refusals.js';
import { testServer } from '../helpers/server.js';

describe('general API rate limits', () => {
  it('the 101st request in a minute gets 429 with headers, counted across two instances', async function () {
    this.timeout(60000);
    const one = await testServer();
    const two = await testServer({ databaseUrl: one.databaseUrl });
    try {
      const t = await buildTenant(one.databaseUrl);
      const first = await one.as(t.owner.apiKey).get('/api/keys');
      expect(first.headers.get('ratelimit-limit')).to.equal('100');
      expect(first.headers.get('ratelimit-remaining')).to.equal('99');
      const reset = Number(first.headers.get('ratelimit-reset'));
      expect(reset).to.be.within(1, 60);
      for (let i = 1; i < 100; i += 1) {
        const res = await (i % 2 ? two : one).as(t.owner.apiKey).get('/api/keys');
        expect(res.status).to.equal(200);
      }
      const refused = await two.as(t.owner.apiKey).get('/api/keys');
      expect(refused.status).to.equal(429);
      expect(refused.body).to.deep.equal({ error: { code: 'rate_limited', message: 'Too many requests; retry after the time given in Retry-After' } });
      expect(refused.headers.get('ratelimit-remaining')).to.equal('0');
      expect(Number(refused.headers.get('retry-after'))).to.be.within(1, 60);
      // Another principal of the same tenant has its own allowance.
      const other = await buildTenant(one.databaseUrl);
      expect((await one.as(other.owner.apiKey).get('/api/keys')).status).to.equal(200);
    } finally {
      await one.close();
      await two.close();
    }
  });

  it('a passed window starts again at the next request; the counters are unlogged', async () => {
    const api = await testServer();
    try {
      const t = await buildTenant(api.databaseUrl);
      const get = () => api.as(t.owner.apiKey).get('/api/keys');
      expect((await get()).headers.get('ratelimit-remaining')).to.equal('99');
      expect((await get()).headers.get('ratelimit-remaining')).to.equal('98');
      const { pool } = dbFor(api.databaseUrl);
      const { rows } = await pool.query<{ key: string; points: number }>(`select key, points from rate_limits where key like 'general:key:%'`);
      expect(rows.map((r) => r.points)).to.deep.equal([2]);
      await pool.query('update rate_limits set expire = $2 where key = $1', [rows[0]!.key, Date.now() - 1]);
      const again = await get();
      expect(again.status).to.equal(200);
      expect(again.headers.get('ratelimit-remaining')).to.equal('99');
      expect(Number(again.headers.get('ratelimit-reset'))).to.be.within(59, 60);
      // The counters write no WAL (migration 0056), so no request waits for a flush at their commit.
      expect((await pool.query(`select relpersistence from pg_class where oid = 'rate_limits'::regclass`)).rows).to.deep.equal([{ relpersistence: 'u' }]);
    } finally {
      await api.close();
    }
  });

  it('unauthenticated callers get 10 a minute per address', async () => {
    const api = await testServer();
    try {
      for (let i = 0; i < 10; i += 1) expectRefusal(await api.get('/api/keys'), 401, apiError('unauthorized', 'Missing or invalid credentials'));
      const refused = await api.get('/api/keys');
      expectRefusal(refused, 429, apiError('rate_limited', 'Too many requests; retry after the time given in Retry-After'));
      expect(refused.headers.get('ratelimit-limit')).to.equal('10');
    } finally {
      await api.close();
    }
  });
});
