/**
 * The documented setup (issue 38): pull requests from the code-host application's signed webhook,
 * deployments from CI through the webhook API, issues from Jira and Linear mapped onto the
 * repository. One repository is one project whatever source tells about it, so lead time and
 * incident attribution work across sources, in the cube and over MCP.
 *
 * Hand-worked, all 2026-09, repository acme-corp/api (deployments sent as `Acme-Corp/API` too):
 * PR 1 created 09-01 00:00, merged 09-02 → deployment d1 09-03 00:00: lead time 48 h.
 * PR 2 created 09-10 00:00, merged 09-10 12:00 → d2 09-11 00:00: 24 h.
 * PR 3 created 09-20 12:00, merged 09-21 00:00 → d3 09-22 00:00: 36 h.
 * No pushes, so each change starts at the PR's createdAt. p50 of 24, 36, 48 h = 36 h (n 3).
 * A Jira incident opened 09-22 03:00 (3 h after d3) is caused by d3: 1 failed of 3, rate 1/3.
 * A Linear bug mapped onto `ACME-CORP/api` lands in the same project.
 */
import { expect } from 'chai';
import { freePort } from '../../src/dev.js';
import { buildTenant, dbFor, type BuiltTenant } from '../helpers/factories.js';
import { testServer, type TestServer } from '../helpers/server.js';
import { fakeJira, type FakeJira } from '../integrations/fakes/fakeJira.js';
import { fakeLinear, type FakeLinear } from '../integrations/fakes/fakeLinear.js';
import { connectThroughVendor, runSync } from '../integrations/trackerHelpers.js';
import { mcpClients, structured } from '../mcp/mcpClient.js';
import { announceInstallation, codehostEnv, deliver, FIXTURE_INSTALLATION, mergedPullRequest } from './helpers.js';

const REPO = 'acme-corp/api';
const HOUR = 3600;

