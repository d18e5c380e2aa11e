import { expect } from 'chai';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { buildSessionCookie, dbFor, type BuiltTenant } from '../helpers/factories.js';
import type { TestServer } from '../helpers/server.js';
import { approveAndGetCode, finishWithCode, startConsent } from './oauthFlow.js';
import { serverWithTwoTenants } from '../helpers/suites.js';

/** Two tenants with different data: a team, a project, issues closed and deployments in 2025-03. */
async function seed(databaseUrl: string, tenant: BuiltTenant, issuesClosed: number, productionDeploys: number): Promise<string> {
  const { pool } = dbFor(databaseUrl);
  const team = await pool.query(`insert into teams (tenant_id, slug, name) values ($1, 'platform', 'Platform ' || $2) returning id`, [tenant.tenantId, tenant.name]);
  const teamId = team.rows[0].id as string;
  const project = await pool.query(
    `insert into projects (tenant_id, provider, project_key, source_type, owning_team_id) values ($1, 'manual', 'acme/' || $2, 'manual', $3) returning id`,
    [tenant.tenantId, tenant.name.toLowerCase(), teamId],
  );
  const projectId = project.rows[0].id as string;
  for (let i = 0; i < issuesClosed; i += 1) {
    await pool.query(
      `insert into issues (tenant_id, project_id, provider, external_id, number, title, type, state, created_at, closed_at)
       values ($1, $2, 'manual', $3, $4, 'Issue', 'bug', 'closed', '2025-03-02T10:00:00Z', '2025-03-05T10:00:00Z')`,
      [tenant.tenantId, projectId, `i-${i}`, i + 1],
    );
  }
  for (let i = 0; i < productionDeploys; i += 1) {
    await pool.query(
      `insert into deployments (tenant_id, project_id, provider, external_id, ref, sha, environment, status, task, created_at)
       values ($1, $2, 'manual', $3, 'main', 'abcdef1', 'production', 'success', 'deploy', '2025-03-10T10:00:00Z')`,
      [tenant.tenantId, projectId, `d-${i}`],
    );
  }
  return teamId;
}

function text(result: Awaited<ReturnType<Client['callTool']>>): any {
  const first = (result.content as { type: string; text: string }[])[0] as { text: string };
  return result.isError ? first.text : JSON.parse(first.text);
}

