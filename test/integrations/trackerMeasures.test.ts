/**
 * Synced issues count exactly as webhook issues do: one tenant sends three issues and a deployment
 * through the webhook API, another gets the same deployment by webhook and the same issues from
 * (fake) Jira mapped onto the same project; every issue and DORA measure comes out the same.
 */
import { expect } from 'chai';
import { buildTenant, dbFor, type BuiltTenant } from '../helpers/factories.js';
import type { TestServer } from '../helpers/server.js';
import { serverWithFakeJira, type FakeJira } from './fakes/fakeJira.js';
import { connectThroughVendor, runSync } from './trackerHelpers.js';

describe('issue tracker: synced issues in the measures', function () {
  this.timeout(120_000);
  let jira: FakeJira;
  let api: TestServer;
  let byWebhook: BuiltTenant;
  let byJira: BuiltTenant;

  before(async () => {
    ({ jira, api } = await serverWithFakeJira());
    byWebhook = await buildTenant(api.databaseUrl);
    byJira = await buildTenant(api.databaseUrl);
  });
  after(async () => {
    await api?.close();
    await jira?.close();
  });

  it('issues_closed, lead time, incidents (MTTR, the causing deployment) and change failure rate are the same', async () => {
    const deployment = { projectKey: 'acme/api', externalId: 'deploy-1', ref: 'main', sha: 'abcdef1', environment: 'production', status: 'success', createdAt: '2026-09-10T09:00:00Z' };
    for (const t of [byWebhook, byJira]) expect((await api.as(t.owner.apiKey).post('/api/webhooks/v1/deployments', deployment)).status).to.be.oneOf([200, 201]);
    const webhookIssues = [
      { projectKey: 'acme/api', externalId: 'b-1', title: 'Crash', type: 'bug', state: 'closed', createdAt: '2026-09-01T00:00:00Z', closedAt: '2026-09-03T00:00:00Z' },
      { projectKey: 'acme/api', externalId: 'i-1', title: 'Outage', type: 'incident', state: 'closed', createdAt: '2026-09-10T10:00:00Z', closedAt: '2026-09-10T14:00:00Z' },
      { projectKey: 'acme/api', externalId: 's-1', title: 'Feature', type: 'feature', state: 'open', createdAt: '2026-09-05T00:00:00Z' },
    ];
    for (const issue of webhookIssues) expect((await api.as(byWebhook.owner.apiKey).post('/api/webhooks/v1/issues', issue)).status).to.equal(201);

    const recent = new Date().toISOString();
    const done = { name: 'Done', statusCategory: { key: 'done' } };
    jira.issues = [
      jira.issue(1, { issuetype: { name: 'Bug' }, status: done, created: '2026-09-01T00:00:00.000+0000', resolutiondate: '2026-09-03T00:00:00.000+0000', updated: recent }),
      jira.issue(2, { issuetype: { name: 'Incident' }, status: done, created: '2026-09-10T10:00:00.000+0000', resolutiondate: '2026-09-10T14:00:00.000+0000', updated: recent }),
      jira.issue(3, { issuetype: { name: 'Story' }, created: '2026-09-05T00:00:00.000+0000', updated: recent }),
    ];
    await connectThroughVendor(api.as(byJira.owner.apiKey), 'jira');
    const { rows } = await dbFor(api.databaseUrl).pool.query('select id from integration_connections where tenant_id = $1', [byJira.tenantId]);
    const connectionId = rows[0].id as string;
    await api.as(byJira.owner.apiKey).patch(`/api/integrations/jira/connections/${connectionId}`, { mapping: { projects: { ENG: 'acme/api' } } });
    await runSync(api.running.app, { tenantId: byJira.tenantId, connectionId, kind: 'jira', mode: 'backfill' });

    const query = {
      measures: ['issues.issues_closed', 'issues.issue_lead_time_p50_seconds', 'incidents.incidents_restored', 'incidents.mttr_p50_seconds', 'deployments.production_deploys', 'deployments.change_failure_rate'],
      timeDimensions: [{ dimension: 'issues.closed_at', granularity: 'month', dateRange: ['2026-09-01', '2026-09-30'] }],
    };
    const load = async (t: BuiltTenant) => {
      const answers = [];
      for (const measures of [query.measures.slice(0, 2), query.measures.slice(2, 4), query.measures.slice(4)]) {
        const cube = measures[0]!.split('.')[0];
        const res = await api.as(t.owner.apiKey).post('/cubejs-api/v1/load', { query: { measures, timeDimensions: [{ ...query.timeDimensions[0], dimension: `${cube}.${cube === 'issues' ? 'closed_at' : cube === 'incidents' ? 'closed_at' : 'created_at'}` }] } });
        expect(res.status).to.equal(200);
        answers.push(res.body.data);
      }
      return answers;
    };
    const fromWebhook = await load(byWebhook);
    const fromJira = await load(byJira);
    expect(fromJira).to.deep.equal(fromWebhook);
    expect(fromWebhook.map((rowsOf: Record<string, unknown>[]) => Object.fromEntries(Object.entries(rowsOf[0]!).filter(([k]) => !k.includes('closed_at') && !k.includes('created_at'))))).to.deep.equal([
      { 'issues.issues_closed': '2', 'issues.issue_lead_time_p50_seconds': String((2 * 86400 + 4 * 3600) / 2) },
      { 'incidents.incidents_restored': '1', 'incidents.mttr_p50_seconds': String(4 * 3600) },
      { 'deployments.production_deploys': '1', 'deployments.change_failure_rate': '1' },
    ]);
    // The same externalId from two sources never collides: provider keeps them apart.
    const providers = await dbFor(api.databaseUrl).pool.query(`select provider, count(*)::int as n from issues where tenant_id = $1 group by provider`, [byJira.tenantId]);
    expect(providers.rows).to.deep.equal([{ provider: 'jira', n: 3 }]);
  });
});
