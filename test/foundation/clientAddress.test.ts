/**
 * X-Forwarded-For picks the client's rate-limit bucket only when the connection comes from a
 * trusted proxy (TRUSTED_PROXIES); otherwise a sender could name a new address per request and
 * never meet the unauthenticated or OAuth limits.
 */
import { expect } from 'chai';
import { LIMITS } from '../../src/http/rateLimit.js';
import { OAUTH_LIMITS } from '../../src/oauth/routes.js';
import { testServer, type TestServer } from '../helpers/server.js';

let n = 0;
const spoofed = () => `198.51.100.${(n++ % 250) + 1}`;

async function statuses(api: TestServer, count: number, send: (i: number) => Promise<{ status: number }>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < count; i++) out.push((await send(i)).status);
  return out;
}

describe('client address and X-Forwarded-For', () => {
  describe('without TRUSTED_PROXIES (a direct connection)', () => {
    let api: TestServer;
    before(async () => {
      api = await testServer({ env: { TRUSTED_PROXIES: '' } });
    });
    after(() => api.close());

    it('counts the socket address against the unauthenticated limit, whatever X-Forwarded-For says', async () => {
      const got = await statuses(api, LIMITS.anonymous.points + 1, () => api.get('/api/users/me', { 'x-forwarded-for': spoofed() }));
      expect(got.slice(0, -1)).to.deep.equal(Array(LIMITS.anonymous.points).fill(401));
      expect(got.at(-1)).to.equal(429);
    });

    it('counts the socket address against the OAuth limits too', async function () {
      this.timeout(60_000);
      const register = (): Promise<{ status: number }> =>
        api.post('/oauth/register', { redirect_uris: 'not-a-list' }, { 'x-forwarded-for': spoofed() });
      const got = await statuses(api, OAUTH_LIMITS.register.points + 1, register);
      expect(got.slice(0, -1)).to.not.include(429);
      expect(got.at(-1)).to.equal(429);
    });
  });

  describe('behind a trusted proxy (loopback, as the test servers are configured)', () => {
    let api: TestServer;
    before(async () => {
      api = await testServer({ env: { TRUSTED_PROXIES: '127.0.0.1,::1' } });
    });
    after(() => api.close());

    it('gives each forwarded client its own bucket', async () => {
      const got = await statuses(api, LIMITS.anonymous.points + 1, () => api.get('/api/users/me', { 'x-forwarded-for': spoofed() }));
      expect(got).to.deep.equal(Array(LIMITS.anonymous.points + 1).fill(401));
    });

    it("takes the address the proxy appended, not the client's own claim before it", async () => {
      const client = spoofed();
      const got = await statuses(api, LIMITS.anonymous.points + 1, () =>
        api.get('/api/users/me', { 'x-forwarded-for': `${spoofed()}, ${client}` }),
      );
      expect(got.at(-1)).to.equal(429);
    });
  });
});