describe('one project per repository, whatever source tells about it', function () {
  this.timeout(180_000);
  let api: TestServer;
  let jira: FakeJira;
  let linear: FakeLinear;
  let tenant: BuiltTenant;
  const mcp = mcpClients(() => api.baseUrl);
  const q = async (text: string, values: unknown[] = []) => (await dbFor(api.databaseUrl).pool.query(text, values)).rows;

  before(async () => {
    jira = await fakeJira();
    linear = await fakeLinear();
    const port = await freePort();
    api = await testServer({
      port,
      env: {
        ...codehostEnv(),
        TRACKER1_CLIENT_ID: jira.clientId, TRACKER1_SECRET: jira.clientSecret, TRACKER1_REDIRECT_URI: `http://127.0.0.1:${port}/api/integrations/jira/callback`,
        JIRA_AUTH_BASE_URL: jira.url, JIRA_API_BASE_URL: jira.url,
        TRACKER2_CLIENT_ID: linear.clientId, TRACKER2_CLIENT_SECRET: linear.clientSecret, LINEAR_AUTH_BASE_URL: linear.url, LINEAR_API_BASE_URL: linear.url,
        JOBS_WORKER_ENABLED: 'false',
      },
    });
    tenant = await buildTenant(api.databaseUrl);
    await announceInstallation(api.databaseUrl, FIXTURE_INSTALLATION);
    expect((await api.as(tenant.owner.apiKey).post('/api/integrations/codehost/installations', { installationId: FIXTURE_INSTALLATION })).status).to.equal(201);
  });
  after(async () => {
    await mcp.closeAll();
    await api?.close();
    await jira?.close();
    await linear?.close();
  });

  /** A merged PR of acme-corp/api, delivered and signed as the code host does. */
  async function merge(n: number, created: string, merged: string, sha: string): Promise<void> {
    const res = await deliver(api, 'pull_request', mergedPullRequest(REPO, { id: 880000 + n, number: n, title: `Change ${n}`, created_at: created, merged_at: merged, merge_commit_sha: sha }));
    expect(res.status).to.equal(200);
    expect(res.body.data).to.include({ event: 'pull_request', stored: true });
  }

  async function deployment(projectKey: string, externalId: string, sha: string, createdAt: string): Promise<void> {
    const res = await api.as(tenant.owner.apiKey).post('/api/webhooks/v1/deployments', { projectKey, externalId, ref: 'main', sha, environment: 'production', status: 'success', createdAt });
    expect(res.status).to.equal(201);
  }

  /** Connects a tracker through the fake vendor, maps its project onto `projectKey`, runs a backfill. */
  async function syncTracker(kind: 'jira' | 'linear', trackerProject: string, projectKey: string): Promise<void> {
    const owner = api.as(tenant.owner.apiKey);
    await connectThroughVendor(owner, kind);
    const [{ id }] = await q('select id from integration_connections where tenant_id = $1 and kind = $2', [tenant.tenantId, kind]);
    expect((await owner.patch(`/api/integrations/${kind}/connections/${id}`, { mapping: { projects: { [trackerProject]: projectKey } } })).status).to.equal(200);
    await runSync(api.running.app, { tenantId: tenant.tenantId, connectionId: id, kind, mode: 'backfill' });
  }

  it('PRs by the signed code-host webhook and deployments by the webhook API meet in one project: lead time in the cube and over MCP', async () => {
    await merge(1, '2026-09-01T00:00:00Z', '2026-09-02T00:00:00Z', '1111111aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa');
    await deployment(REPO, 'd1', '1111111aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', '2026-09-03T00:00:00Z');
    // CI sends the key in another case; the repository is the same.
    await deployment('Acme-Corp/API', 'd2', '2222222bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb', '2026-09-11T00:00:00Z');
    await merge(2, '2026-09-10T00:00:00Z', '2026-09-10T12:00:00Z', '2222222bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb');
    await merge(3, '2026-09-20T12:00:00Z', '2026-09-21T00:00:00Z', '3333333ccccccccccccccccccccccccccccccccc');
    await deployment(REPO, 'd3', '3333333ccccccccccccccccccccccccccccccccc', '2026-09-22T00:00:00Z');

    expect(await q('select provider, project_key, source_type from projects where tenant_id = $1', [tenant.tenantId]))
      .to.deep.equal([{ provider: 'codehost', project_key: REPO, source_type: 'codehost' }]);
    // The stored rows, as a reader sees them (cube queries catch up themselves; below).
    await q('select delivery_facts_catch_up($1)', [tenant.tenantId]);
    expect(await q(`select p.number, d.external_id as deployment, c.lead_time_seconds from change_lead_times c
      join pull_requests p on p.id = c.pull_request_id join deployments d on d.id = c.deployment_id where c.tenant_id = $1 order by p.number`, [tenant.tenantId]))
      .to.deep.equal([{ number: 1, deployment: 'd1', lead_time_seconds: 48 * HOUR }, { number: 2, deployment: 'd2', lead_time_seconds: 24 * HOUR }, { number: 3, deployment: 'd3', lead_time_seconds: 36 * HOUR }]);

    const query = {
      measures: ['change_lead_times.lead_time_for_changes_p50_seconds', 'change_lead_times.deployed_changes', 'change_lead_times.undeployed_changes'],
      timeDimensions: [{ dimension: 'change_lead_times.deployed_at', dateRange: ['2026-09-01', '2026-09-30'] }],
    };
    const loaded = await api.as(tenant.owner.apiKey).post('/cubejs-api/v1/load', { query });
    expect(loaded.status).to.equal(200);
    expect(loaded.body.data).to.deep.equal([{
      'change_lead_times.lead_time_for_changes_p50_seconds': String(36 * HOUR), 'change_lead_times.deployed_changes': '3', 'change_lead_times.undeployed_changes': '0',
    }]);

    const client = await mcp.connect(tenant.owner.apiKey);
    const answer = structured(await client.callTool({ name: 'cube_query', arguments: query }));
    expect(answer.rows).to.deep.equal([{
      'change_lead_times.lead_time_for_changes_p50_seconds': 36 * HOUR, 'change_lead_times.deployed_changes': 3, 'change_lead_times.undeployed_changes': 0,
    }]);
  });

  it('Jira and Linear issues mapped onto the repository land in its one project: a Jira incident is attributed to the webhook deployment', async () => {
    const recent = new Date().toISOString();
    jira.issues = [jira.issue(1, {
      issuetype: { name: 'Incident' }, status: { name: 'Done', statusCategory: { key: 'done' } },
      created: '2026-09-22T03:00:00.000+0000', resolutiondate: '2026-09-22T05:00:00.000+0000', updated: recent,
    })];
    await syncTracker('jira', 'ENG', REPO);
    linear.issues = [linear.issue(1, { labels: { nodes: [{ name: 'Bug' }] } })];
    await syncTracker('linear', 'LIN', 'ACME-CORP/api');

    const [project] = await q('select id from projects where tenant_id = $1', [tenant.tenantId]);
    expect(await q('select provider, type, project_id from issues where tenant_id = $1 order by provider', [tenant.tenantId])).to.deep.equal([
      { provider: 'jira', type: 'incident', project_id: project.id },
      { provider: 'linear', type: 'bug', project_id: project.id },
    ]);
    expect((await q('select count(*)::int as n from projects where tenant_id = $1', [tenant.tenantId]))[0].n).to.equal(1);

    const loaded = await api.as(tenant.owner.apiKey).post('/cubejs-api/v1/load', { query: {
      measures: ['deployments.finished_production_deploys', 'deployments.failed_production_deploys', 'deployments.change_failure_rate'],
      timeDimensions: [{ dimension: 'deployments.created_at', dateRange: ['2026-09-01', '2026-09-30'] }],
    } });
    expect(loaded.status).to.equal(200);
    expect(loaded.body.data).to.have.length(1);
    expect(loaded.body.data[0]).to.include({ 'deployments.finished_production_deploys': '3', 'deployments.failed_production_deploys': '1' });
    expect(Number(loaded.body.data[0]['deployments.change_failure_rate'])).to.be.closeTo(1 / 3, 1e-9);
    expect(await q(`select d.external_id, f.caused_incident from deployment_facts f join deployments d on d.id = f.deployment_id where f.tenant_id = $1 order by 1`, [tenant.tenantId]))
      .to.deep.equal([{ external_id: 'd1', caused_incident: false }, { external_id: 'd2', caused_incident: false }, { external_id: 'd3', caused_incident: true }]);
  });

  it('a team given the repository in another case owns that one project (no new project), and gives it up by the same key', async () => {
    const [team] = await q(`insert into teams (tenant_id, slug, name) values ($1, 'payments', 'Payments') returning id`, [tenant.tenantId]);
    const owner = api.as(tenant.owner.apiKey);
    const given = await owner.patch(`/api/teams/${team.id}`, { projects: ['ACME-CORP/API'] });
    expect(given.status).to.equal(200);
    expect(given.body.data.projects).to.deep.equal([REPO]);
    expect(await q('select project_key, owning_team_id from projects where tenant_id = $1', [tenant.tenantId])).to.deep.equal([{ project_key: REPO, owning_team_id: team.id }]);
    const kept = await owner.patch(`/api/teams/${team.id}`, { projects: ['Acme-Corp/Api'] });
    expect(kept.body.data.projects).to.deep.equal([REPO]);
    const released = await owner.patch(`/api/teams/${team.id}`, { projects: [] });
    expect(released.body.data.projects).to.deep.equal([]);
    expect(await q('select project_key, owning_team_id from projects where tenant_id = $1', [tenant.tenantId])).to.deep.equal([{ project_key: REPO, owning_team_id: null }]);
  });
});
