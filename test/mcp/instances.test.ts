import { expect } from 'chai';
import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import { buildSessionCookie, buildTenant, type BuiltTenant } from '../helpers/factories.js';
import { testServer, type TestServer } from '../helpers/server.js';
import { browse, fetchFrom, formFields, Jar, MemoryOAuthClient, REDIRECT_URI } from './oauthFlow.js';

/**
 * Two instances on one database behind one APP_URL: every step of the flow goes to the other
 * instance than the step before (no affinity), as behind the load balancer.
 */
describe('MCP OAuth across instances', function () {
  this.timeout(60_000);
  let one: TestServer;
  let two: TestServer;
  let tenant: BuiltTenant;

  before(async () => {
    one = await testServer();
    two = await testServer({ databaseUrl: one.databaseUrl, env: { APP_URL: one.baseUrl } });
    tenant = await buildTenant(one.databaseUrl);
  });
  after(async () => {
    await two.close();
    await one.close();
  });

  it('completes registration, consent, token and refresh with each step on another instance', async () => {
    let turn = 0;
    const next = () => ((turn += 1) % 2 === 0 ? one : two).baseUrl;
    const route = (url: string) => {
      const u = new URL(url, one.baseUrl);
      return `${next()}${u.pathname}${u.search}`;
    };
    // The SDK's requests alternate too.
    const client = new MemoryOAuthClient();
    const sdkFetch: typeof fetch = (input, init) => fetchFrom(client.ip)(route(String(input instanceof Request ? input.url : input)), init);

    expect(await auth(client, { serverUrl: `${one.baseUrl}/mcp`, fetchFn: sdkFetch })).to.equal('REDIRECT');
    const jar = new Jar(client.ip);
    const first = await browse(jar, route(client.authorizationUrl!.href));
    expect(first.status).to.equal(303);
    jar.add('sessionId', (await buildSessionCookie(one.databaseUrl, tenant.owner.userId)).split('=')[1] as string);
    const page = await browse(jar, route(first.headers.get('location') as string));
    expect(page.status).to.equal(200);
    const fields = formFields(await page.text());
    const approved = await browse(jar, route('/mcp/authorize/approve'), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: one.baseUrl },
      body: new URLSearchParams({ ...fields, tenantId: tenant.tenantId }).toString(),
    });
    expect(approved.status).to.equal(303);
    const resumed = await browse(jar, route(approved.headers.get('location') as string));
    const location = resumed.headers.get('location') as string;
    expect(location.startsWith(REDIRECT_URI)).to.equal(true);
    const code = new URL(location).searchParams.get('code') as string;

    expect(await auth(client, { serverUrl: `${one.baseUrl}/mcp`, authorizationCode: code, fetchFn: sdkFetch })).to.equal('AUTHORIZED');
    const call = async (token: string) =>
      (await fetch(route('/mcp'), {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      })).status;
    expect(await call(client.saved!.access_token)).to.equal(200);
    expect(await call(client.saved!.access_token)).to.equal(200);

    const before = client.saved!.refresh_token;
    expect(await auth(client, { serverUrl: `${one.baseUrl}/mcp`, fetchFn: sdkFetch })).to.equal('AUTHORIZED');
    expect(client.saved!.refresh_token).to.not.equal(before);
    expect(await call(client.saved!.access_token)).to.equal(200);
  });
});