describe('MCP tools: API-key access and tenant separation', function () {
  this.timeout(60_000);
  let api: TestServer, a: BuiltTenant, b: BuiltTenant;
  let teamA: string;
  let teamB: string;
  const clients: Client[] = [];

  async function connect(bearer: string): Promise<Client> {
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${api.baseUrl}/mcp`), { requestInit: { headers: { authorization: `Bearer ${bearer}` } } }));
    clients.push(client);
    return client;
  }

  before(async () => {
    ({ api, a, b } = await serverWithTwoTenants({}, { a: 'Alpha', b: 'Beta' }));
    teamA = await seed(api.databaseUrl, a, 3, 2);
    teamB = await seed(api.databaseUrl, b, 5, 4);
  });
  after(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await api.close();
  });

  it('lists the tools, each described for an assistant', async () => {
    const client = await connect(a.owner.apiKey);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).to.have.members([
      'list_measures', 'list_dimensions', 'list_dimension_values', 'cube_metadata', 'cube_query', 'cube_sql', 'team_baseline', 'team_benchmark', 'team_open_source_benchmark', 'list_facts', 'compare_ai_assisted',
    ]);
    for (const tool of tools) {
      expect(tool.description?.length ?? 0).to.be.greaterThan(80);
      expect(tool.annotations?.readOnlyHint).to.equal(true);
    }
  });

  it('cube_metadata lists cubes with measures, dimensions and descriptions', async () => {
    const meta = text(await (await connect(a.owner.apiKey)).callTool({ name: 'cube_metadata', arguments: {} }));
    const issues = meta.cubes.find((c: { name: string }) => c.name === 'issues');
    expect(issues.description).to.be.a('string');
    const closed = issues.measures.find((m: { name: string }) => m.name === 'issues.issues_closed');
    expect(closed).to.include({ type: 'number', title: 'Issues closed' });
    expect(closed.description).to.be.a('string');
    expect(issues.dimensions.map((d: { name: string }) => d.name)).to.include('issues.closed_at');
    // UUID dimensions say so (a filter on them takes UUIDs only); others carry no format.
    const dimension = (name: string) => issues.dimensions.find((d: { name: string }) => d.name === name);
    expect(dimension('issues.id').format).to.equal('id');
    expect(dimension('issues.closed_at')).to.not.have.property('format');
    expect(meta.cubes.map((c: { name: string }) => c.name)).to.include.members(['issues', 'deployments', 'teams']);
  });

  it('cube_query returns only the principal tenant rows, with clear errors for unknown members', async () => {
    const query = { measures: ['issues.issues_closed'], timeDimensions: [{ dimension: 'issues.closed_at', granularity: 'month', dateRange: ['2025-01-01', '2025-12-31'] }] };
    const forA = text(await (await connect(a.owner.apiKey)).callTool({ name: 'cube_query', arguments: query }));
    expect(forA.truncated).to.equal(false);
    expect(forA.rows).to.have.length(1);
    expect(forA.rows[0]).to.include({ 'issues.closed_at.month': '2025-03-01T00:00:00.000', 'issues.issues_closed': 3 });
    const forB = text(await (await connect(b.owner.apiKey)).callTool({ name: 'cube_query', arguments: query }));
    expect(forB.rows[0]['issues.issues_closed']).to.equal(5);

    const deploys = text(await (await connect(b.owner.apiKey)).callTool({ name: 'cube_query', arguments: { measures: ['deployments.production_deploys'] } }));
    expect(deploys.rows).to.deep.equal([{ 'deployments.production_deploys': 4 }]);

    const unknown = await (await connect(a.owner.apiKey)).callTool({ name: 'cube_query', arguments: { measures: ['issues.nope', 'secret.table'] } });
    expect(unknown.isError).to.equal(true);
    expect(text(unknown)).to.include('issues.nope').and.to.include('secret.table');
  });

  it('cube_query caps the rows it returns', async () => {
    const query = { measures: ['deployments.production_deploys'], timeDimensions: [{ dimension: 'deployments.created_at', granularity: 'day', dateRange: ['2025-03-01', '2025-03-31'] }] };
    const all = text(await (await connect(b.owner.apiKey)).callTool({ name: 'cube_query', arguments: query }));
    expect(all.rows).to.have.length(1);
    expect(all.truncated).to.equal(false);
    const byTeam = { measures: ['issues.issues_closed'], dimensions: ['issues.type', 'issues.state'], limit: 1 };
    const capped = text(await (await connect(b.owner.apiKey)).callTool({ name: 'cube_query', arguments: byTeam }));
    expect(capped.rows).to.have.length(1);
  });

  it('cube_sql shows the SQL with the principal tenant as a bound parameter, without running it', async () => {
    const result = text(await (await connect(a.owner.apiKey)).callTool({ name: 'cube_sql', arguments: { measures: ['issues.issues_closed'] } }));
    expect(result.statements).to.have.length(1);
    expect(result.statements[0].sql).to.match(/tenant_id/);
    expect(result.statements[0].params).to.include(a.tenantId).and.not.include(b.tenantId);
  });

  it('team_baseline returns every month of the window for the principal tenant teams only', async () => {
    const forA = text(await (await connect(a.owner.apiKey)).callTool({ name: 'team_baseline', arguments: { from: '2025-02', to: '2025-04' } }));
    expect(forA.rows.map((r: { team_id: string; month: string }) => [r.team_id, r.month])).to.deep.equal([
      [teamA, '2025-02'],
      [teamA, '2025-03'],
      [teamA, '2025-04'],
    ]);
    expect(forA.rows[1]).to.include({ issues_closed: 3, production_deploys: 2 });
    const forB = text(await (await connect(b.owner.apiKey)).callTool({ name: 'team_baseline', arguments: { from: '2025-03', to: '2025-03' } }));
    expect(forB.rows).to.have.length(1);
    expect(forB.rows[0]).to.include({ team_id: teamB, issues_closed: 5, production_deploys: 4 });
    const tooLong = await (await connect(a.owner.apiKey)).callTool({ name: 'team_baseline', arguments: { from: '2020-01', to: '2025-01' } });
    expect(tooLong.isError).to.equal(true);
  });

  it('an OAuth token works on the tenant chosen at consent, not the session tenant', async () => {
    // Alpha's owner joins Beta and picks Beta on the consent page.
    const { pool } = dbFor(api.databaseUrl);
    await pool.query(`insert into tenant_memberships (tenant_id, user_id, role) values ($1, $2, 'member')`, [b.tenantId, a.owner.userId]);
    const session = await buildSessionCookie(api.databaseUrl, a.owner.userId, a.tenantId);
    const started = await startConsent(api.baseUrl, session);
    const tokens = await finishWithCode(api.baseUrl, started.client, await approveAndGetCode(api.baseUrl, started, b.tenantId));
    const client = await connect(tokens.access_token);
    const rows = text(await client.callTool({ name: 'cube_query', arguments: { measures: ['issues.issues_closed'] } })).rows;
    expect(rows).to.deep.equal([{ 'issues.issues_closed': 5 }]);
    const baseline = text(await client.callTool({ name: 'team_baseline', arguments: { from: '2025-03', to: '2025-03' } }));
    expect(baseline.rows.map((r: { team_id: string }) => r.team_id)).to.deep.equal([teamB]);
    const sql = text(await client.callTool({ name: 'cube_sql', arguments: { measures: ['issues.issues_closed'] } }));
    expect(sql.statements[0].params).to.include(b.tenantId).and.not.include(a.tenantId);
  });
});
