import { expect } from 'chai';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { buildTenant, dbFor } from '../helpers/factories.js';
import { testServer, type TestServer } from '../helpers/server.js';

/**
 * An unexpected failure inside a tool (PostgreSQL refusing a NUL byte in a filter value, which is
 * now refused as a 400 before any query; here a column missing from this test's own database) was
 * handed to the MCP client as the raw database message, and never logged. It must read like the
 * REST API's 500.
 */
describe('review: MCP tools answer internal failures without their message', () => {
  let server: TestServer;
  before(async () => {
    server = await testServer();
  });
  after(async () => {
    await server.close();
  });

  it('cube_query and the REST API both hide a database error', async () => {
    const t = await buildTenant(server.databaseUrl);
    // The relation the issues cube reads is gone: PostgreSQL answers 42P01 with the relation's name.
    await dbFor(server.databaseUrl).pool.query('alter view cube_issues rename to cube_issues_gone');
    const query = { measures: ['issues.issues_closed'], filters: [{ member: 'issues.type', operator: 'equals', values: ['bug'] }] };
    const rest = await server.post('/cubejs-api/v1/load', { query }, { authorization: `Bearer ${t.owner.apiKey}` });
    expect(rest.status).to.equal(500);

    const client = new Client({ name: 'review', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/mcp`), { requestInit: { headers: { authorization: `Bearer ${t.owner.apiKey}` } } }));
    try {
      const result = await client.callTool({ name: 'cube_query', arguments: query });
      expect(result).to.deep.equal({ isError: true, content: [{ type: 'text', text: 'Internal server error' }] });
      // A correctable mistake still says what is wrong.
      const unknown = await client.callTool({ name: 'cube_query', arguments: { measures: ['issues.nope'] } });
      expect(unknown.isError).to.equal(true);
      expect((unknown.content as { text: string }[])[0]!.text).to.include('issues.nope');
    } finally {
      await client.close();
    }
  });
});
