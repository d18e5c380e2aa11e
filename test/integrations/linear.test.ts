/**
 * Linear end to end against the fake Linear: connect (state, sealed tokens), a backfill over
 * GraphQL cursors with a 429 and trashed issues, signed webhooks (update, remove, forged, stale),
 * revocation on disconnect, and tenant isolation.
 */
import { expect } from 'chai';
import { buildTenant, dbFor, type BuiltTenant } from '../helpers/factories.js';
import { testServer, type TestServer } from '../helpers/server.js';
import { fakeLinear, type FakeLinear } from './fakes/fakeLinear.js';
import { connectThroughVendor, runSync } from './trackerHelpers.js';

describe('issue tracker: Linear', function () {
  this.timeout(120_000);
  let linear: FakeLinear;
  let api: TestServer;
  let a: BuiltTenant;
  let b: BuiltTenant;
  let connectionId: string;
  const q = (sql: string, params: unknown[] = []) => dbFor(api.databaseUrl).pool.query(sql, params);
  const hook = (body: string, signature: string) => api.post('/api/integrations/linear/webhook', body, { 'linear-signature': signature, 'content-type': 'application/json' });

  before(async () => {
    linear = await fakeLinear();
    api = await testServer({
      env: { TRACKER2_CLIENT_ID: linear.clientId, TRACKER2_CLIENT_SECRET: linear.clientSecret, LINEAR_AUTH_BASE_URL: linear.url, LINEAR_API_BASE_URL: linear.url, JOBS_WORKER_ENABLED: 'false' },
    });
    a = await buildTenant(api.databaseUrl);
    b = await buildTenant(api.databaseUrl);
  });
  after(async () => {
    await api?.close();
    await linear?.close();
  });

  it('connects: consent at Linear with our callback, one connection per workspace, tokens sealed', async () => {
    const { location, authorize } = await connectThroughVendor(api.as(a.owner.apiKey), 'linear');
    expect(`${authorize.origin}${authorize.pathname}`).to.equal(`${linear.url}/oauth/authorize`);
    expect([authorize.searchParams.get('redirect_uri'), authorize.searchParams.get('scope')]).to.deep.equal([`${api.baseUrl}/api/integrations/linear/callback`, 'read,admin']);
    expect(location).to.equal(`${api.baseUrl}/app/settings/integrations?tracker=linear&result=connected`);
    const { rows } = await q('select * from integration_connections where tenant_id = $1', [a.tenantId]);
    expect(rows.map((r) => [r.kind, r.external_id, r.display_name])).to.deep.equal([['linear', linear.organizationId, 'Acme Linear']]);
    connectionId = rows[0].id;
    for (const token of linear.grants.access.keys()) expect(JSON.stringify(rows[0])).not.to.contain(token);
  });

  it('backfills over GraphQL cursors, waits out a 429, drops trashed issues, and registers a signed webhook', async () => {
    const done = { name: 'Done', type: 'completed' };
    linear.issues = Array.from({ length: 250 }, (_, i) => linear.issue(i + 1));
    linear.issues[9] = linear.issue(10, { state: done, completedAt: '2026-10-02T08:00:00.000Z', labels: { nodes: [{ name: 'Bug' }] } });
    linear.issues[19] = linear.issue(20, { trashed: true });
    linear.queries = 0;
    linear.limitAt = new Set([2]);
    const run = await runSync(api.running.app, { tenantId: a.tenantId, connectionId, kind: 'linear', mode: 'backfill' });
    expect((run.result as { state: unknown }).state).to.deep.equal({ outcome: 'synced', written: 249 });
    expect(linear.queries).to.equal(3 + 1 + 1);
    expect((await q(`select count(*)::int as n from issues where tenant_id = $1 and provider = 'linear'`, [a.tenantId])).rows[0].n).to.equal(249);
    const ten = (await q(`select type, state, closed_at, labels, author_username, url from issues where tenant_id = $1 and external_id = $2`, [a.tenantId, linear.issue(10).id])).rows[0];
    expect(ten).to.deep.equal({ type: 'bug', state: 'closed', closed_at: new Date('2026-10-02T08:00:00Z'), labels: ['Bug'], author_username: 'grace@example.com', url: 'https://linear.app/acme/issue/LIN-10' });
    expect(linear.webhooks.map((w) => w.url)).to.deep.equal([`${api.baseUrl}/api/integrations/linear/webhook`]);
    expect(linear.webhooks[0]!.secret).to.have.length.greaterThan(30);
  });

  it('applies signed webhooks (update, remove) and refuses forged or stale ones', async () => {
    const issue = linear.issue(11, { title: 'Renamed in Linear', state: { name: 'In Progress', type: 'started' } });
    const data = { ...issue, labels: issue.labels.nodes };
    const update = linear.signed({ type: 'Issue', action: 'update', organizationId: linear.organizationId, data });
    const res = await hook(update.body, update.signature);
    expect([res.status, res.body]).to.deep.equal([200, { data: { applied: 1, event: 'Issue.update' }, meta: {} }]);
    expect((await q(`select title, state from issues where tenant_id = $1 and external_id = $2`, [a.tenantId, issue.id])).rows[0]).to.deep.equal({ title: 'Renamed in Linear', state: 'in_progress' });

    const forged = linear.signed({ type: 'Issue', action: 'update', organizationId: linear.organizationId, data: { ...data, title: 'Forged' } }, 'not-the-secret');
    expect((await hook(forged.body, forged.signature)).body).to.deep.equal({ error: { code: 'unauthorized', message: 'Invalid webhook signature' } });
    const stale = linear.signed({ type: 'Issue', action: 'update', organizationId: linear.organizationId, data: { ...data, title: 'Replayed' }, webhookTimestamp: Date.now() - 5 * 60_000 });
    expect((await hook(stale.body, stale.signature)).status).to.equal(401);
    expect((await hook(update.body, '')).status).to.equal(401);
    expect((await q(`select title from issues where tenant_id = $1 and external_id = $2`, [a.tenantId, issue.id])).rows[0].title).to.equal('Renamed in Linear');

    const remove = linear.signed({ type: 'Issue', action: 'remove', organizationId: linear.organizationId, data: { id: issue.id } });
    expect((await hook(remove.body, remove.signature)).body.data).to.deep.equal({ applied: 1, event: 'Issue.remove' });
    expect((await q(`select count(*)::int as n from issues where tenant_id = $1 and external_id = $2`, [a.tenantId, issue.id])).rows[0].n).to.equal(0);
  });

  it('an outage at Linear fails the sync (recorded, retried by the job system) and blocks nothing else: webhooks still apply', async () => {
    linear.down = true;
    const failed = await runSync(api.running.app, { tenantId: a.tenantId, connectionId, kind: 'linear', mode: 'incremental' }).catch((e: Error) => e);
    expect((failed as Error).name).to.equal('TrackerUnavailable');
    const shown = (await api.as(a.owner.apiKey).get('/api/integrations/trackers')).body.data.linear.connections[0];
    expect([shown.state, shown.lastError, shown.sync.running]).to.deep.equal(['active', 'Linear answered HTTP 503', true]);
    const issue = linear.issue(12, { title: 'Changed during the outage' });
    const update = linear.signed({ type: 'Issue', action: 'update', organizationId: linear.organizationId, data: { ...issue, labels: [] } });
    expect((await hook(update.body, update.signature)).status).to.equal(200);
    expect((await q(`select title from issues where tenant_id = $1 and external_id = $2`, [a.tenantId, issue.id])).rows[0].title).to.equal('Changed during the outage');
    linear.down = false;
    // The failed run's retries keep its lease; another run takes over once that lapses.
    await q(`update tracker_syncs set lease_until = now() - interval '1 second' where connection_id = $1`, [connectionId]);
    const retried = await runSync(api.running.app, { tenantId: a.tenantId, connectionId, kind: 'linear', mode: 'incremental' });
    expect((retried.result as { state: { outcome: string } }).state.outcome).to.equal('synced');
    expect((await api.as(a.owner.apiKey).get('/api/integrations/trackers')).body.data.linear.connections[0].lastError).to.equal(null);
  });

  it('keeps tenants apart, and disconnect revokes the grant at Linear and deletes the webhook and the tokens', async () => {
    const asB = api.as(b.owner.apiKey);
    expect((await asB.get('/api/integrations/trackers')).body.data.linear.connections).to.deep.equal([]);
    expect((await asB.delete(`/api/integrations/linear?connection=${connectionId}`)).status).to.equal(404);
    expect((await asB.post(`/api/integrations/linear/connections/${connectionId}/backfill`)).status).to.equal(404);
    expect((await q(`select count(*)::int as n from issues where tenant_id = $1`, [b.tenantId])).rows[0].n).to.equal(0);
    const gone = await api.as(a.owner.apiKey).delete(`/api/integrations/linear?connection=${connectionId}`);
    expect(gone.body.data).to.deep.equal({ removed: 1, revoked: 1 });
    expect([linear.revocations, linear.webhooks.length]).to.deep.equal([1, 0]);
    expect((await q('select count(*)::int as n from integration_connections where tenant_id = $1', [a.tenantId])).rows[0].n).to.equal(0);
    // With its connection gone, the workspace's deliveries are refused: nobody's secret signs them.
    const late = linear.signed({ type: 'Issue', action: 'update', organizationId: linear.organizationId, data: { id: 'x' } }, 'whatever');
    expect((await hook(late.body, late.signature)).status).to.equal(401);
  });
});
