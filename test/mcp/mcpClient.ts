import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { dbFor, type BuiltTenant } from '../helpers/factories.js';
import type { TestServer } from '../helpers/server.js';
import { serverWithTwoTenants } from '../helpers/suites.js';

/** The official SDK client on /mcp with a bearer; `closeAll` ends every client opened. */
export function mcpClients(baseUrl: () => string) {
  const clients: Client[] = [];
  return {
    async connect(bearer: string): Promise<Client> {
      const client = new Client({ name: 'test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${baseUrl()}/mcp`), { requestInit: { headers: { authorization: `Bearer ${bearer}` } } }));
      clients.push(client);
      return client;
    },
    closeAll: () => Promise.all(clients.map((c) => c.close())),
  };
}

/**
 * Teams with one project each and production deployments created in 2025-03:
 * `[slug, successes, failures]`; a team with [slug, 0, 0] has no deployment source.
 */
export async function seedTeams(databaseUrl: string, tenant: BuiltTenant, teams: [string, number, number][]): Promise<Record<string, string>> {
  const { pool } = dbFor(databaseUrl);
  const ids: Record<string, string> = {};
  for (const [slug, successes, failures] of teams) {
    const team = await pool.query(`insert into teams (tenant_id, slug, name) values ($1, $2, initcap($2)) returning id`, [tenant.tenantId, slug]);
    const teamId = team.rows[0].id as string;
    ids[slug] = teamId;
    const project = await pool.query(
      `insert into projects (tenant_id, provider, project_key, source_type, owning_team_id) values ($1, 'manual', 'acme/' || $2, 'manual', $3) returning id`,
      [tenant.tenantId, slug, teamId],
    );
    const statuses = [...Array<string>(successes).fill('success'), ...Array<string>(failures).fill('failure')];
    for (const [i, status] of statuses.entries()) {
      await pool.query(
        `insert into deployments (tenant_id, project_id, provider, external_id, ref, sha, environment, status, task, created_at)
         values ($1, $2, 'manual', $3, 'main', $4, 'production', $5, 'deploy', '2025-03-10T10:00:00Z'::timestamptz + $6 * interval '1 hour')`,
        [tenant.tenantId, project.rows[0].id, `${slug}-${i}`, `abc${i}def`, status, i],
      );
    }
  }
  return ids;
}

export type ToolResult = Awaited<ReturnType<Client['callTool']>>;

/** A tool's structured answer, after checking that its text is the same JSON. */
export function structured(result: ToolResult): any {
  if (result.isError) throw new Error(`tool error: ${JSON.stringify(result.content)}`);
  const text = (result.content as { type: string; text: string }[])[0]?.text as string;
  if (JSON.stringify(JSON.parse(text)) !== JSON.stringify(result.structuredContent)) throw new Error('text and structuredContent differ');
  return result.structuredContent;
}

export function errorText(result: ToolResult): string {
  if (!result.isError) throw new Error(`expected a tool error, got ${JSON.stringify(result.structuredContent)}`);
  return (result.content as { text: string }[])[0]?.text as string;
}

type SeededTeam = [string, number, number];
export interface McpSuite { api: TestServer; a: BuiltTenant; b: BuiltTenant; client: Client; mcp: ReturnType<typeof mcpClients> }

/**
 * Suite preamble: a server with tenants Alpha and Beta, these teams seeded (see seedTeams) and `client`
 * speaking MCP as A's owner. Registers the suite's before/after hooks; read the fields inside tests.
 */
export function mcpTwoTenantSuite(teams: { a: SeededTeam[]; b: SeededTeam[] }): McpSuite {
  const suite = {} as McpSuite;
  suite.mcp = mcpClients(() => suite.api.baseUrl);
  before(async () => {
    Object.assign(suite, await serverWithTwoTenants({}, { a: 'Alpha', b: 'Beta' }));
    await seedTeams(suite.api.databaseUrl, suite.a, teams.a);
    await seedTeams(suite.api.databaseUrl, suite.b, teams.b);
    suite.client = await suite.mcp.connect(suite.a.owner.apiKey);
  });
  after(async () => {
    await suite.mcp.closeAll();
    await suite.api?.close();
  });
  return suite;
}
