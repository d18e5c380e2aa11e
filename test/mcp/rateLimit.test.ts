import { expect } from 'chai';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { buildTenant, type BuiltTenant } from '../helpers/factories.js';
import { testServer, type TestServer } from '../helpers/server.js';
import { mcpClients } from './mcpClient.js';

describe('MCP rate limit: requests count, notifications do not', function () {
  this.timeout(90_000);
  let api: TestServer;
  let tenant: BuiltTenant;
  const mcp = mcpClients(() => api.baseUrl);

  before(async () => {
    api = await testServer();
    tenant = await buildTenant(api.databaseUrl);
  });
  after(async () => {
    await mcp.closeAll();
    await api.close();
  });

  it('lets notifications through without counting, and refuses the 101st request of a minute with a JSON-RPC error', async () => {
    const client = await mcp.connect(tenant.owner.apiKey); // initialize: request 1; notifications/initialized: free
    for (let i = 0; i < 120; i += 1) await client.notification({ method: 'notifications/cancelled', params: { requestId: 999, reason: 'test' } });
    for (let i = 0; i < 99; i += 1) await client.ping();
    let refused: unknown;
    try {
      await client.ping();
    } catch (error) {
      refused = error;
    }
    expect(refused).to.be.instanceOf(StreamableHTTPError);
    expect((refused as StreamableHTTPError).code).to.equal(429);
    const body = JSON.parse((refused as Error).message.replace(/^.*?Error POSTing to endpoint: /s, ''));
    expect(body).to.deep.equal({ jsonrpc: '2.0', error: { code: -32000, message: 'Too many requests; retry after the time given in Retry-After' }, id: 100 }); // the SDK numbers requests from 0

    // A notification still passes once requests are refused; the raw answer carries Retry-After.
    await client.notification({ method: 'notifications/cancelled', params: { requestId: 999, reason: 'test' } });
    const raw = await fetch(`${api.baseUrl}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tenant.owner.apiKey}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 'abc', method: 'tools/list' }),
    });
    expect(raw.status).to.equal(429);
    expect(Number(raw.headers.get('retry-after'))).to.be.within(1, 60);
    expect(await raw.json()).to.deep.equal({ jsonrpc: '2.0', error: { code: -32000, message: 'Too many requests; retry after the time given in Retry-After' }, id: 'abc' });
  });
});
