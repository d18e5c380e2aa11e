import { expect } from 'chai';
import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { buildMember, buildSessionCookie, dbFor, type BuiltTenant } from '../helpers/factories.js';
import { expectRefusal, expectRefusalPage } from '../helpers/refusals.js';
import type { TestServer } from '../helpers/server.js';
import { approveAndGetCode, browse, fetchFrom, finishWithCode, Jar, MemoryOAuthClient, startConsent, tenantOptions } from './oauthFlow.js';
import { serverWithTwoTenants } from '../helpers/suites.js';

describe('MCP over OAuth: the SDK client end to end', function () {
  this.timeout(60_000);
  let api: TestServer, a: BuiltTenant, b: BuiltTenant;
  let session: string;

  before(async () => {
    ({ api, a, b } = await serverWithTwoTenants({}, { a: 'Alpha', b: 'Beta' }));
    // The owner of Alpha is also a member of Beta: the consent page offers both.
    await buildMember(api.databaseUrl, b.tenantId, 'member', a.owner.email);
    session = await buildSessionCookie(api.databaseUrl, a.owner.userId);
  });
  after(() => api.close());

  it('serves the discovery documents', async () => {
    const prm = await api.get('/.well-known/oauth-protected-resource');
    expect(prm.status).to.equal(200);
    expect(prm.body).to.deep.include({ resource: `${api.baseUrl}/mcp`, authorization_servers: [api.baseUrl], scopes_supported: ['mcp:read'] });
    expect(prm.headers.get('access-control-allow-origin')).to.equal('*');
    const pathAware = await api.get('/.well-known/oauth-protected-resource/mcp');
    expect(pathAware.body).to.deep.equal(prm.body);

    const as = await api.get('/.well-known/oauth-authorization-server');
    expect(as.status).to.equal(200);
    expect(as.body).to.include({
      issuer: api.baseUrl,
      authorization_endpoint: `${api.baseUrl}/mcp/authorize`,
      token_endpoint: `${api.baseUrl}/oauth/token`,
      registration_endpoint: `${api.baseUrl}/oauth/register`,
    });
    expect(as.body.code_challenge_methods_supported).to.deep.equal(['S256']);
    expect(as.body.grant_types_supported).to.include.members(['authorization_code', 'refresh_token']);
    expect(as.body.token_endpoint_auth_methods_supported).to.include('none');
    expect(as.body.scopes_supported).to.include('mcp:read');
    expect(as.body).to.not.have.property('dpop_signing_alg_values_supported');
    expect(as.body).to.not.have.property('introspection_endpoint');
    expect(as.body).to.not.have.property('pushed_authorization_request_endpoint');
  });

  it('answers 401 with the resource metadata address, and CORS preflight without credentials', async () => {
    const res = await api.post('/mcp', { jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expectRefusal(res, 401, { jsonrpc: '2.0', error: { code: -32000, message: 'Missing or invalid bearer token' }, id: null });
    expect(res.headers.get('www-authenticate')).to.equal(`Bearer resource_metadata="${api.baseUrl}/.well-known/oauth-protected-resource"`);
    const get = await api.as(a.owner.apiKey).get('/mcp', { accept: 'text/event-stream' });
    expectRefusal(get, 405, { jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this MCP server is stateless, send requests with POST' }, id: null });
    expect(get.headers.get('allow')).to.equal('POST, OPTIONS');
    const authorize = await api.get('/mcp/authorize');
    expectRefusalPage(authorize, 400, 'Authorization request expired', 'This authorization request has expired, was already used, or was started in another browser.');
    expect(authorize.headers.get('ratelimit-limit')).to.equal('60');
    const pre = await api.request('OPTIONS', '/mcp', undefined, { origin: api.baseUrl, 'access-control-request-method': 'POST' });
    expect(pre.status).to.equal(204);
    expect(pre.headers.get('access-control-allow-headers')).to.match(/Authorization/);
    expect(pre.headers.get('access-control-expose-headers')).to.match(/WWW-Authenticate/);
  });

  it('runs discovery, registration, PKCE, consent with tenant choice, token, tools and refresh', async () => {
    const anonymous = new MemoryOAuthClient();
    expect(await auth(anonymous, { serverUrl: `${api.baseUrl}/mcp`, fetchFn: fetchFrom(anonymous.ip) })).to.equal('REDIRECT');
    const url = anonymous.authorizationUrl as URL;
    expect(url.origin + url.pathname).to.equal(`${api.baseUrl}/mcp/authorize`);
    expect(url.searchParams.get('code_challenge_method')).to.equal('S256');
    expect(url.searchParams.get('resource')).to.equal(`${api.baseUrl}/mcp`);

    // Without a session the browser is sent to the login page, then back to /mcp/authorize.
    const jar = new Jar(anonymous.ip);
    const first = await browse(jar, url.href);
    expect(first.status).to.equal(303);
    const interactionUrl = new URL(first.headers.get('location') as string, api.baseUrl);
    expect(interactionUrl.pathname).to.equal('/mcp/authorize');
    const login = await browse(jar, interactionUrl.href);
    expect(login.status).to.equal(302);
    expect(login.headers.get('location')).to.equal('/login?mode=mcp&returnUrl=%2Fmcp%2Fauthorize');
    const [name, value] = session.split('=') as [string, string];
    jar.add(name, value);
    const resumed = await browse(jar, `${api.baseUrl}/mcp/authorize`);
    expect(resumed.status).to.equal(200);
    const html = await resumed.text();
    expect(html).to.include('Test Assistant');
    expect(tenantOptions(html)).to.have.members([a.tenantId, b.tenantId]);

    // The same flow through the helpers, choosing Beta.
    const started = await startConsent(api.baseUrl, session);
    const code = await approveAndGetCode(api.baseUrl, started, b.tenantId);
    const tokens = await finishWithCode(api.baseUrl, started.client, code);
    expect(tokens.token_type.toLowerCase()).to.equal('bearer');
    expect(tokens.expires_in).to.equal(3600);
    expect(tokens.scope).to.equal('mcp:read');
    expect(tokens.refresh_token).to.be.a('string');

    const mcp = new Client({ name: 'test', version: '1.0.0' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(`${api.baseUrl}/mcp`), { authProvider: started.client }));
    const { tools } = await mcp.listTools();
    expect(tools.map((t) => t.name)).to.include.members(['list_measures', 'cube_metadata', 'cube_query', 'team_baseline', 'cube_sql', 'team_benchmark']);
    const meta = await mcp.callTool({ name: 'cube_metadata', arguments: {} });
    expect(meta.isError).to.not.equal(true);
    const query = await mcp.callTool({ name: 'cube_query', arguments: { measures: ['issues.issues_closed'] } });
    expect(query.isError).to.not.equal(true);
    expect(JSON.parse((query.content as { text: string }[])[0]!.text)).to.deep.equal({ rows: [{ 'issues.issues_closed': 0 }], truncated: false });
    await mcp.close();

    // Stored tokens: hashed ids, encrypted payloads.
    const { rows } = await dbFor(api.databaseUrl).pool.query(`select model, id, payload from oauth_records where model in ('AccessToken', 'RefreshToken')`);
    expect(rows.map((r) => r.model)).to.include.members(['AccessToken', 'RefreshToken']);
    for (const row of rows) {
      expect(row.id).to.match(/^[0-9a-f]{64}$/);
      expect(row.id).to.not.equal(tokens.access_token);
      expect(row.payload).to.not.include(b.tenantId);
    }

    // Refresh with rotation.
    const firstRefresh = tokens.refresh_token as string;
    expect(await auth(started.client, { serverUrl: `${api.baseUrl}/mcp`, fetchFn: fetchFrom(started.client.ip) })).to.equal('AUTHORIZED');
    const refreshed = started.client.saved!;
    expect(refreshed.access_token).to.not.equal(tokens.access_token);
    expect(refreshed.refresh_token).to.not.equal(firstRefresh);
    expect(refreshed.expires_in).to.equal(3600);

    // The new access token works; the client is told the same audience.
    const again = new Client({ name: 'test', version: '1.0.0' });
    await again.connect(new StreamableHTTPClientTransport(new URL(`${api.baseUrl}/mcp`), { authProvider: started.client }));
    expect((await again.listTools()).tools).to.have.length(tools.length);
    await again.close();
  });
});
