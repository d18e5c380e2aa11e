/**
 * Jira Cloud end to end against the fake Jira: connect (state, sealed tokens), a 2,000-issue
 * backfill over 20 pages with a 429 in the middle and a worker dying after page 7, webhooks
 * (update, delete, refused signatures), a revoked grant, disconnect, and tenant isolation.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'chai';
import { TRACKERS_SWEEP, trackersSyncDue } from '../../src/integrations/trackers/dueJob.js';
import { buildMember, buildTenant, dbFor, type BuiltTenant } from '../helpers/factories.js';
import { testServer, type TestServer } from '../helpers/server.js';
import { serverWithFakeJira, type FakeJira } from './fakes/fakeJira.js';
import { connectThroughVendor, runSync } from './trackerHelpers.js';

const ADMIN = 'admin-secret-for-the-tracker-tests-0123456789';
const staleCounts = async (api: TestServer) => (await api.with({ 'x-admin-secret': ADMIN }).get('/api/config-report')).body.data.staleIntegrations;

describe('issue tracker: Jira Cloud', function () {
  this.timeout(120_000);
  let jira: FakeJira;
  let api: TestServer;
  let a: BuiltTenant;
  let b: BuiltTenant;
  let connectionId: string;
  const q = (sql: string, params: unknown[] = []) => dbFor(api.databaseUrl).pool.query(sql, params);
  /** Path and query of the dynamic webhook the sync registered at the fake Jira (site and key). */
  const registeredPath = () => {
    const url = new URL(jira.webhooks[0]!.url);
    return `${url.pathname}${url.search}`;
  };

  before(async () => {
    ({ jira, api } = await serverWithFakeJira({ ADMIN_SECRET: ADMIN }));
    a = await buildTenant(api.databaseUrl);
    b = await buildTenant(api.databaseUrl);
  });
  after(async () => {
    await api?.close();
    await jira?.close();
  });

  it('connect: the owner is sent to Jira with a signed state; the callback stores one connection per site with sealed tokens and enqueues its backfill', async () => {
    const { start, location, authorize } = await connectThroughVendor(api.as(a.owner.apiKey), 'jira');
    expect(start).to.equal(302);
    expect(`${authorize.origin}${authorize.pathname}`).to.equal(`${jira.url}/authorize`);
    expect(authorize.searchParams.get('scope')).to.equal('read:jira-work read:jira-user manage:jira-webhook offline_access');
    expect(authorize.searchParams.get('audience')).to.equal('api.atlassian.com');
    expect(location).to.equal(`${api.baseUrl}/app/settings/integrations?tracker=jira&result=connected`);
    const { rows } = await q('select * from integration_connections where tenant_id = $1', [a.tenantId]);
    expect(rows.map((r) => [r.kind, r.external_id, r.display_name, r.state])).to.deep.equal([['jira', jira.cloudId, 'Acme Jira', 'active']]);
    connectionId = rows[0].id;
    const stored = JSON.stringify(rows[0]);
    for (const token of [...jira.grants.access.keys()]) expect(stored).not.to.contain(token);
    expect(stored).not.to.match(/access-\d|refresh-\d/);
    const jobs = await q(`select data from pgboss.job where name = 'trackers.sync'`);
    expect(jobs.rows.map((j) => j.data)).to.deep.equal([{ tenantId: a.tenantId, connectionId, kind: 'jira', mode: 'backfill' }]);
    const overview = await api.as(a.owner.apiKey).get('/api/integrations/trackers');
    expect(overview.status).to.equal(200);
    const shown = overview.body.data.jira.connections[0];
    expect([shown.id, shown.state, shown.settings.backfillMonths, shown.settings.siteUrl]).to.deep.equal([connectionId, 'active', 12, jira.siteUrl]);
    expect(JSON.stringify(overview.body)).not.to.match(/access-\d|refresh-\d|Sealed/);
  });

  it('refuses a callback whose state is missing, forged, or another owner’s; a member cannot connect', async () => {
    const start = await api.as(a.owner.apiKey).get('/api/integrations/jira/connect');
    const state = new URL(start.headers.get('location')!).searchParams.get('state')!;
    const forbidden = { error: { code: 'forbidden', message: 'This connect request expired or was started by someone else; press Connect again' } };
    expect((await api.as(a.owner.apiKey).get('/api/integrations/jira/callback?code=x')).body).to.deep.equal(forbidden);
    expect((await api.as(a.owner.apiKey).get(`/api/integrations/jira/callback?code=x&state=${state}x`)).status).to.equal(403);
    const other = await api.as(b.owner.apiKey).get(`/api/integrations/jira/callback?code=x&state=${state}`);
    expect([other.status, other.body]).to.deep.equal([403, forbidden]);
    const member = await buildMember(api.databaseUrl, a.tenantId);
    expect((await api.as(member.apiKey).get('/api/integrations/jira/connect')).status).to.equal(403);
    jira.deny = true;
    expect((await connectThroughVendor(api.as(b.owner.apiKey), 'jira')).location).to.equal(`${api.baseUrl}/app/settings/integrations?tracker=jira&result=denied`);
    jira.deny = false;
  });

  it('backfills 2,000 issues over 20 pages, waits out a 429, and resumes after the worker dies at page 7 without fetching those pages again', async () => {
    jira.issues = Array.from({ length: 2000 }, (_, i) => jira.issue(i + 1));
    jira.searches = 0;
    jira.limitAt = new Set([12]);
    const payload = { tenantId: a.tenantId, connectionId, kind: 'jira' as const, mode: 'backfill' as const };
    const app = api.running.app;
    let pages = 0;
    const crash = await runSync(app, payload, { onProgress: () => { if (++pages === 7) throw new Error('worker killed'); } }).catch((e: Error) => e);
    expect((crash as Error).message).to.equal('worker killed');
    expect((await q(`select count(*)::int as n from issues where tenant_id = $1 and provider = 'jira'`, [a.tenantId])).rows[0].n).to.equal(700);
    const started = Date.now();
    const resumed = await runSync(app, payload, { jobId: (await q('select cursor_job_id from tracker_syncs where connection_id = $1', [connectionId])).rows[0].cursor_job_id });
    expect(Date.now() - started).to.be.at.least(1000);
    expect(jira.searches).to.equal(7 + 13 + 1);
    expect(jira.rateLimited).to.equal(1);
    expect(resumed.events.filter((e) => e.kind === 'job.progress' && e.done !== undefined).map((e) => (e as { done: number }).done)).to.deep.equal(Array.from({ length: 13 }, (_, i) => 800 + i * 100));
    const counts = await q(`select count(*)::int as n, count(distinct number)::int as numbers, min(project_id::text) = max(project_id::text) as one_project from issues where tenant_id = $1 and provider = 'jira'`, [a.tenantId]);
    expect(counts.rows[0]).to.deep.equal({ n: 2000, numbers: 2000, one_project: true });
    const one = (await q(`select i.external_id, i.title, i.type, i.state, i.body, i.url, i.author_username, i.metadata, p.project_key, p.provider from issues i join projects p on p.id = i.project_id where i.tenant_id = $1 and i.external_id = $2`, [a.tenantId, `${jira.cloudId}:10042`])).rows[0];
    expect(one).to.deep.equal({
      external_id: `${jira.cloudId}:10042`, title: 'Issue 42', type: 'feature', state: 'open', body: 'Body 42', url: 'https://acme.atlassian.net/browse/ENG-42',
      author_username: 'ada@example.com', metadata: { trackerKey: 'ENG-42', trackerProject: 'ENG', trackerStatus: 'To Do', trackerType: 'Story' }, project_key: 'jira/ENG', provider: 'manual',
    });
    const sync = (await q('select lease_job_id, cursor, updated_since from tracker_syncs where connection_id = $1', [connectionId])).rows[0];
    expect([sync.lease_job_id, sync.cursor, sync.updated_since !== null]).to.deep.equal([null, null, true]);
    expect((await q('select last_sync_at is not null as synced, last_error from integration_connections where id = $1', [connectionId])).rows[0]).to.deep.equal({ synced: true, last_error: null });
    // The site's key rides beside the site: the app-wide token alone does not say which site sent it.
    expect(jira.webhooks).to.have.length(1);
    expect(jira.webhooks[0]!.url).to.match(new RegExp(`^${api.baseUrl}/api/integrations/jira/webhook\\?site=${jira.cloudId}&key=[A-Za-z0-9_-]{43}$`));
  });

  it('webhooks: a signed update changes the issue, a delete removes it from the measures and keeps a mark; bad or expired signatures are 401', async () => {
    const hook = (body: unknown, authorization: string) => api.post(registeredPath(), JSON.stringify(body), { authorization, 'content-type': 'application/json', 'x-atlassian-webhook-identifier': randomUUID() });
    const issue = jira.issue(42, { summary: 'Renamed at Jira', status: { name: 'Done', statusCategory: { key: 'done' } }, resolutiondate: '2026-11-02T10:00:00.000+0000', issuetype: { name: 'Bug' } });
    const updated = await hook({ webhookEvent: 'jira:issue_updated', issue }, await jira.deliveryAuthorization());
    expect([updated.status, updated.body]).to.deep.equal([200, { data: { applied: 1, event: 'jira:issue_updated' }, meta: {} }]);
    const row = (await q(`select title, type, state, closed_at from issues where tenant_id = $1 and external_id = $2`, [a.tenantId, `${jira.cloudId}:10042`])).rows[0];
    expect(row).to.deep.equal({ title: 'Renamed at Jira', type: 'bug', state: 'closed', closed_at: new Date('2026-11-02T10:00:00Z') });

    expect((await hook({ webhookEvent: 'jira:issue_updated', issue }, await jira.deliveryAuthorization('wrong-secret'))).body).to.deep.equal({ error: { code: 'unauthorized', message: 'Invalid webhook signature' } });
    expect((await hook({ webhookEvent: 'jira:issue_updated', issue }, await jira.deliveryAuthorization(undefined, -120))).status).to.equal(401);
    expect((await hook({ webhookEvent: 'jira:issue_updated', issue }, '')).status).to.equal(401);
    // Another algorithm than the documented HS256, even under the right secret: refused.
    expect((await hook({ webhookEvent: 'jira:issue_updated', issue }, await jira.deliveryAuthorization(undefined, 300, 0, 'HS512'))).status).to.equal(401);
    // Without exp the replay window is iat: ten minutes; a token with neither has no window.
    expect((await hook({ webhookEvent: 'jira:issue_updated', issue }, await jira.deliveryAuthorization(undefined, null, 60))).status).to.equal(200);
    expect((await hook({ webhookEvent: 'jira:issue_updated', issue }, await jira.deliveryAuthorization(undefined, null, 11 * 60))).status).to.equal(401);
    expect((await hook({ webhookEvent: 'jira:issue_updated', issue }, await jira.deliveryAuthorization(undefined, null, -5 * 60))).status).to.equal(401);
    expect((await hook({ webhookEvent: 'jira:issue_updated', issue }, await jira.deliveryAuthorization(undefined, null, null))).status).to.equal(401);

    const deleted = await hook({ webhookEvent: 'jira:issue_deleted', issue: { id: '10042', key: 'ENG-42' } }, await jira.deliveryAuthorization());
    expect(deleted.body.data).to.deep.equal({ applied: 1, event: 'jira:issue_deleted' });
    expect((await q(`select count(*)::int as n from issues where tenant_id = $1 and external_id = $2`, [a.tenantId, `${jira.cloudId}:10042`])).rows[0].n).to.equal(0);
    expect((await q(`select provider, external_id from tracker_deleted_issues where tenant_id = $1`, [a.tenantId])).rows).to.deep.equal([{ provider: 'jira', external_id: `${jira.cloudId}:10042` }]);
    // A later sync page that still has the issue does not bring it back.
    await runSync(api.running.app, { tenantId: a.tenantId, connectionId, kind: 'jira', mode: 'incremental' });
    expect((await q(`select count(*)::int as n from issues where tenant_id = $1 and provider = 'jira'`, [a.tenantId])).rows[0].n).to.equal(1999);
  });

  it('webhooks are bound to their site and taken once: a token for site A is refused on ?site=B, a replayed identifier is applied once, admin webhooks are signed with the connection\'s secret', async () => {
    const issue = (summary: string) => jira.issue(7, { summary });
    const title = async () => (await q(`select title from issues where tenant_id = $1 and external_id = $2`, [a.tenantId, `${jira.cloudId}:10007`])).rows[0].title;
    const send = (path: string, body: unknown, headers: Record<string, string>) => api.post(path, JSON.stringify(body), { 'content-type': 'application/json', ...headers });
    const refused = { error: { code: 'unauthorized', message: 'Invalid webhook signature' } };
    const token = await jira.deliveryAuthorization();
    const registered = new URL(jira.webhooks[0]!.url);
    const key = registered.searchParams.get('key')!;

    // A genuine token, but the URL of another site (with site A's key, or none): refused.
    for (const path of [`/api/integrations/jira/webhook?site=other-site&key=${key}`, '/api/integrations/jira/webhook?site=other-site', `/api/integrations/jira/webhook?site=${jira.cloudId}`]) {
      const other = await send(path, { webhookEvent: 'jira:issue_updated', issue: issue('Forged') }, { authorization: token, 'x-atlassian-webhook-identifier': randomUUID() });
      expect([other.status, other.body], path).to.deep.equal([401, refused]);
    }
    expect(await title()).not.to.equal('Forged');

    // The same delivery twice (a replay, or Atlassian's retry of one we took): applied once.
    const identifier = randomUUID();
    const first = await send(registeredPath(), { webhookEvent: 'jira:issue_updated', issue: issue('Once') }, { authorization: token, 'x-atlassian-webhook-identifier': identifier });
    expect(first.body.data).to.deep.equal({ applied: 1, event: 'jira:issue_updated' });
    await q(`update issues set title = 'Changed since' where tenant_id = $1 and external_id = $2`, [a.tenantId, `${jira.cloudId}:10007`]);
    const replay = await send(registeredPath(), { webhookEvent: 'jira:issue_updated', issue: issue('Replayed') }, { authorization: token, 'x-atlassian-webhook-identifier': identifier });
    expect([replay.status, replay.body.data]).to.deep.equal([200, { applied: 0, event: 'jira:issue_updated', duplicate: true }]);
    expect(await title()).to.equal('Changed since');
    const unnamed = await send(registeredPath(), { webhookEvent: 'jira:issue_updated', issue: issue('No identifier') }, { authorization: token });
    expect([unnamed.status, unnamed.body.error.details]).to.deep.equal([400, [{ path: 'X-Atlassian-Webhook-Identifier', message: 'Required' }]]);

    // Admin webhooks: the owner reads the URL and the connection's secret; members may not.
    const admin = await api.as(a.owner.apiKey).get(`/api/integrations/jira/connections/${connectionId}/admin-webhook`);
    expect(admin.status).to.equal(200);
    expect(admin.body.data.url).to.equal(`${api.baseUrl}/api/integrations/jira/webhook?site=${jira.cloudId}`);
    expect(admin.body.data.secret).to.match(/^[A-Za-z0-9_-]{43}$/);
    expect((await api.as(b.owner.apiKey).get(`/api/integrations/jira/connections/${connectionId}/admin-webhook`)).status).to.equal(404);
    const adminPath = new URL(admin.body.data.url).pathname + new URL(admin.body.data.url).search;
    const raw = JSON.stringify({ webhookEvent: 'jira:issue_updated', issue: issue('Signed by the admin webhook') });
    const signed = await api.post(adminPath, raw, { 'content-type': 'application/json', 'x-hub-signature': jira.hubSignature(raw, admin.body.data.secret), 'x-atlassian-webhook-identifier': randomUUID() });
    expect([signed.status, signed.body.data]).to.deep.equal([200, { applied: 1, event: 'jira:issue_updated' }]);
    expect(await title()).to.equal('Signed by the admin webhook');
    // A wrong secret (the app's client secret, another connection's), or the body changed after signing: 401.
    const tampered = raw.replace('Signed by the admin webhook', 'Tampered');
    for (const [body, signature] of [[raw, jira.hubSignature(raw)], [tampered, jira.hubSignature(raw, admin.body.data.secret)], [raw, `sha256=${'0'.repeat(64)}`]] as const) {
      const bad = await api.post(adminPath, body, { 'content-type': 'application/json', 'x-hub-signature': signature, 'x-atlassian-webhook-identifier': randomUUID() });
      expect([bad.status, bad.body]).to.deep.equal([401, refused]);
    }
    expect(await title()).to.equal('Signed by the admin webhook');
  });

  it('the id sweep marks an issue deleted at Jira whose delete webhook never came, as the webhook would; one the listing missed but Jira still has stays', async () => {
    const rowsOf = async (ids: string[]) => (await q(`select external_id from issues where tenant_id = $1 and external_id = any($2) order by external_id`, [a.tenantId, ids.map((id) => `${jira.cloudId}:${id}`)])).rows.map((r) => r.external_id);
    expect(await rowsOf(['10020', '10021', '10022'])).to.have.length(3);
    // Deleted at Jira, no webhook sent; 10022 exists but a shifted page leaves it out of the listing.
    jira.issues = jira.issues.filter((i) => i.id !== '10020' && i.id !== '10021');
    jira.unlisted.add('10022');
    await runSync(api.running.app, { tenantId: a.tenantId, connectionId, kind: 'jira', mode: 'incremental' });
    expect(await rowsOf(['10020', '10021', '10022']), 'the incremental pages cannot see a delete').to.have.length(3);
    expect(jira.idListings).to.equal(0);

    const run = await runSync(api.running.app, { tenantId: a.tenantId, connectionId, kind: 'jira', mode: 'sweep' });
    expect((run.result as { state: unknown }).state).to.deep.include({ outcome: 'synced', swept: { listed: 1997, missing: 3, deleted: 2 } });
    expect(jira.issueLookups, 'each id missing from the listing is confirmed by id').to.equal(3);
    expect(await rowsOf(['10020', '10021', '10022'])).to.deep.equal([`${jira.cloudId}:10022`]);
    expect((await q(`select external_id from tracker_deleted_issues where tenant_id = $1 order by external_id`, [a.tenantId])).rows.map((r) => r.external_id))
      .to.deep.equal([`${jira.cloudId}:10020`, `${jira.cloudId}:10021`, `${jira.cloudId}:10042`]);
    expect((await q(`select count(*)::int as n from issues where tenant_id = $1 and provider = 'jira'`, [a.tenantId])).rows[0].n).to.equal(1997);
    expect((await q('select last_error from integration_connections where id = $1', [connectionId])).rows[0].last_error).to.equal(null);
    // A second sweep finds nothing more to do.
    const again = await runSync(api.running.app, { tenantId: a.tenantId, connectionId, kind: 'jira', mode: 'sweep' });
    expect((again.result as { state: { swept: unknown } }).state.swept).to.deep.equal({ listed: 1997, missing: 1, deleted: 0 });
    jira.unlisted.clear();
  });

  it('refreshes an expired access token (Jira rotates the refresh token), and marks the connection needs-reconnect once the grant is revoked', async () => {
    jira.grants.expireAll();
    const before = jira.grants.refreshes;
    jira.issues = [jira.issue(5000, { updated: new Date().toISOString() })];
    await runSync(api.running.app, { tenantId: a.tenantId, connectionId, kind: 'jira', mode: 'incremental' });
    expect(jira.grants.refreshes).to.equal(before + 1);
    expect((await q(`select count(*)::int as n from issues where tenant_id = $1 and external_id = $2`, [a.tenantId, `${jira.cloudId}:15000`])).rows[0].n).to.equal(1);
    jira.grants.revoked = true;
    jira.grants.expireAll();
    const run = await runSync(api.running.app, { tenantId: a.tenantId, connectionId, kind: 'jira', mode: 'incremental' });
    expect((run.result as { state: { outcome: string } }).state.outcome).to.equal('needs reconnect');
    const shown = (await api.as(a.owner.apiKey).get('/api/integrations/trackers')).body.data.jira.connections[0];
    expect([shown.state, shown.stateDetail]).to.deep.equal(['needs_reconnect', 'Jira refused the grant (expired or revoked): an owner must connect again.']);
    expect(shown.lastError).to.match(/refused/);
    expect(await staleCounts(api)).to.deep.equal({ codehost_installation: 0, jira_connection: 1, linear_connection: 0 });
    // Reconnecting repairs it.
    jira.grants.revoked = false;
    await connectThroughVendor(api.as(a.owner.apiKey), 'jira');
    expect((await api.as(a.owner.apiKey).get('/api/integrations/trackers')).body.data.jira.connections[0].state).to.equal('active');
    expect(await staleCounts(api)).to.deep.equal({ codehost_installation: 0, jira_connection: 0, linear_connection: 0 });
  });

  it('the 30-minute sweep enqueues one incremental sync per active connection, with its tenant', async () => {
    await q(`delete from pgboss.job where name = 'trackers.sync'`);
    const ctx = { app: api.running.app, job: { id: randomUUID(), name: 'trackers.sync-due', retryCount: 0 }, signal: new AbortController().signal, instanceId: 'test', progress: async () => {} };
    expect(await trackersSyncDue.run(ctx, {} as never)).to.deep.equal({ enqueued: 1 });
    expect((await q(`select data from pgboss.job where name = 'trackers.sync'`)).rows.map((r) => r.data)).to.deep.equal([{ tenantId: a.tenantId, connectionId, kind: 'jira', mode: 'incremental' }]);
    // The 6-hourly schedule on the same queue enqueues sweeps.
    await q(`delete from pgboss.job where name = 'trackers.sync'`);
    expect(await trackersSyncDue.run(ctx, { schedule: TRACKERS_SWEEP, windowStart: new Date().toISOString() })).to.deep.equal({ enqueued: 1 });
    expect((await q(`select data from pgboss.job where name = 'trackers.sync'`)).rows.map((r) => r.data)).to.deep.equal([{ tenantId: a.tenantId, connectionId, kind: 'jira', mode: 'sweep' }]);
  });

  it('keeps tenants apart: B cannot see, map, backfill or disconnect A’s connection, nor see its issues', async () => {
    const asB = api.as(b.owner.apiKey);
    expect((await asB.get('/api/integrations/trackers')).body.data.jira.connections).to.deep.equal([]);
    const notFound = { error: { code: 'not_found', message: 'Connection not found' } };
    expect([(await asB.patch(`/api/integrations/jira/connections/${connectionId}`, { backfillMonths: 3 })).status, (await asB.patch(`/api/integrations/jira/connections/${connectionId}`, { backfillMonths: 3 })).body]).to.deep.equal([404, notFound]);
    expect((await asB.post(`/api/integrations/jira/connections/${connectionId}/backfill`)).status).to.equal(404);
    expect((await asB.delete(`/api/integrations/jira?connection=${connectionId}`)).status).to.equal(404);
    expect((await asB.delete('/api/integrations/jira')).body.data).to.deep.equal({ removed: 0, revoked: 0 });
    expect((await q('select count(*)::int as n from integration_connections where id = $1', [connectionId])).rows[0].n).to.equal(1);
    const cube = await asB.post('/cubejs-api/v1/load', { query: { measures: ['issues.issues_closed'] } });
    expect(cube.body.data).to.deep.equal([{ 'issues.issues_closed': '0' }]);
    const own = await api.as(a.owner.apiKey).post('/cubejs-api/v1/load', { query: { measures: ['issues.issues_closed'] } });
    expect(own.body.data).to.deep.equal([{ 'issues.issues_closed': '0' }]);
  });

  it('maps projects, types and states as the owner chose (a bad mapping is 400), then disconnects: webhooks removed, tokens gone, issues kept', async () => {
    const bad = await api.as(a.owner.apiKey).patch(`/api/integrations/jira/connections/${connectionId}`, { mapping: { projects: { ENG: 'not a key' }, types: { Story: 'epic' } } });
    expect(bad.status).to.equal(400);
    expect(bad.body.error.details.map((d: { path: string }) => d.path)).to.deep.equal(['mapping.projects.ENG', 'mapping.types.Story']);
    // Type and status names are looked up without case: two that differ only in case are refused where the second is; an empty name says so.
    const twice = await api.as(a.owner.apiKey).patch(`/api/integrations/jira/connections/${connectionId}`, { mapping: { types: { Bug: 'bug' }, states: { 'In Review': 'in_progress', 'in review': 'closed', ' ': 'open' } } });
    expect([twice.status, twice.body.error.details]).to.deep.equal([400, [
      { path: 'mapping.states. ', message: 'Enter a name' },
    ]]);
    const cased = await api.as(a.owner.apiKey).patch(`/api/integrations/jira/connections/${connectionId}`, { mapping: { types: { Bug: 'bug' }, states: { 'In Review': 'in_progress', 'in review': 'closed' } } });
    expect([cased.status, cased.body.error.details]).to.deep.equal([400, [
      { path: 'mapping.states.in review', message: 'Already mapped as “In Review”: names are compared without case' },
    ]]);
    const ok = await api.as(a.owner.apiKey).patch(`/api/integrations/jira/connections/${connectionId}`, { mapping: { projects: { ENG: 'acme/api' }, types: { Story: 'chore' }, states: { 'To Do': 'in_progress' } } });
    expect(ok.status).to.equal(200);
    expect(ok.body.data.settings.mapping).to.deep.equal({ projects: { ENG: 'acme/api' }, types: { Story: 'chore' }, states: { 'To Do': 'in_progress' } });
    jira.issues = [jira.issue(7)];
    await runSync(api.running.app, { tenantId: a.tenantId, connectionId, kind: 'jira', mode: 'backfill' });
    const row = (await q(`select i.type, i.state, p.project_key from issues i join projects p on p.id = i.project_id where i.tenant_id = $1 and i.external_id = $2`, [a.tenantId, `${jira.cloudId}:10007`])).rows[0];
    expect(row).to.deep.equal({ type: 'chore', state: 'in_progress', project_key: 'acme/api' });
    expect(jira.webhooks.length).to.be.greaterThan(0);
    const gone = await api.as(a.owner.apiKey).delete('/api/integrations/jira');
    expect(gone.body.data).to.deep.equal({ removed: 1, revoked: 0 });
    expect(jira.webhooks).to.deep.equal([]);
    expect((await q('select count(*)::int as n from integration_connections where tenant_id = $1', [a.tenantId])).rows[0].n).to.equal(0);
    // 2,000 backfilled, one deleted by webhook, two by the sweep, one created later.
    expect((await q(`select count(*)::int as n from issues where tenant_id = $1 and provider = 'jira'`, [a.tenantId])).rows[0].n).to.equal(1998);
  });
});

describe('issue tracker: an unconfigured Jira', function () {
  this.timeout(60_000);
  it('answers 404 on every path of the tracker', async () => {
    const bare = await testServer();
    try {
      const t = await buildTenant(bare.databaseUrl);
      const notFound = { error: { code: 'not_found', message: 'Not found' } };
      for (const [method, path] of [['GET', '/api/integrations/jira/connect'], ['GET', '/api/integrations/jira/callback'], ['DELETE', '/api/integrations/jira'], ['POST', '/api/integrations/jira/webhook'], ['GET', '/api/integrations/linear/connect']] as const) {
        const res = await bare.as(t.owner.apiKey).request(method, path);
        expect([path, res.status, res.body]).to.deep.equal([path, 404, notFound]);
      }
      expect((await bare.as(t.owner.apiKey).get('/api/integrations/trackers')).body.data).to.deep.equal({ jira: { configured: false, callbackUrl: null, connections: [] }, linear: { configured: false, callbackUrl: null, connections: [] } });
    } finally {
      await bare.close();
    }
  });
});
