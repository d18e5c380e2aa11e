/**
 * Headers set in one place for every answer (src/http/securityHeaders.ts, issue 32): nosniff
 * everywhere, no-store on authenticated and JSON answers (errors included, MCP's transport too),
 * and Strict-Transport-Security only when APP_URL is https.
 */
import { expect } from 'chai';
import { buildSessionCookie, buildTenant } from '../helpers/factories.js';
import { testServer, type TestServer } from '../helpers/server.js';

type Answer = { status: number; headers: Headers };
const headersOf = (res: Answer) => ({
  nosniff: res.headers.get('x-content-type-options'),
  cache: res.headers.get('cache-control'),
  hsts: res.headers.get('strict-transport-security'),
});

describe('security headers', function () {
  this.timeout(60_000);
  let api: TestServer;
  before(async () => {
    api = await testServer();
  });
  after(async () => {
    await api?.close();
  });

  it('every authenticated JSON answer is nosniff and no-store: API key, session, an error, and MCP; no HSTS over http', async () => {
    const a = await buildTenant(api.databaseUrl);
    const cookie = await buildSessionCookie(api.databaseUrl, a.owner.userId, a.tenantId);
    const answers: [string, Answer][] = [
      ['api key', await api.as(a.owner.apiKey).get('/api/users/me')],
      ['session', await api.with({ cookie }).get('/api/users/me')],
      ['api key, 404', await api.as(a.owner.apiKey).get('/api/teams/00000000-0000-4000-8000-000000000000')],
      ['no credentials, 401', await api.get('/api/users/me')],
      ['mcp', await api.as(a.owner.apiKey).post('/mcp', { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { accept: 'application/json, text/event-stream' })],
    ];
    for (const [what, res] of answers) {
      expect(res.status, what).to.be.oneOf([200, 401, 404]);
      expect(headersOf(res), what).to.deep.equal({ nosniff: 'nosniff', cache: 'no-store', hsts: null });
    }
  });

  it('answers with a caching policy of their own keep it, still nosniff', async () => {
    const metadata = await api.get('/.well-known/oauth-protected-resource/mcp');
    expect(metadata.status).to.equal(200);
    expect(headersOf(metadata)).to.deep.equal({ nosniff: 'nosniff', cache: 'public, max-age=3600', hsts: null });
  });

  it('with an https APP_URL every answer carries Strict-Transport-Security', async () => {
    const secure = await testServer({ databaseUrl: api.databaseUrl, env: { APP_URL: 'https://analytics.example' } });
    try {
      const a = await buildTenant(api.databaseUrl);
      for (const res of [await secure.get('/health'), await secure.as(a.owner.apiKey).get('/api/users/me'), await secure.get('/login')]) {
        expect(res.headers.get('strict-transport-security')).to.equal('max-age=31536000; includeSubDomains');
        expect(res.headers.get('x-content-type-options')).to.equal('nosniff');
      }
    } finally {
      await secure.close();
    }
  });
});
