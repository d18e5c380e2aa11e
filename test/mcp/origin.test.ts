/**
 * /mcp and the MCP transport's DNS-rebinding rule: a request that sends `Origin` must come from
 * APP_URL's origin (403 otherwise). Its refusals, 429 included, are JSON-RPC error bodies.
 */
import { expect } from 'chai';
import { LIMITS } from '../../src/http/rateLimit.js';
import { buildTenant } from '../helpers/factories.js';
import { expectRefusal } from '../helpers/refusals.js';
import { testServer, type TestServer } from '../helpers/server.js';

const LIST = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
const ACCEPT = { accept: 'application/json, text/event-stream' };

describe('/mcp: Origin check and JSON-RPC refusals', () => {
  let api: TestServer;
  let key: string;
  before(async () => {
    api = await testServer();
    key = (await buildTenant(api.databaseUrl)).owner.apiKey;
  });
  after(() => api.close());

  it('refuses a foreign Origin with 403, before authentication and on the preflight too', async () => {
    for (const origin of ['https://evil.example', 'null', `${api.baseUrl.replace('127.0.0.1', 'localhost')}`]) {
      const res = await api.as(key).post('/mcp', LIST, { ...ACCEPT, origin });
      expect(res.status, origin).to.equal(403);
      expect(res.body).to.deep.equal({ jsonrpc: '2.0', error: { code: -32000, message: 'Origin not allowed' }, id: null });
    }
    // A rebound host name sends its own Host: matching it must not be enough.
    const rebound = await api.as(key).post('/mcp', LIST, { ...ACCEPT, origin: 'http://rebound.example', host: 'rebound.example' });
    expectRefusal(rebound, 403, { jsonrpc: '2.0', error: { code: -32000, message: 'Origin not allowed' }, id: null });
    const pre = await api.request('OPTIONS', '/mcp', undefined, { origin: 'https://evil.example', 'access-control-request-method': 'POST' });
    expectRefusal(pre, 403, { jsonrpc: '2.0', error: { code: -32000, message: 'Origin not allowed' }, id: null });
  });

  it("serves APP_URL's own origin and requests without Origin", async () => {
    const same = await api.as(key).post('/mcp', LIST, { ...ACCEPT, origin: api.baseUrl });
    expect(same.status).to.equal(200);
    expect(same.body.result.tools).to.be.an('array').that.is.not.empty;
    const none = await api.as(key).post('/mcp', LIST, ACCEPT);
    expect(none.status).to.equal(200);
  });

  it('answers 401 as a JSON-RPC error with the resource metadata challenge', async () => {
    const res = await api.post('/mcp', LIST, ACCEPT);
    expect(res.status).to.equal(401);
    expect(res.headers.get('www-authenticate')).to.match(/^Bearer resource_metadata=/);
    expect(res.body).to.deep.include({ jsonrpc: '2.0', id: null });
    expect(res.body.error.code).to.equal(-32000);
  });

  it('answers 429 as a JSON-RPC error with Retry-After', async function () {
    this.timeout(60_000);
    const own = (await buildTenant(api.databaseUrl)).owner.apiKey;
    // Only JSON-RPC requests count (GET is a 405 and costs nothing): pings use up the minute.
    expectRefusal(await api.as(own).get('/mcp'), 405, { jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this MCP server is stateless, send requests with POST' }, id: null });
    for (let i = 0; i < LIMITS.general.points; i++) expect((await api.as(own).post('/mcp', { jsonrpc: '2.0', id: `p${i}`, method: 'ping' }, ACCEPT)).status).to.equal(200);
    const res = await api.as(own).post('/mcp', LIST, ACCEPT);
    expect(res.status).to.equal(429);
    expect(Number(res.headers.get('retry-after'))).to.be.greaterThan(0);
    expect(res.body).to.deep.include({ jsonrpc: '2.0', id: 1 });
    expect(res.body.error).to.deep.include({ code: -32000 });
    expect(res.body.error.message).to.match(/Too many requests/);
  });
});
