import { expect } from 'chai';
import pg from 'pg';
import type { DeploymentWebhook, IssueWebhook } from '../../src/webhooks/schemas.js';
import {
  deploymentProjects, deploymentRecords, inputRows, issueCounters, issueNumbers, issuePlacement, issueRecords, principalTenant,
  projectLookup, statement, type IssueProvider,
} from '../../src/webhooks/upsertStatement.js';
import { batchValues, DEPLOYMENT_KIND, ISSUE_KIND } from '../../src/webhooks/service.js';
import { freshDatabase } from '../helpers/database.js';
import { buildTenant } from '../helpers/factories.js';

/**
 * Each step of the upsert statement, stopped right after it: the statement is the steps up to it
 * and a SELECT of what it produced, run in a transaction that is rolled back.
 */
describe('webhook upsert statement, step by step', () => {
  let client: pg.Client;
  let a: string;
  let b: string;
  before(async () => {
    const url = await freshDatabase();
    a = (await buildTenant(url)).tenantId;
    b = (await buildTenant(url)).tenantId;
    client = new pg.Client({ connectionString: url });
    await client.connect();
  });
  after(() => client.end());
  beforeEach(() => client.query('BEGIN'));
  afterEach(() => client.query('ROLLBACK'));

  const issue = (over: Partial<IssueWebhook>): IssueWebhook => ({ projectKey: 'acme/web', externalId: 'X', title: 't', type: 'bug', state: 'open', ...over }) as IssueWebhook;

  async function issuesUpTo<R extends pg.QueryResultRow>(steps: string[][], tail: string, inputs: IssueWebhook[], tenant = a): Promise<R[]> {
    const text = statement([inputRows(ISSUE_KIND.columns), principalTenant(ISSUE_KIND.columns), ...steps], tail);
    const values = [...batchValues(ISSUE_KIND, inputs.map((input) => ({ keyHash: 'k', input }))), tenant];
    return (await client.query<R>(text, values)).rows;
  }

  async function project(tenant: string, key: string, seq = 0, provider = 'manual'): Promise<string> {
    const { rows } = await client.query<{ id: string }>(
      `INSERT INTO projects (tenant_id, provider, project_key, source_type, issue_seq) VALUES ($1, $2, $3, 'manual', $4) RETURNING id`, [tenant, provider, key, seq],
    );
    return rows[0]!.id;
  }

  async function storedIssue(tenant: string, projectId: string, externalId: string, number: number, provider = 'manual'): Promise<void> {
    await client.query(
      `INSERT INTO issues (tenant_id, project_id, provider, external_id, number, title, type, state, created_at) VALUES ($1, $2, $3, $4, $5, 't', 'bug', 'open', now())`,
      [tenant, projectId, provider, externalId, number],
    );
  }

  it('input and ok: one row per request in request order, all of the principal\'s tenant', async () => {
    const rows = await issuesUpTo([], 'SELECT ord, key_hash, project_key, external_id, tenant_id FROM ok ORDER BY ord', [issue({ externalId: 'A' }), issue({ externalId: 'B', projectKey: 'acme/api' })]);
    expect(rows).to.deep.equal([
      { ord: 0, key_hash: 'k', project_key: 'acme/web', external_id: 'A', tenant_id: a },
      { ord: 1, key_hash: 'k', project_key: 'acme/api', external_id: 'B', tenant_id: a },
    ]);
  });

  it('projectLookup: finds the tenant\'s own project by key whatever its provider or case, not another tenant\'s', async () => {
    const web = await project(a, 'acme/web');
    await project(b, 'acme/api');
    await project(b, 'acme/ops');
    const api = await project(a, 'Acme/API', 0, 'codehost');
    const rows = await issuesUpTo([projectLookup()], 'SELECT w.project_key, e.id FROM wanted w LEFT JOIN existing e USING (tenant_id, project_key) ORDER BY 1', [
      issue({ externalId: 'A' }), issue({ externalId: 'B' }), issue({ externalId: 'C', projectKey: 'acme/api' }), issue({ externalId: 'D', projectKey: 'acme/ops' }),
    ]);
    expect(rows).to.deep.equal([{ project_key: 'acme/api', id: api }, { project_key: 'acme/ops', id: null }, { project_key: 'acme/web', id: web }]);
  });

  it('issuePlacement: generates a number only for a request without one that is new or moved; demand per project', async () => {
    const web = await project(a, 'acme/web', 4);
    const api = await project(a, 'acme/api', 7);
    await storedIssue(a, web, 'KEPT', 3);
    await storedIssue(a, api, 'MOVED', 7);
    await storedIssue(a, web, 'JIRA', 2, 'jira'); // another provider's record of the same externalId is not this one
    const inputs = [
      issue({ externalId: 'KEPT' }), issue({ externalId: 'MOVED' }), issue({ externalId: 'NEW' }),
      issue({ externalId: 'EXPLICIT', number: 9 }), issue({ externalId: 'JIRA' }), issue({ externalId: 'FRESH', projectKey: 'new/one', number: 2 }),
    ];
    const placed = await issuesUpTo([projectLookup(), issuePlacement('manual')], 'SELECT external_id, prior_number, generate FROM placed ORDER BY ord', inputs);
    expect(placed).to.deep.equal([
      { external_id: 'KEPT', prior_number: 3, generate: false },
      { external_id: 'MOVED', prior_number: 7, generate: true },
      { external_id: 'NEW', prior_number: null, generate: true },
      { external_id: 'EXPLICIT', prior_number: null, generate: false },
      { external_id: 'JIRA', prior_number: null, generate: true },
      { external_id: 'FRESH', prior_number: null, generate: false },
    ]);
    const demand = await issuesUpTo([projectLookup(), issuePlacement('manual')], 'SELECT project_key, existing_id, gen, top FROM demand ORDER BY project_key', inputs);
    expect(demand).to.deep.equal([
      { project_key: 'acme/web', existing_id: web, gen: 3, top: 9 },
      { project_key: 'new/one', existing_id: null, gen: 0, top: 2 },
    ]);
  });

  it('issueCounters: moves an existing counter past the explicit numbers and the generated ones; a new project starts there', async () => {
    const web = await project(a, 'acme/web', 4);
    const steps = [projectLookup(), issuePlacement('manual'), issueCounters()];
    const inputs = [issue({ externalId: 'N1' }), issue({ externalId: 'E', number: 9 }), issue({ externalId: 'N2' }), issue({ externalId: 'F', projectKey: 'new/one' })];
    const rows = await issuesUpTo(steps, 'SELECT project_key, id, base FROM project ORDER BY project_key', inputs);
    expect(rows[0]).to.deep.equal({ project_key: 'acme/web', id: web, base: 9 });
    expect(rows[1]).to.include({ project_key: 'new/one', base: 0 });
    const { rows: seqs } = await client.query('SELECT project_key, issue_seq FROM projects WHERE tenant_id = $1 ORDER BY project_key', [a]);
    expect(seqs).to.deep.equal([{ project_key: 'acme/web', issue_seq: 11 }, { project_key: 'new/one', issue_seq: 1 }]);
  });

  it('issueCounters: leaves a counter alone when nothing is generated and no explicit number passes it', async () => {
    const web = await project(a, 'acme/web', 12);
    await storedIssue(a, web, 'KEPT', 5);
    const rows = await issuesUpTo([projectLookup(), issuePlacement('manual'), issueCounters()], 'SELECT (SELECT count(*)::int FROM bumped) AS bumped, (SELECT count(*)::int FROM locked_projects) AS locked', [
      issue({ externalId: 'KEPT' }), issue({ externalId: 'E', number: 3 }),
    ]);
    expect(rows).to.deep.equal([{ bumped: 0, locked: 0 }]);
  });

  it('issueNumbers: explicit kept, generated in request order after the base, an unmoved issue keeps its number', async () => {
    const web = await project(a, 'acme/web', 4);
    await storedIssue(a, web, 'KEPT', 3);
    const rows = await issuesUpTo([projectLookup(), issuePlacement('manual'), issueCounters(), issueNumbers()], 'SELECT external_id, final_number FROM numbered ORDER BY ord', [
      issue({ externalId: 'N1' }), issue({ externalId: 'KEPT' }), issue({ externalId: 'E', number: 6 }), issue({ externalId: 'N2' }),
    ]);
    expect(rows).to.deep.equal([
      { external_id: 'N1', final_number: 7 }, { external_id: 'KEPT', final_number: 3 }, { external_id: 'E', final_number: 6 }, { external_id: 'N2', final_number: 8 },
    ]);
  });

  it('issueRecords: writes under the given provider, reports created, keeps a stored createdAt when omitted', async () => {
    const steps = (provider: IssueProvider) => [projectLookup(), issuePlacement(provider), issueCounters(), issueNumbers(), issueRecords(provider)];
    const first = await issuesUpTo(steps('linear'), 'SELECT external_id, created FROM rec', [issue({ externalId: 'L', createdAt: '2026-01-02T03:04:05.000Z' } as Partial<IssueWebhook>)]);
    expect(first).to.deep.equal([{ external_id: 'L', created: true }]);
    const again = await issuesUpTo(steps('linear'), 'SELECT external_id, created FROM rec', [issue({ externalId: 'L', title: 'renamed' })]);
    expect(again).to.deep.equal([{ external_id: 'L', created: false }]);
    const { rows } = await client.query(`SELECT provider, number, title, created_at::text FROM issues WHERE tenant_id = $1`, [a]);
    expect(rows).to.deep.equal([{ provider: 'linear', number: 1, title: 'renamed', created_at: '2026-01-02 03:04:05+00' }]);
  });

  it('refuses a provider that is not one of ISSUE_PROVIDERS before any SQL is built', () => {
    expect(() => issueRecords("x'; drop table issues; --" as IssueProvider)).to.throw('unknown issue provider');
  });

  it('deploymentProjects and deploymentRecords: a missing project is created with counter 0; records upserted by externalId', async () => {
    const web = await project(a, 'acme/web', 5);
    const deployment = (over: Partial<DeploymentWebhook>): DeploymentWebhook =>
      ({ projectKey: 'acme/web', externalId: 'D', ref: 'main', sha: 'ABC1234', environment: 'production', status: 'success', ...over }) as DeploymentWebhook;
    const text = (tail: string, steps: string[][]) => statement([inputRows(DEPLOYMENT_KIND.columns), principalTenant(DEPLOYMENT_KIND.columns), ...steps], tail);
    const values = (inputs: DeploymentWebhook[]) => [...batchValues(DEPLOYMENT_KIND, inputs.map((input) => ({ keyHash: 'k', input }))), a];
    const inputs = [deployment({ externalId: 'D1' }), deployment({ externalId: 'D2', projectKey: 'new/one' })];
    const { rows: projects } = await client.query<{ project_key: string; id: string }>(text('SELECT project_key, id FROM project ORDER BY project_key', [projectLookup(), deploymentProjects()]), values(inputs));
    expect(projects.map((p) => [p.project_key, p.id === web])).to.deep.equal([['acme/web', true], ['new/one', false]]);
    const { rows: seqs } = await client.query('SELECT project_key, issue_seq FROM projects WHERE tenant_id = $1 ORDER BY project_key', [a]);
    expect(seqs).to.deep.equal([{ project_key: 'acme/web', issue_seq: 5 }, { project_key: 'new/one', issue_seq: 0 }]);
    const { rows: recs } = await client.query(text('SELECT external_id, created FROM rec ORDER BY external_id', [projectLookup(), deploymentProjects(), deploymentRecords()]), values(inputs));
    expect(recs).to.deep.equal([{ external_id: 'D1', created: true }, { external_id: 'D2', created: true }]);
    const { rows: stored } = await client.query('SELECT external_id, sha FROM deployments WHERE tenant_id = $1 ORDER BY external_id', [a]);
    expect(stored).to.deep.equal([{ external_id: 'D1', sha: 'abc1234' }, { external_id: 'D2', sha: 'abc1234' }]);
  });

  it('deploymentProjects: two spellings of one new key in a batch make one project; the second request is left to run again, and then finds it', async () => {
    const deployment = (externalId: string, projectKey: string): DeploymentWebhook =>
      ({ projectKey, externalId, ref: 'main', sha: 'abc1234', environment: 'production', status: 'success' }) as DeploymentWebhook;
    const text = statement([inputRows(DEPLOYMENT_KIND.columns), principalTenant(DEPLOYMENT_KIND.columns), projectLookup(), deploymentProjects(), deploymentRecords()], 'SELECT external_id FROM rec ORDER BY external_id');
    const run = async (inputs: DeploymentWebhook[]) => (await client.query(text, [...batchValues(DEPLOYMENT_KIND, inputs.map((input) => ({ keyHash: 'k', input }))), a])).rows;
    expect(await run([deployment('D1', 'Acme/New'), deployment('D2', 'acme/new')])).to.have.length(1);
    expect(await run([deployment('D2', 'acme/new')])).to.deep.equal([{ external_id: 'D2' }]);
    const { rows } = await client.query('SELECT p.project_key, count(d.id)::int AS deployments FROM projects p JOIN deployments d ON d.project_id = p.id WHERE p.tenant_id = $1 GROUP BY 1', [a]);
    expect(rows).to.have.length(1);
    expect(rows[0].deployments).to.equal(2);
  });
});
