import { readdirSync, readFileSync } from 'node:fs';
import { expect } from 'chai';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { THRESHOLDS } from '../../src/shared/doraBands.js';
import type { BuiltTenant } from '../helpers/factories.js';
import type { TestServer } from '../helpers/server.js';
import { errorText, mcpTwoTenantSuite, structured } from './mcpClient.js';

describe('MCP: instructions, benchmarks, resources and prompts', function () {
  this.timeout(90_000);
  // 2025-03: alpha 4 successes and 1 failure, beta 2 successes, gamma no deployment at all.
  const suite = mcpTwoTenantSuite({ a: [['alpha', 4, 1], ['beta', 2, 0], ['gamma', 0, 0]], b: [['alpha', 30, 0], ['bravo', 1, 0]] });
  const { mcp } = suite;
  let api: TestServer, a: BuiltTenant, b: BuiltTenant, client: Client;
  before(() => {
    ({ api, a, b, client } = suite);
  });

  it('instructions give today\'s date (UTC) and how months, medians and n work', () => {
    const instructions = client.getInstructions() as string;
    expect(instructions).to.include(`Today is ${new Date().toISOString().slice(0, 10)} (UTC)`);
    expect(instructions).to.include('Months are calendar months in UTC');
    expect(instructions).to.include('Medians (…_p50_seconds) are percentile_cont(0.5)');
    expect(instructions).to.include('n measure');
    expect(client.getServerCapabilities()).to.include.keys('tools', 'resources', 'prompts', 'completions');
  });

  it('team_benchmark puts a team beside the median of all teams and the DORA 2023 bands', async () => {
    const result = structured(await client.callTool({ name: 'team_benchmark', arguments: { team: 'alpha', from: '2025-03', to: '2025-03' } }));
    expect(result.team).to.deep.equal({ slug: 'alpha', name: 'Alpha' });
    expect(result.window).to.deep.equal({ from: '2025-03', to: '2025-03' });
    expect(result.teams_compared).to.equal(3);
    expect(result.dora_source).to.include('Accelerate State of DevOps Report 2023');
    expect(result.rows).to.have.length(12);
    const row = (measure: string) => result.rows.find((r: { measure: string }) => r.measure === measure);
    // 4 deployments in 31 days: 0.13 a day, under a week's one a day (high) → medium; median of 4, 2, 0 is 2 → medium.
    expect(row('deployments.production_deploys')).to.deep.equal({
      month: '2025-03', measure: 'deployments.production_deploys', team_value: 4, org_median: 2, teams_with_value: 3, vs_org_median: 'above',
      lower_is_better: false, team_dora_band: 'medium', org_median_dora_band: 'medium',
    });
    // 1 failed of 5 = 0.2 → low; gamma has no deployment source, so the median is of 0.2 and 0: 0.1 → high.
    expect(row('deployments.change_failure_rate')).to.deep.equal({
      month: '2025-03', measure: 'deployments.change_failure_rate', team_value: 0.2, org_median: 0.1, teams_with_value: 2, vs_org_median: 'above',
      lower_is_better: true, team_dora_band: 'low', org_median_dora_band: 'high',
    });
    expect(row('deployments.failed_deployment_recovery_time_p50_seconds')).to.deep.equal({
      month: '2025-03', measure: 'deployments.failed_deployment_recovery_time_p50_seconds', team_value: null, org_median: null, teams_with_value: 0,
      vs_org_median: null, lower_is_better: true, team_dora_band: null, org_median_dora_band: null,
    });
    expect(row('pull_requests.prs_merged')).to.include({ team_value: 0, org_median: 0, teams_with_value: 3, vs_org_median: 'equal', team_dora_band: null });
  });

  it('team_benchmark reads only the principal\'s tenant', async () => {
    const forB = structured(await (await mcp.connect(b.owner.apiKey)).callTool({ name: 'team_benchmark', arguments: { team: 'alpha', from: '2025-03', to: '2025-03' } }));
    expect(forB.teams_compared).to.equal(2);
    expect(forB.rows.find((r: { measure: string }) => r.measure === 'deployments.production_deploys')).to.include({ team_value: 30, org_median: 15.5, team_dora_band: 'high' });
    expect(errorText(await client.callTool({ name: 'team_benchmark', arguments: { team: 'bravo', from: '2025-03', to: '2025-03' } }))).to.include('No enabled team with slug bravo');
    expect(errorText(await client.callTool({ name: 'team_benchmark', arguments: { team: 'alpha', from: '2020-01', to: '2025-03' } }))).to.include('at most 36 months');
  });

  it('resources: measure definitions, the DORA bands (the module the web app uses) and every data model', async () => {
    const { resources } = await client.listResources();
    const uris = resources.map((r) => r.uri);
    expect(uris).to.include.members(['analytics://definitions/metrics', 'analytics://benchmarks/dora-2023', 'analytics://models/deployments', 'analytics://models/issues']);
    const models = readdirSync(new URL('../../schema/', import.meta.url)).filter((f) => f.endsWith('.yml'));
    expect(uris.filter((u) => u.startsWith('analytics://models/')).sort()).to.deep.equal(models.map((f) => `analytics://models/${f.replace('.yml', '')}`).sort());
    for (const r of resources) expect(r.description, r.uri).to.be.a('string');

    const metrics = (await client.readResource({ uri: 'analytics://definitions/metrics' })).contents[0] as { text: string; mimeType: string };
    expect(metrics.mimeType).to.equal('text/markdown');
    expect(metrics.text).to.include('- **deployments.change_failure_rate** (Change failure rate; unit: ratio; n: deployments.finished_production_deploys; month of: deployments.created_at): DORA change failure rate');
    const dora = (await client.readResource({ uri: 'analytics://benchmarks/dora-2023' })).contents[0] as { text: string };
    expect(JSON.parse(dora.text).thresholds).to.deep.equal(JSON.parse(JSON.stringify(THRESHOLDS)));
    const model = (await client.readResource({ uri: 'analytics://models/deployments' })).contents[0] as { text: string; mimeType: string };
    expect(model.mimeType).to.equal('application/yaml');
    expect(model.text).to.equal(readFileSync(new URL('../../schema/deployments.yml', import.meta.url), 'utf8'));
  });

  it('prompts: a monthly delivery review and where change failure rate rose, with the tenant\'s team slugs completed', async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).to.have.members(['monthly_delivery_review', 'change_failure_rate_rise']);
    const review = await client.getPrompt({ name: 'monthly_delivery_review', arguments: { team: 'alpha', month: '2025-03' } });
    const text = (review.messages[0]!.content as { text: string }).text;
    expect(text).to.include('Write the monthly delivery review of team "alpha" for 2025-03');
    expect(text).to.include('Call team_benchmark with team "alpha"');
    const rise = await client.getPrompt({ name: 'change_failure_rate_rise', arguments: { from: '2025-01', to: '2025-03', team: 'beta' } });
    expect((rise.messages[0]!.content as { text: string }).text).to.include('dateRange ["2025-01-01", the last day of 2025-03], filter teams.slug equals "beta"');

    const complete = async (c: Client, value: string) =>
      (await c.complete({ ref: { type: 'ref/prompt', name: 'monthly_delivery_review' }, argument: { name: 'team', value } })).completion.values;
    expect(await complete(client, '')).to.deep.equal(['alpha', 'beta', 'gamma']);
    expect(await complete(client, 'b')).to.deep.equal(['beta']);
    expect(await complete(await mcp.connect(b.owner.apiKey), 'b')).to.deep.equal(['bravo']);
  });
});
