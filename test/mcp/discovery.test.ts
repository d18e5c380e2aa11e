import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { BuiltTenant } from '../helpers/factories.js';
import type { TestServer } from '../helpers/server.js';
import { errorText, mcpTwoTenantSuite, structured } from './mcpClient.js';

type Schema = { type?: string; enum?: string[]; properties?: Record<string, Schema>; items?: Schema; anyOf?: Schema[]; description?: string; additionalProperties?: unknown; required?: string[] };

describe('MCP: typed tool schemas and step-wise discovery', function () {
  this.timeout(90_000);
  const suite = mcpTwoTenantSuite({ a: [['payments', 2, 1], ['search', 1, 0]], b: [['hidden-team', 1, 0]] });
  const { mcp } = suite;
  let api: TestServer, a: BuiltTenant, b: BuiltTenant, client: Client;
  before(() => {
    ({ api, a, b, client } = suite);
  });

  it('every tool has a typed input schema (no free-form objects) and an output schema', async () => {
    const { tools } = await client.listTools();
    const loose: string[] = [];
    const visit = (s: Schema, path: string) => {
      if (s.type === 'object') {
        if (s.additionalProperties !== false) loose.push(path);
        for (const [key, child] of Object.entries(s.properties ?? {})) {
          if (!child.description && !child.anyOf) loose.push(`${path}.${key} (no description)`);
          visit(child, `${path}.${key}`);
        }
      }
      if (s.items) visit(s.items, `${path}[]`);
      for (const [i, alt] of (s.anyOf ?? []).entries()) visit(alt, `${path}|${i}`);
    };
    for (const tool of tools) {
      visit(tool.inputSchema as Schema, tool.name);
      expect(tool.outputSchema, tool.name).to.be.an('object');
    }
    expect(loose).to.deep.equal([]);

    const query = tools.find((t) => t.name === 'cube_query')!.inputSchema as Schema;
    const props = query.properties as Record<string, Schema>;
    expect(props.measures!.items!.enum).to.include.members(['deployments.change_failure_rate', 'issues.issues_closed']);
    expect(props.measures!.items!.enum).to.not.include('seats.row_key');
    expect(props.dimensions!.items!.enum).to.include.members(['teams.slug', 'deployments.status']);
    const time = props.timeDimensions!.items!.properties as Record<string, Schema>;
    expect(time.dimension!.enum).to.include('deployments.created_at').and.not.include('deployments.status');
    expect(time.granularity!.enum).to.deep.equal(['second', 'minute', 'hour', 'day', 'week', 'month', 'quarter', 'year']);
    expect(time.dateRange!.description).to.include('last N months').and.include('this year').and.include('from N days ago to now');
    const filter = props.filters!.items!.anyOf![0]!.properties as Record<string, Schema>;
    expect(filter.operator!.enum).to.include.members(['equals', 'onTheDate', 'inDateRange', 'set']);
    expect(filter.member!.enum).to.include.members(['deployments.status', 'deployments.production_deploys']);
  });

  it('a member outside the enums is a tool error naming it', async () => {
    const result = await client.callTool({ name: 'cube_query', arguments: { measures: ['deployments.nope'] } });
    expect(errorText(result)).to.include('Unknown measure deployments.nope (list_measures lists them)');
    const extra = await client.callTool({ name: 'cube_query', arguments: { measures: ['issues.issues_closed'], sneaky: true } });
    expect(errorText(extra)).to.include('sneaky');
  });

  it('list_measures finds measures by words, with unit, n and time dimension', async () => {
    const { measures } = structured(await client.callTool({ name: 'list_measures', arguments: { search: 'failure rate' } }));
    // The denominator's description names the rate too, and so do the shipping deployments' measures of AI impact.
    expect(measures.map((m: { name: string }) => m.name)).to.deep.equal([
      'change_lead_times.shipping_deploys', 'change_lead_times.failed_shipping_deploys', 'change_lead_times.shipping_change_failure_rate',
      'deployments.finished_production_deploys', 'deployments.change_failure_rate',
    ]);
    expect(measures[4]).to.deep.include({
      cube: 'deployments', title: 'Change failure rate', unit: 'ratio', n: 'deployments.finished_production_deploys', timeDimension: 'deployments.created_at',
    });
    const medians = structured(await client.callTool({ name: 'list_measures', arguments: { search: 'median' } })).measures;
    expect(medians.length).to.be.greaterThan(4);
    // The tenant's medians are durations with their n; the open-source corpus's medians (a public
    // cube, docs/benchmarks.md) are of repository months and carry their own units.
    const own = medians.filter((m: { cube: string }) => m.cube !== 'benchmarks');
    expect(own.length).to.be.greaterThan(4);
    // PR size's median is of lines (docs/pr-phases.md), the median project's deployment rate a rate
    // (docs/cube-views.md); every other is a duration.
    const units: Record<string, string> = { 'pull_requests.pr_size_p50': 'lines', 'deployments.project_deploys_per_day_p50': 'count', 'deployments.project_deploys_per_week_p50': 'count', 'deployments.rated_projects': 'count' };
    for (const m of own) expect(m.unit, m.name).to.equal(units[m.name] ?? 'seconds');
    // The number of projects the median project's rate is taken over is that rate's n, itself without one.
    for (const m of own) if (m.name !== 'deployments.rated_projects') expect(m.n, m.name).to.be.a('string');
    expect(medians.find((m: { name: string }) => m.name === 'benchmarks.prs_merged_per_active_author_median')?.unit).to.equal('ratio');
    const all = structured(await client.callTool({ name: 'list_measures', arguments: {} })).measures;
    expect(all.map((m: { name: string }) => m.name)).to.include.members([...medians.map((m: { name: string }) => m.name), 'deployments.change_failure_rate', 'issues.issues_closed']);
    for (const m of all) expect(m.description, m.name).to.not.equal('');
    const byCube = structured(await client.callTool({ name: 'list_measures', arguments: { cube: 'issues' } })).measures;
    expect(byCube.map((m: { name: string }) => m.name)).to.deep.equal(['issues.issues_closed', 'issues.issue_lead_time_p50_seconds', 'issues.issue_lead_time_p90_seconds']);
  });

  it('list_dimensions gives the dimensions of a measure, each described, enumerations with their values', async () => {
    const { dimensions } = structured(await client.callTool({ name: 'list_dimensions', arguments: { measure: 'deployments.production_deploys' } }));
    const names = dimensions.map((d: { name: string }) => d.name);
    expect(names).to.include.members(['deployments.status', 'deployments.environment', 'deployments.created_at', 'teams.slug', 'projects.project_key']);
    expect(names).to.not.include('issues.state');
    for (const d of dimensions) expect(d.description, d.name).to.not.equal('');
    const byName = (n: string) => dimensions.find((d: { name: string }) => d.name === n);
    expect(byName('deployments.status').values).to.deep.equal(['pending', 'queued', 'in_progress', 'success', 'failure', 'error', 'inactive']);
    expect(byName('deployments.environment').values).to.deep.equal(['production', 'staging', 'development', 'qa', 'preview', 'other']);
    expect(byName('deployments.team_id').format).to.equal('id');
    const issues = structured(await client.callTool({ name: 'list_dimensions', arguments: { measure: 'issues.issues_closed' } })).dimensions;
    const issueDim = (n: string) => issues.find((d: { name: string }) => d.name === n);
    expect(issueDim('issues.state').values).to.deep.equal(['open', 'closed', 'in_progress']);
    expect(issueDim('issues.type').values).to.deep.equal(['feature', 'bug', 'chore', 'discovery', 'incident', 'other']);
  });

  it('list_dimension_values returns the tenant\'s own values, bounded and searchable', async () => {
    const slugs = structured(await client.callTool({ name: 'list_dimension_values', arguments: { dimension: 'teams.slug' } }));
    expect(slugs).to.deep.equal({ dimension: 'teams.slug', values: ['payments', 'search'], truncated: false });
    const one = structured(await client.callTool({ name: 'list_dimension_values', arguments: { dimension: 'teams.slug', limit: 1 } }));
    expect(one).to.deep.equal({ dimension: 'teams.slug', values: ['payments'], truncated: true });
    const found = structured(await client.callTool({ name: 'list_dimension_values', arguments: { dimension: 'teams.slug', search: 'EAR' } }));
    expect(found.values).to.deep.equal(['search']);
    const statuses = structured(await client.callTool({ name: 'list_dimension_values', arguments: { dimension: 'deployments.status' } }));
    expect(statuses).to.deep.equal({
      dimension: 'deployments.status', values: ['failure', 'success'], truncated: false, allowed: ['pending', 'queued', 'in_progress', 'success', 'failure', 'error', 'inactive'],
    });
    const forB = structured(await (await mcp.connect(b.owner.apiKey)).callTool({ name: 'list_dimension_values', arguments: { dimension: 'teams.slug' } }));
    expect(forB.values).to.deep.equal(['hidden-team']);
    expect(errorText(await client.callTool({ name: 'list_dimension_values', arguments: { dimension: 'teams.id' } }))).to.include('Unknown text dimension teams.id');
    expect(errorText(await client.callTool({ name: 'list_dimension_values', arguments: { dimension: 'teams.slug', limit: 501 } }))).to.include('limit');
  });

  it('cube_query takes typed filters, or-groups and order, and answers with structured rows', async () => {
    const rows = structured(
      await client.callTool({
        name: 'cube_query',
        arguments: {
          measures: ['deployments.production_deploys', 'deployments.change_failure_rate', 'deployments.finished_production_deploys'],
          dimensions: ['teams.slug'],
          timeDimensions: [{ dimension: 'deployments.created_at', granularity: 'month', dateRange: ['2025-03-01', '2025-03-31'] }],
          filters: [{ or: [{ member: 'teams.slug', operator: 'equals', values: ['payments'] }, { member: 'teams.slug', operator: 'startsWith', values: ['sea'] }] }],
          order: [{ member: 'teams.slug', direction: 'desc' }],
        },
      }),
    );
    expect(rows).to.deep.equal({
      rows: [
        { 'teams.slug': 'search', 'deployments.created_at.month': '2025-03-01T00:00:00.000', 'deployments.created_at': '2025-03-01T00:00:00.000', 'deployments.production_deploys': 1, 'deployments.change_failure_rate': 0, 'deployments.finished_production_deploys': 1 },
        { 'teams.slug': 'payments', 'deployments.created_at.month': '2025-03-01T00:00:00.000', 'deployments.created_at': '2025-03-01T00:00:00.000', 'deployments.production_deploys': 2, 'deployments.change_failure_rate': 0.3333333333333333, 'deployments.finished_production_deploys': 3 },
      ],
      truncated: false,
    });
  });
});
