/**
 * Every tool through the official SDK client, which checks each answer's `structuredContent`
 * against the tool's own `outputSchema` (after `listTools`, as real clients do). The tools come from
 * the server, so a new tool fails here until it has arguments below and a valid answer.
 */
import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { buildTenant, dbFor, type BuiltTenant } from '../helpers/factories.js';
import { testServer, type TestServer } from '../helpers/server.js';
import { errorText, mcpClients, seedTeams, structured } from './mcpClient.js';

const MARCH = ['2025-03-01', '2025-03-31'];
const QUERY = {
  measures: ['deployments.production_deploys', 'deployments.change_failure_rate'],
  dimensions: ['teams.slug'],
  timeDimensions: [{ dimension: 'deployments.created_at', granularity: 'month', dateRange: MARCH }],
  filters: [{ member: 'deployments.environment', operator: 'equals', values: ['production'] }],
  order: [{ member: 'teams.slug', direction: 'asc' }],
};

/** Valid arguments of every tool, on the seeded tenant. */
const ARGUMENTS: Record<string, Record<string, unknown>> = {
  list_measures: { search: 'deploy' },
  list_dimensions: { measure: 'deployments.production_deploys' },
  list_dimension_values: { dimension: 'teams.slug' },
  cube_metadata: {},
  cube_query: QUERY,
  cube_sql: QUERY,
  team_baseline: { from: '2025-02', to: '2025-03' },
  team_benchmark: { team: 'payments', from: '2025-02', to: '2025-03' },
  team_open_source_benchmark: { team: 'payments', from: '2025-02', to: '2025-03' },
  list_facts: { measure: 'deployments.change_failure_rate', from: '2025-03', to: '2025-03' },
  compare_ai_assisted: { team: 'payments', from: '2025-02', to: '2025-03' },
};

describe('MCP: every tool answers what its output schema promises', function () {
  this.timeout(120_000);
  let api: TestServer;
  let tenant: BuiltTenant;
  let client: Client;
  const mcp = mcpClients(() => api.baseUrl);

  before(async () => {
    api = await testServer();
    tenant = await buildTenant(api.databaseUrl);
    await seedTeams(api.databaseUrl, tenant, [['payments', 2, 1], ['search', 1, 0]]);
    // A repository no team owns, with a production deployment: its rows have no team.
    const { pool } = dbFor(api.databaseUrl);
    const project = await pool.query(`insert into projects (tenant_id, provider, project_key, source_type) values ($1, 'manual', 'acme/orphan', 'manual') returning id`, [tenant.tenantId]);
    await pool.query(
      `insert into deployments (tenant_id, project_id, provider, external_id, ref, sha, environment, status, task, created_at)
       values ($1, $2, 'manual', 'orphan-1', 'main', 'abc1def', 'production', 'success', 'deploy', '2025-03-12T10:00:00Z')`,
      [tenant.tenantId, project.rows[0].id],
    );
    client = await mcp.connect(tenant.owner.apiKey);
  });
  after(async () => {
    await mcp.closeAll();
    await api.close();
  });

  it('every listed tool, called with valid arguments, passes the SDK client\'s output-schema check', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).filter((name) => !(name in ARGUMENTS)), 'tools without arguments in this test').to.deep.equal([]);
    for (const tool of tools) {
      expect(tool.outputSchema, tool.name).to.be.an('object');
      // The SDK client throws when structuredContent does not match the output schema.
      const result = await client.callTool({ name: tool.name, arguments: ARGUMENTS[tool.name] });
      const value = structured(result);
      expect(value, tool.name).to.be.an('object');
    }
  });

  it('cube_sql names the cube of each statement (its output schema says so)', async () => {
    const { statements } = structured(await client.callTool({ name: 'cube_sql', arguments: QUERY }));
    expect(statements).to.have.length(1);
    expect(statements[0].cube).to.equal('deployments');
    expect(statements[0].params).to.include(tenant.tenantId);
  });

  it('rows of a project no team owns say "no team" in teams.slug and teams.name', async () => {
    const { rows } = structured(await client.callTool({ name: 'cube_query', arguments: { measures: ['deployments.production_deploys'], dimensions: ['teams.slug', 'teams.name'], order: [{ member: 'teams.slug', direction: 'asc' }] } }));
    expect(rows).to.deep.include({ 'teams.slug': 'no team', 'teams.name': 'no team', 'deployments.production_deploys': 1 });
    expect(rows.map((r: Record<string, unknown>) => r['teams.slug'])).to.have.members(['payments', 'search', 'no team']);
  });

  describe('errors say how to correct the call', () => {
    const call = (args: Record<string, unknown>) => client.callTool({ name: 'cube_query', arguments: { measures: ['deployments.production_deploys'], ...args } });

    it('an unknown filter operator lists the valid ones', async () => {
      const text = errorText(await call({ filters: [{ member: 'deployments.environment', operator: 'is', values: ['production'] }] }));
      expect(text, text).to.include('Unknown operator is: use one of');
      for (const operator of ['equals', 'notEquals', 'contains', 'gt', 'set', 'inDateRange', 'afterOrOnDate']) expect(text, text).to.include(operator);
    });

    it('an operator the member does not take lists those it does', async () => {
      const text = errorText(await call({ filters: [{ member: 'deployments.environment', operator: 'gt', values: ['1'] }] }));
      expect(text, text).to.include('gt applies to numbers; deployments.environment is a string; deployments.environment takes equals, notEquals, contains, notContains, startsWith');
    });

    it('a date range it cannot read lists the accepted forms', async () => {
      const text = errorText(await call({ timeDimensions: [{ dimension: 'deployments.created_at', dateRange: 'since March' }] }));
      expect(text, text).to.include("Cannot parse the date range 'since March'");
      for (const form of ['YYYY-MM-DD', 'last N months', 'this year', 'from N days ago to now']) expect(text, text).to.include(form);
      // A shape the schema refuses (three dates) is explained the same way, not as zod's "Invalid input".
      const shape = errorText(await call({ timeDimensions: [{ dimension: 'deployments.created_at', dateRange: ['2025-03-01', '2025-03-02', '2025-03-03'] }] }));
      expect(shape, shape).to.include('Not a date range: use ["YYYY-MM-DD", "YYYY-MM-DD"]');
      expect(shape, shape).to.include('last N months');
    });

    it('a measure grouped by another cube\'s time dimension names its own', async () => {
      const text = errorText(await call({ timeDimensions: [{ dimension: 'pull_requests.merged_at', granularity: 'month', dateRange: MARCH }] }));
      expect(text, text).to.include('deployments.production_deploys');
      expect(text, text).to.include('deployments.created_at');
    });
  });
});
