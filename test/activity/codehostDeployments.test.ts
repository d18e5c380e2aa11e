/**
 * Deployments from the code host's own records (issue 36; docs/codehost-deployments.md), by
 * hand-built deliveries signed as the code host signs them. Each rule has its own repository.
 *
 * Hand-worked DORA month (acme/rollback, 2026-03, source: code-host deployments):
 *   A sha a 03-01 success; B sha b 03-05 success; C sha a 03-06 success → a rollback from b
 *   (the sha before it was b, a was deployed earlier), so B is failed; E sha c 03-10 failure;
 *   F sha c 03-11 success (c was never deployed successfully before: not a rollback).
 *   production_deploys (successful) = A, B, C, F = 4; finished = 5; failed = B, E = 2;
 *   change_failure_rate = 2 / 5 = 0.4.
 */
import { expect } from 'chai';
import { buildMember, buildTenant, dbFor, type BuiltTenant } from '../helpers/factories.js';
import { testServer, type TestServer } from '../helpers/server.js';
import { announceInstallation, codehostEnv, deliver, FIXTURE_INSTALLATION } from './helpers.js';
import { deploymentEvent, installation, releaseEvent, runEvent, sha, statusEvent } from './codehostEvents.js';

describe('code-host webhook: deployments from the code host', function () {
  this.timeout(120_000);
  let api: TestServer;
  let tenant: BuiltTenant;
  const q = async (text: string, values: unknown[] = []) => (await dbFor(api.databaseUrl).pool.query(text, values)).rows;

  before(async () => {
    api = await testServer({ env: codehostEnv() });
    tenant = await buildTenant(api.databaseUrl);
    await announceInstallation(api.databaseUrl, FIXTURE_INSTALLATION);
    expect((await api.as(tenant.owner.apiKey).post('/api/integrations/codehost/installations', { installationId: FIXTURE_INSTALLATION })).status).to.equal(201);
  });
  after(() => api?.close());

  async function send(event: string, payload: object, expected: { stored: boolean; reason?: string }) {
    const res = await deliver(api, event, payload);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.data, JSON.stringify(res.body)).to.deep.include(expected);
  }

  const rowsOf = (repo: string) => q(`select d.external_id, d.provider, d.ref, d.sha, d.environment, d.status, d.url, d.is_production, d.is_rollback, d.rollback_from_sha, d.created_at
    from deployments d join projects p on p.id = d.project_id where p.tenant_id = $1 and p.project_key = $2 order by d.created_at, d.external_id`, [tenant.tenantId, repo]);

  async function projectId(repo: string): Promise<string> {
    await send('repository', { action: 'created', installation, repository: { full_name: repo } }, { stored: true });
    const [row] = await q('select id from projects where tenant_id = $1 and project_key = $2', [tenant.tenantId, repo]);
    return row.id;
  }

  async function setSource(repo: string, settings: object) {
    const res = await api.as(tenant.owner.apiKey).put(`/api/deployment-sources/${await projectId(repo)}`, settings);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body.data;
  }

  it('a deployment and its statuses are one row with the latest status; an older status or `inactive` arriving late changes nothing', async () => {
    const repo = 'acme/statuses';
    const d = { sha: sha('a'), created_at: '2026-02-02T10:00:00Z' };
    await send('deployment', deploymentEvent(repo, 101, d), { stored: true });
    expect((await rowsOf(repo)).map((r) => r.status)).to.deep.equal(['pending']);
    await send('deployment_status', statusEvent(repo, 101, d, { id: 1, state: 'queued' }), { stored: true });
    await send('deployment_status', statusEvent(repo, 101, d, { id: 2, state: 'in_progress' }), { stored: true });
    await send('deployment_status', statusEvent(repo, 101, d, { id: 4, state: 'success' }), { stored: true });
    // Late: an older status, GitHub's `inactive` when a newer deployment succeeds, the deployment event itself.
    await send('deployment_status', statusEvent(repo, 101, d, { id: 3, state: 'in_progress' }), { stored: true });
    await send('deployment_status', statusEvent(repo, 101, d, { id: 5, state: 'inactive' }), { stored: true });
    await send('deployment', deploymentEvent(repo, 101, d), { stored: true });
    expect(await rowsOf(repo)).to.deep.equal([{
      external_id: 'gh-deployment-101', provider: 'codehost', ref: 'main', sha: sha('a'), environment: 'production', status: 'success',
      url: 'https://ci.example/101/4', is_production: true, is_rollback: false, rollback_from_sha: null, created_at: new Date('2026-02-02T10:00:00Z'),
    }]);
  });

  it('production: `production_environment`, or the project\'s production environment name (default `production`)', async () => {
    const repo = 'acme/environments';
    await send('deployment', deploymentEvent(repo, 201, { sha: sha('1'), created_at: '2026-02-01T00:00:00Z', environment: 'staging' }), { stored: true });
    await send('deployment', deploymentEvent(repo, 202, { sha: sha('2'), created_at: '2026-02-02T00:00:00Z', environment: 'live', production_environment: true }), { stored: true });
    await setSource(repo, { source: 'deployments', productionEnvironment: 'Prod' });
    await send('deployment', deploymentEvent(repo, 203, { sha: sha('3'), created_at: '2026-02-03T00:00:00Z', environment: 'prod' }), { stored: true });
    await send('deployment', deploymentEvent(repo, 204, { sha: sha('4'), created_at: '2026-02-04T00:00:00Z', environment: 'production' }), { stored: true });
    expect((await rowsOf(repo)).map((r) => [r.environment, r.is_production])).to.deep.equal([['staging', false], ['live', true], ['prod', true], ['production', false]]);
  });

  it('rollback by sha, failures by status: the hand-worked month through the cube', async () => {
    const repo = 'acme/rollback';
    const deploy = async (id: number, c: string, at: string, state: string) => {
      const d = { sha: sha(c), created_at: at };
      await send('deployment', deploymentEvent(repo, id, d), { stored: true });
      await send('deployment_status', statusEvent(repo, id, d, { id: id * 10, state }), { stored: true });
    };
    await deploy(301, 'a', '2026-03-01T00:00:00Z', 'success');
    await deploy(302, 'b', '2026-03-05T00:00:00Z', 'success');
    await deploy(303, 'a', '2026-03-06T00:00:00Z', 'success');
    await deploy(304, 'c', '2026-03-10T00:00:00Z', 'failure');
    await deploy(305, 'c', '2026-03-11T00:00:00Z', 'success');
    expect((await rowsOf(repo)).map((r) => [r.external_id, r.status, r.is_rollback, r.rollback_from_sha])).to.deep.equal([
      ['gh-deployment-301', 'success', false, null],
      ['gh-deployment-302', 'success', false, null],
      ['gh-deployment-303', 'success', true, sha('b')],
      ['gh-deployment-304', 'failure', false, null],
      ['gh-deployment-305', 'success', false, null],
    ]);
    await q('select delivery_facts_catch_up($1)', [tenant.tenantId]);
    expect(await q(`select d.external_id, f.rolled_back from deployment_facts f join deployments d on d.id = f.deployment_id
      join projects p on p.id = d.project_id where p.project_key = $1 and f.rolled_back order by 1`, [repo])).to.deep.equal([{ external_id: 'gh-deployment-302', rolled_back: true }]);

    const loaded = await api.as(tenant.owner.apiKey).post('/cubejs-api/v1/load', { query: {
      measures: ['deployments.production_deploys', 'deployments.finished_production_deploys', 'deployments.failed_production_deploys', 'deployments.change_failure_rate'],
      timeDimensions: [{ dimension: 'deployments.created_at', dateRange: ['2026-03-01', '2026-03-31'] }],
    } });
    expect(loaded.status).to.equal(200);
    expect(loaded.body.data).to.have.length(1);
    expect(loaded.body.data[0]).to.include({ 'deployments.production_deploys': '4', 'deployments.finished_production_deploys': '5', 'deployments.failed_production_deploys': '2' });
    expect(Number(loaded.body.data[0]['deployments.change_failure_rate'])).to.be.closeTo(0.4, 1e-9);
  });

  it('workflow runs: the named workflow on the named branch; a re-run updates the same deployment; a failed run is a failed deployment', async () => {
    const repo = 'acme/workflows';
    // Nobody named a workflow yet: runs are acknowledged, not stored.
    await send('workflow_run', runEvent(repo, { id: 900, attempt: 1, conclusion: 'success', sha: sha('9'), started: '2026-04-01T00:00:00Z' }),
      { stored: false, reason: 'no workflow is named as the deployment of acme/workflows' });
    const settings = await setSource(repo, { source: 'workflow_runs', workflow: 'deploy.yml' });
    expect(settings).to.deep.include({ source: 'workflow_runs', workflow: 'deploy.yml', branch: null });

    await send('workflow_run', runEvent(repo, { id: 901, attempt: 1, conclusion: 'timed_out', sha: sha('1'), started: '2026-04-02T00:00:00Z' }), { stored: true });
    expect((await rowsOf(repo)).map((r) => [r.external_id, r.status])).to.deep.equal([['gh-run-901', 'failure']]);
    await send('workflow_run', runEvent(repo, { id: 901, attempt: 2, conclusion: 'success', sha: sha('1'), started: '2026-04-02T01:00:00Z' }), { stored: true });
    // The first attempt's delivery arriving again late changes nothing.
    await send('workflow_run', runEvent(repo, { id: 901, attempt: 1, conclusion: 'failure', sha: sha('1'), started: '2026-04-02T00:00:00Z' }), { stored: true });
    await send('workflow_run', runEvent(repo, { id: 902, attempt: 1, conclusion: 'failure', sha: sha('2'), started: '2026-04-03T00:00:00Z' }), { stored: true });
    await send('workflow_run', runEvent(repo, { id: 903, attempt: 1, conclusion: 'cancelled', sha: sha('3'), started: '2026-04-04T00:00:00Z' }), { stored: true });
    await send('workflow_run', runEvent(repo, { id: 904, attempt: 1, conclusion: 'success', sha: sha('4'), started: '2026-04-05T00:00:00Z', path: '.github/workflows/test.yml' }),
      { stored: false, reason: 'workflow test.yml is not the deployment workflow of acme/workflows' });
    await send('workflow_run', runEvent(repo, { id: 905, attempt: 1, conclusion: 'success', sha: sha('5'), started: '2026-04-06T00:00:00Z', branch: 'feature' }),
      { stored: false, reason: 'a run on branch feature is not a deployment of acme/workflows (branch main)' });
    await send('workflow_run', runEvent(repo, { id: 906, attempt: 1, conclusion: null, sha: sha('6'), started: '2026-04-07T00:00:00Z', action: 'requested' }),
      { stored: false, reason: 'action requested of workflow_run is not used' });
    expect((await rowsOf(repo)).map((r) => [r.external_id, r.status, r.is_production, r.created_at.toISOString()])).to.deep.equal([
      ['gh-run-901', 'success', true, '2026-04-02T01:00:00.000Z'],
      ['gh-run-902', 'failure', true, '2026-04-03T00:00:00.000Z'],
      ['gh-run-903', 'inactive', true, '2026-04-04T00:00:00.000Z'],
    ]);
    // A code-host deployment of this repository is not its source now.
    await send('deployment', deploymentEvent(repo, 907, { sha: sha('7'), created_at: '2026-04-08T00:00:00Z' }),
      { stored: false, reason: 'the deployment source of acme/workflows is workflow runs, not code-host deployments' });
  });

  it('releases: published, non-draft, non-prerelease, when the project uses them; a deleted one is no longer finished', async () => {
    const repo = 'acme/library';
    await send('release', releaseEvent(repo, 'published', { id: 1, tag: 'v1.0.0', published: '2026-05-01T00:00:00Z' }),
      { stored: false, reason: 'acme/library does not use releases as its deployment source' });
    await setSource(repo, { source: 'releases' });
    await send('release', releaseEvent(repo, 'published', { id: 1, tag: 'v1.0.0', published: '2026-05-01T00:00:00Z' }), { stored: true });
    await send('release', releaseEvent(repo, 'released', { id: 1, tag: 'v1.0.0', published: '2026-05-01T00:00:00Z' }), { stored: true });
    await send('release', releaseEvent(repo, 'published', { id: 2, tag: 'v1.1.0-rc.1', published: '2026-05-02T00:00:00Z', prerelease: true }),
      { stored: false, reason: 'release v1.1.0-rc.1 is a prerelease' });
    await send('release', releaseEvent(repo, 'published', { id: 3, tag: 'v1.1.0', published: '2026-05-03T00:00:00Z' }), { stored: true });
    await send('release', releaseEvent(repo, 'deleted', { id: 3, tag: 'v1.1.0', published: '2026-05-03T00:00:00Z' }), { stored: true });
    // Deleted before its publication was stored: kept withdrawn (a tombstone), so a late publication is no deployment.
    await send('release', releaseEvent(repo, 'deleted', { id: 4, tag: 'v0.9.0', published: '2026-04-03T00:00:00Z' }), { stored: true });
    // A draft never published was never a deployment: nothing to keep.
    const draft = releaseEvent(repo, 'deleted', { id: 5, tag: 'v2.0.0', published: '2026-05-04T00:00:00Z', draft: true });
    await send('release', { ...draft, release: { ...draft.release, published_at: null } }, { stored: false, reason: 'release v2.0.0 was never stored' });
    expect((await rowsOf(repo)).map((r) => [r.external_id, r.ref, r.sha, r.status, r.is_production])).to.deep.equal([
      ['gh-release-4', 'v0.9.0', '', 'inactive', true],
      ['gh-release-1', 'v1.0.0', '', 'success', true],
      ['gh-release-3', 'v1.1.0', '', 'inactive', true],
    ]);
  });

  it('one source at a time: the webhook API claims a project first; switching stores only the new source and keeps the old rows', async () => {
    const repo = 'acme/switch';
    const owner = api.as(tenant.owner.apiKey);
    const posted = await owner.post('/api/webhooks/v1/deployments', { projectKey: repo, externalId: 'ci-1', ref: 'main', sha: sha('1'), environment: 'production', status: 'success', createdAt: '2026-06-01T00:00:00Z' });
    expect(posted.status).to.equal(201);
    // The same real deployment, reported by the code host too: not stored, so not counted twice.
    const d = { sha: sha('1'), created_at: '2026-06-01T00:00:00Z' };
    await send('deployment', deploymentEvent(repo, 601, d), { stored: false, reason: 'the deployment source of acme/switch is the webhook API, not code-host deployments' });
    await send('deployment_status', statusEvent(repo, 601, d, { id: 1, state: 'success' }), { stored: false, reason: 'the deployment source of acme/switch is the webhook API, not code-host deployments' });
    const id = await projectId(repo);
    expect((await owner.get(`/api/deployment-sources/${id}`)).body.data).to.deep.equal({
      projectId: id, projectKey: repo, source: 'webhook', workflow: null, branch: null, productionEnvironment: null, storedDeployments: { webhook: 1, codehost: 0 }, backfill: null,
    });

    await setSource(repo, { source: 'deployments' });
    const e = { sha: sha('2'), created_at: '2026-06-02T00:00:00Z' };
    await send('deployment_status', statusEvent(repo, 602, e, { id: 2, state: 'success' }), { stored: true });
    await send('release', releaseEvent(repo, 'published', { id: 60, tag: 'v2', published: '2026-06-02T00:00:00Z' }),
      { stored: false, reason: 'the deployment source of acme/switch is code-host deployments, not releases' });
    expect((await rowsOf(repo)).map((r) => [r.provider, r.external_id, r.status])).to.deep.equal([['manual', 'ci-1', 'success'], ['codehost', 'gh-deployment-602', 'success']]);
    expect((await owner.get(`/api/deployment-sources/${id}`)).body.data.storedDeployments).to.deep.equal({ webhook: 1, codehost: 1 });

    // Back to no choice: the project stays as chosen until a deployment claims it again.
    expect((await setSource(repo, { source: null })).source).to.equal(null);
    await send('deployment', deploymentEvent(repo, 603, { sha: sha('3'), created_at: '2026-06-03T00:00:00Z' }), { stored: false, reason: 'the deployment source of acme/switch is the webhook API, not code-host deployments' });
  });

  it('one source per period: after a switch the new source counts from its earliest record, the old rows before it; switching back restores them', async () => {
    // September, acme/september: the pipeline (webhook API) reported 09-03 and 09-10, and 08-20
    // before. The owner switches to code-host deployments, whose records (as the 90-day backfill
    // writes them) are 09-02 and 09-11. The code host counts from 09-02 on: September is 2 (09-02,
    // 09-11), not 4; the webhook rows of 09-03 and 09-10 stay stored, replaced by `deployments`;
    // August keeps its webhook row (older than the code host's reach). Switching back to the webhook
    // API: the webhook source reaches back to 08-20, so the code host's rows are replaced and
    // September is 09-03 and 09-10 again.
    const repo = 'acme/september';
    const owner = api.as(tenant.owner.apiKey);
    for (const [externalId, day, c] of [['ci-0820', '2026-08-20', 'a'], ['ci-0903', '2026-09-03', 'b'], ['ci-0910', '2026-09-10', 'c']] as const) {
      const res = await owner.post('/api/webhooks/v1/deployments', { projectKey: repo, externalId, ref: 'main', sha: sha(c), environment: 'production', status: 'success', createdAt: `${day}T12:00:00Z` });
      expect(res.status).to.equal(201);
    }
    const months = async () => {
      const loaded = await owner.post('/cubejs-api/v1/load', { query: {
        measures: ['deployments.production_deploys', 'deployments.finished_production_deploys'],
        timeDimensions: [{ dimension: 'deployments.created_at', granularity: 'month', dateRange: ['2026-08-01', '2026-09-30'] }],
        filters: [{ member: 'deployments.project_key', operator: 'equals', values: [repo] }],
      } });
      expect(loaded.status, JSON.stringify(loaded.body)).to.equal(200);
      return loaded.body.data.map((r: Record<string, string>) => [r['deployments.created_at.month']?.slice(0, 7), r['deployments.production_deploys'], r['deployments.finished_production_deploys']]);
    };
    const september = async () => {
      const res = await owner.get('/api/facts?measure=deployments.production_deploys&from=2026-09&to=2026-09');
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      return res.body.data.filter((r: { project: string }) => r.project === repo).map((r: { externalId: string }) => r.externalId);
    };
    const listedApart = async (measure: string) => {
      const counted = await owner.get(`/api/facts?measure=${measure}&from=2026-09&to=2026-09`);
      const apart = await owner.get(`/api/facts?measure=${measure}&from=2026-09&to=2026-09&replaced=true`);
      expect([counted.status, apart.status], JSON.stringify([counted.body, apart.body])).to.deep.equal([200, 200]);
      const csv = await owner.get(`/api/facts?measure=${measure}&from=2026-09&to=2026-09&replaced=true&format=csv`);
      expect(csv.headers.get('content-disposition')).to.include(`facts-${measure.replace('.', '-')}-replaced-2026-09-2026-09.csv`);
      const [header, ...lines] = String(csv.text).trim().split('\n');
      const columns = (header as string).split(',');
      return {
        counted: { total: counted.body.meta.total, replaced: counted.body.meta.replaced, listing: counted.body.meta.listing },
        apart: { total: apart.body.meta.total, replaced: apart.body.meta.replaced, listing: apart.body.meta.listing, ...(apart.body.meta.markedColumn === undefined ? {} : { marked: apart.body.meta.marked, markedColumn: apart.body.meta.markedColumn }) },
        // The replaced rows' own columns (the kind's replacedLead), the rest detail; the panel shows these.
        shown: apart.body.meta.columns.filter((c: { detail?: boolean }) => !c.detail).map((c: { key: string }) => c.key),
        rows: apart.body.data.map((r: { externalId: string; replacedBy: string; reason: string; failed: boolean }) => [r.externalId, r.replacedBy, r.reason, r.failed]),
        csv: lines.map((line) => { const cells = line.split(','); return `${cells[columns.indexOf('externalId')]},${cells[columns.indexOf('replacedBy')]}`; }),
      };
    };
    const replaced = async () => q(`select d.external_id, f.replaced_by from deployment_facts f join deployments d on d.id = f.deployment_id
      join projects p on p.id = d.project_id where p.tenant_id = $1 and p.project_key = $2 and f.replaced_by is not null order by d.created_at`, [tenant.tenantId, repo]);
    expect(await months()).to.deep.equal([['2026-08', '1', '1'], ['2026-09', '2', '2']]);

    await setSource(repo, { source: 'deployments' });
    for (const [id, day, c] of [[702, '2026-09-02', 'd'], [711, '2026-09-11', 'e']] as const) {
      const d = { sha: sha(c), created_at: `${day}T12:00:00Z` };
      await send('deployment', deploymentEvent(repo, id, d), { stored: true });
      await send('deployment_status', statusEvent(repo, id, d, { id: id * 10, state: 'success' }), { stored: true });
    }
    expect(await months()).to.deep.equal([['2026-08', '1', '1'], ['2026-09', '2', '2']]);
    expect(await september()).to.deep.equal(['gh-deployment-711', 'gh-deployment-702']);
    expect(await replaced()).to.deep.equal([{ external_id: 'ci-0903', replaced_by: 'deployments' }, { external_id: 'ci-0910', replaced_by: 'deployments' }]);
    // The drill-through lists the replaced rows apart: the counted list says how many there are,
    // `replaced=true` lists them (JSON and CSV), each "replaced by" its source; the count is untouched.
    expect(await listedApart('deployments.production_deploys')).to.deep.equal({
      counted: { total: 2, replaced: 2, listing: 'counted' },
      apart: { total: 2, replaced: 2, listing: 'replaced', marked: 0, markedColumn: null },
      shown: ['externalId', 'reason', 'createdAt', 'sha', 'project', 'environment', 'status', 'replacedBy'],
      rows: [['ci-0910', 'deployments', 'replaced by code-host deployments', false], ['ci-0903', 'deployments', 'replaced by code-host deployments', false]],
      csv: ['ci-0910,deployments', 'ci-0903,deployments'],
    });
    expect((await listedApart('deployments.change_failure_rate')).apart).to.deep.equal({ total: 2, replaced: 2, listing: 'replaced', marked: 0, markedColumn: null });
    expect((await listedApart('deployments.failed_production_deploys')).counted).to.deep.equal({ total: 0, replaced: 0, listing: 'counted' });
    const recovery = await owner.get('/api/facts?measure=deployments.recovered_deploys&from=2026-09&to=2026-09');
    expect(recovery.body.meta.replaced).to.equal(null);
    const refused = await owner.get('/api/facts?measure=pull_requests.prs_merged&from=2026-09&to=2026-09&replaced=true');
    expect({ status: refused.status, details: refused.body.error.details }).to.deep.equal({ status: 400, details: [{ path: 'query.replaced', message: 'pull_requests.prs_merged lists no replaced rows: only the production, finished and failed deployments do' }] });
    expect((await rowsOf(repo)).map((r) => r.external_id)).to.deep.equal(['ci-0820', 'gh-deployment-702', 'ci-0903', 'ci-0910', 'gh-deployment-711']);

    await setSource(repo, { source: 'webhook' });
    expect(await months()).to.deep.equal([['2026-08', '1', '1'], ['2026-09', '2', '2']]);
    expect(await september()).to.deep.equal(['ci-0910', 'ci-0903']);
    expect(await replaced()).to.deep.equal([{ external_id: 'gh-deployment-702', replaced_by: 'webhook' }, { external_id: 'gh-deployment-711', replaced_by: 'webhook' }]);
    // Switching back restores the webhook rows to the counted list; the code host's are now apart.
    expect(await listedApart('deployments.production_deploys')).to.deep.equal({
      counted: { total: 2, replaced: 2, listing: 'counted' },
      apart: { total: 2, replaced: 2, listing: 'replaced', marked: 0, markedColumn: null },
      shown: ['externalId', 'reason', 'createdAt', 'sha', 'project', 'environment', 'status', 'replacedBy'],
      rows: [['gh-deployment-711', 'webhook', 'replaced by the webhook API', false], ['gh-deployment-702', 'webhook', 'replaced by the webhook API', false]],
      csv: ['gh-deployment-711,webhook', 'gh-deployment-702,webhook'],
    });
  });

  it('an organisation-wide workflow pattern: a matching completed run on the default branch claims a project with no source', async () => {
    const owner = api.as(tenant.owner.apiKey);
    expect((await owner.get('/api/deployment-sources/organisation')).body.data).to.deep.equal({ pattern: null });
    const member = await buildMember(api.databaseUrl, tenant.tenantId, 'member');
    expect((await api.as(member.apiKey).put('/api/deployment-sources/organisation', { pattern: { workflow: 'deploy*.yml' } })).status).to.equal(403);
    const set = await owner.put('/api/deployment-sources/organisation', { pattern: { workflow: 'deploy*.yml' } });
    expect(set.status).to.equal(200);
    expect(set.body.data).to.deep.equal({ pattern: { workflow: 'deploy*.yml', branch: null } });

    const repo = 'acme/pattern';
    await send('workflow_run', runEvent(repo, { id: 701, attempt: 1, conclusion: 'success', sha: sha('1'), started: '2026-07-01T00:00:00Z', path: '.github/workflows/ci.yml' }),
      { stored: false, reason: 'workflow ci.yml is not the deployment workflow of acme/pattern' });
    await send('workflow_run', runEvent(repo, { id: 702, attempt: 1, conclusion: 'success', sha: sha('2'), started: '2026-07-02T00:00:00Z', path: '.github/workflows/deploy-prod.yml', branch: 'develop' }),
      { stored: false, reason: 'a run on branch develop is not a deployment of acme/pattern (branch main)' });
    expect((await q('select deployment_source from projects where tenant_id = $1 and project_key = $2', [tenant.tenantId, repo]))[0].deployment_source).to.equal(null);
    await send('workflow_run', runEvent(repo, { id: 703, attempt: 1, conclusion: 'failure', sha: sha('3'), started: '2026-07-03T00:00:00Z', path: '.github/workflows/Deploy-Prod.yml' }), { stored: true });
    expect((await q('select deployment_source from projects where tenant_id = $1 and project_key = $2', [tenant.tenantId, repo]))[0].deployment_source).to.equal('workflow_runs');
    await send('deployment', deploymentEvent(repo, 704, { sha: sha('4'), created_at: '2026-07-04T00:00:00Z' }),
      { stored: false, reason: 'the deployment source of acme/pattern is workflow runs, not code-host deployments' });
    expect((await rowsOf(repo)).map((r) => [r.external_id, r.status])).to.deep.equal([['gh-run-703', 'failure']]);
    // A project with its own workflow keeps it.
    await setSource('acme/own-workflow', { source: 'workflow_runs', workflow: 'release.yml', branch: 'stable' });
    await send('workflow_run', runEvent('acme/own-workflow', { id: 705, attempt: 1, conclusion: 'success', sha: sha('5'), started: '2026-07-05T00:00:00Z', path: '.github/workflows/deploy.yml', branch: 'stable' }),
      { stored: false, reason: 'workflow deploy.yml is not the deployment workflow of acme/own-workflow' });
    await send('workflow_run', runEvent('acme/own-workflow', { id: 706, attempt: 1, conclusion: 'success', sha: sha('6'), started: '2026-07-06T00:00:00Z', path: '.github/workflows/release.yml', branch: 'stable' }), { stored: true });
    expect((await owner.put('/api/deployment-sources/organisation', { pattern: null })).body.data).to.deep.equal({ pattern: null });
    const other = await buildTenant(api.databaseUrl);
    expect((await api.as(other.owner.apiKey).get('/api/deployment-sources/organisation')).body.data).to.deep.equal({ pattern: null });
  });

  it('a signed deployment, status, run or release whose date does not parse is a 400 naming the field, and nothing is stored (issue 43)', async () => {
    const repo = 'acme/bad-dates';
    const d = { sha: sha('d'), created_at: '2026-08-01T00:00:00Z' };
    const cases: [event: string, payload: () => any, field: string][] = [
      ['deployment', () => deploymentEvent(repo, 801, d), 'deployment.created_at'],
      ['deployment_status', () => statusEvent(repo, 801, d, { id: 1, state: 'success' }), 'deployment.created_at'],
      ['deployment_status', () => statusEvent(repo, 801, d, { id: 1, state: 'success' }), 'deployment_status.created_at'],
      ['deployment_status', () => statusEvent(repo, 801, d, { id: 1, state: 'success' }), 'deployment_status.updated_at'],
      ['workflow_run', () => runEvent(repo, { id: 802, attempt: 1, conclusion: 'success', sha: sha('e'), started: '2026-08-02T00:00:00Z' }), 'workflow_run.created_at'],
      ['workflow_run', () => runEvent(repo, { id: 802, attempt: 1, conclusion: 'success', sha: sha('e'), started: '2026-08-02T00:00:00Z' }), 'workflow_run.run_started_at'],
      ['workflow_run', () => runEvent(repo, { id: 802, attempt: 1, conclusion: 'success', sha: sha('e'), started: '2026-08-02T00:00:00Z' }), 'workflow_run.updated_at'],
      ['release', () => releaseEvent(repo, 'published', { id: 803, tag: 'v8', published: '2026-08-03T00:00:00Z' }), 'release.published_at'],
    ];
    const count = async () => (await q(`select (select count(*)::int from codehost_deliveries where tenant_id = $1) as deliveries,
      (select count(*)::int from deployments where tenant_id = $1) as deployments, (select count(*)::int from projects where tenant_id = $1) as projects`, [tenant.tenantId]))[0];
    const before = await count();
    for (const [event, payload, field] of cases) {
      for (const bad of ['not a date', '2026-13-45T99:00:00Z', 1_785_000_000, '', '99999-01-01T00:00:00Z', '2026-02-30T00:00:00Z', '2026-08-01T00:00:00']) {
        const body = payload();
        const [object, key] = field.split('.') as [string, string];
        body[object][key] = bad;
        const res = await deliver(api, event, body);
        expect({ status: res.status, body: res.body }, `${event} ${field} = ${JSON.stringify(bad)}`).to.deep.equal({ status: 400, body: { error: {
          code: 'validation_failed', message: 'Webhook payload does not have the expected shape',
          details: [{ path: field, message: 'Must be an ISO 8601 timestamp with an offset, e.g. 2024-05-01T12:00:00Z' }],
        } } });
      }
    }
    expect(await count()).to.deep.equal(before);
  });

  it('settings: owners only; workflow runs need a workflow; another tenant\'s project is not found', async () => {
    const id = await projectId('acme/settings');
    const owner = api.as(tenant.owner.apiKey);
    const member = await buildMember(api.databaseUrl, tenant.tenantId, 'member');
    expect((await api.as(member.apiKey).put(`/api/deployment-sources/${id}`, { source: 'releases' })).status).to.equal(403);
    expect((await api.as(member.apiKey).get(`/api/deployment-sources/${id}`)).status).to.equal(200);
    const invalid = await owner.put(`/api/deployment-sources/${id}`, { source: 'workflow_runs' });
    expect(invalid.status).to.equal(400);
    expect(invalid.body.error).to.deep.equal({ code: 'validation_failed', message: 'Validation failed', details: [{ path: 'workflow', message: 'Required when source is workflow_runs and the organisation has no workflow pattern' }] });
    expect((await owner.put(`/api/deployment-sources/${id}`, { source: 'pipelines' })).status).to.equal(400);

    const other = await buildTenant(api.databaseUrl);
    const theirs = api.as(other.owner.apiKey);
    expect((await theirs.get(`/api/deployment-sources/${id}`)).status).to.equal(404);
    expect((await theirs.put(`/api/deployment-sources/${id}`, { source: 'releases' })).status).to.equal(404);
    expect((await theirs.get('/api/deployment-sources')).body).to.deep.equal({ data: [], meta: { page: 1, perPage: 25, total: 0, sources: ['webhook', 'deployments', 'workflow_runs', 'releases'] } });
    expect((await q('select deployment_source from projects where id = $1', [id]))[0].deployment_source).to.equal(null);
  });
});
