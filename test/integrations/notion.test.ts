/**
 * Notion end to end against a fake Notion on loopback: connect (OAuth, token sealed), the parent
 * page, the monthly pages written once and rewritten (never duplicated), the daily fan-out that
 * publishes the closed month once, signed webhooks (refused without DOCS_WEBHOOK_SECRET) that
 * pause publishing, and a revoked grant marking the connection for reconnection.
 */
import { createHmac, randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { expect } from 'chai';
import { bossOver } from '../../src/jobs/boss.js';
import { NOTION_PUBLISH_JOB } from '../../src/integrations/notion/jobs.js';
import { buildSessionCookie, buildTenant, dbFor, type BuiltTenant } from '../helpers/factories.js';
import { testServer, type TestServer } from '../helpers/server.js';
import { seedFigures, type Seed } from './chatDocsSeed.js';
import { fakeNotion, type FakeNotion, type FakePage } from './fakes/notion.js';

const WEBHOOK_SECRET = 'secret_notion-verification-token';

function notionEnv(notion: FakeNotion, extra: Record<string, string> = {}): Record<string, string> {
  return { DOCS_CLIENT_ID: notion.clientId, DOCS_CLIENT_SECRET: notion.clientSecret, DOCS_WEBHOOK_SECRET: WEBHOOK_SECRET, NOTION_API_BASE_URL: notion.url, ...extra };
}

const sign = (body: string, secret = WEBHOOK_SECRET) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

describe('Notion (document workspace)', function () {
  this.timeout(90_000);
  let notion: FakeNotion;
  let api: TestServer;
  let a: BuiltTenant;
  let b: BuiltTenant;
  let seed: Seed;
  let parent: FakePage;
  let connectionId: string;

  const pool = () => dbFor(api.databaseUrl).pool;
  async function jobDone(id: string): Promise<any> {
    for (let i = 0; i < 300; i++) {
      const { rows } = await pool().query(`select state::text, output from pgboss.job where id = $1`, [id]);
      if (rows[0] && ['completed', 'failed'].includes(rows[0].state)) return rows[0];
      await delay(100);
    }
    throw new Error('job did not finish');
  }
  const status = async (tenant = a) => (await api.as(tenant.owner.apiKey).get('/api/integrations/notion')).body.data;
  // Every Notion event carries its id and the time it happened (a fresh one unless the test sets them).
  const webhook = (event: object, signature?: string) => {
    const body = JSON.stringify({ id: randomUUID(), timestamp: new Date().toISOString(), ...event });
    return api.post('/api/integrations/notion/webhook', body, { 'content-type': 'application/json', 'x-notion-signature': signature ?? sign(body) });
  };

  before(async () => {
    notion = await fakeNotion();
    api = await testServer({ env: notionEnv(notion) });
    a = await buildTenant(api.databaseUrl);
    b = await buildTenant(api.databaseUrl);
    seed = await seedFigures(pool(), a.tenantId);
    parent = notion.addPage('Delivery reports');
    notion.addPage('Team handbook');
  });
  after(async () => {
    await api?.close();
    await notion?.close();
  });

  it('switched off: connect, callback and webhook are 404; without DOCS_WEBHOOK_SECRET webhooks are refused with 503', async () => {
    const off = await testServer({ databaseUrl: api.databaseUrl });
    const noSecret = await testServer({ databaseUrl: api.databaseUrl, env: notionEnv(notion, { DOCS_WEBHOOK_SECRET: '' }) });
    try {
      const cookie = await buildSessionCookie(api.databaseUrl, a.owner.userId, a.tenantId);
      expect((await off.get('/api/integrations/notion/connect', { cookie })).status).to.equal(404);
      expect((await off.get('/api/integrations/notion/callback?code=x&state=y', { cookie })).status).to.equal(404);
      expect((await off.post('/api/integrations/notion/webhook', '{}', { 'content-type': 'application/json' })).status).to.equal(404);
      const body = JSON.stringify({ type: 'page.deleted', workspace_id: notion.workspace.id, entity: { id: parent.id, type: 'page' } });
      const refused = await noSecret.post('/api/integrations/notion/webhook', body, { 'content-type': 'application/json', 'x-notion-signature': sign(body) });
      expect(refused.status).to.equal(503);
      expect(refused.body).to.deep.equal({ error: { code: 'unavailable', message: 'Notion webhooks are refused: DOCS_WEBHOOK_SECRET is not set on this server' } });
      expect((await noSecret.as(a.owner.apiKey).get('/api/integrations/notion')).body.data).to.include({ enabled: true, webhooksAccepted: false });
    } finally {
      await off.close();
      await noSecret.close();
    }
  });

  it('connects with OAuth: the owner\'s state, the token sealed at rest', async () => {
    const cookie = await buildSessionCookie(api.databaseUrl, a.owner.userId, a.tenantId);
    const start = await api.get('/api/integrations/notion/connect', { cookie });
    const authorize = new URL(start.headers.get('location') as string);
    expect(`${authorize.origin}${authorize.pathname}`).to.equal(`${notion.url}/v1/oauth/authorize`);
    expect(Object.fromEntries(authorize.searchParams)).to.include({ client_id: notion.clientId, response_type: 'code', owner: 'user', redirect_uri: `${api.baseUrl}/api/integrations/notion/callback` });
    const consent = await fetch(authorize, { redirect: 'manual' });
    const back = new URL(consent.headers.get('location') as string);
    const done = await api.get(`${back.pathname}${back.search}`, { cookie });
    expect([done.status, done.headers.get('location')]).to.deep.equal([302, `${api.baseUrl}/app/settings/integrations?notion=connected`]);
    const { rows } = await pool().query(`select * from integration_connections where kind = 'notion'`);
    expect(rows).to.have.length(1);
    expect(rows[0]).to.include({ tenant_id: a.tenantId, external_id: notion.workspace.id, display_name: 'Acme Notion' });
    for (const token of notion.tokens) expect(JSON.stringify(rows[0])).not.to.contain(token);
    expect(JSON.stringify(rows[0])).not.to.contain('ntn_');
    connectionId = rows[0].id;
  });

  it('lists the shared pages and takes a parent page; tenant B gets 404 for A\'s connection', async () => {
    const asA = api.as(a.owner.apiKey);
    const pages = await asA.get(`/api/integrations/notion/connections/${connectionId}/pages`);
    expect(pages.body.data.map((p: any) => p.title).sort()).to.deep.equal(['Delivery reports', 'Team handbook']);
    const unknown = await asA.put(`/api/integrations/notion/connections/${connectionId}/parent`, { pageId: '0123456789abcdef0123456789abcdef' });
    expect(unknown.status).to.equal(400);
    const asB = api.as(b.owner.apiKey);
    expect((await asB.get(`/api/integrations/notion/connections/${connectionId}/pages`)).status).to.equal(404);
    expect((await asB.put(`/api/integrations/notion/connections/${connectionId}/parent`, { pageId: parent.id })).status).to.equal(404);
    expect((await asB.post(`/api/integrations/notion/connections/${connectionId}/publish`, { month: '2025-03' })).status).to.equal(404);
    expect((await asB.delete(`/api/integrations/notion/connections/${connectionId}`)).status).to.equal(404);
    expect((await status(b)).connections).to.deep.equal([]);
    const chosen = await asA.put(`/api/integrations/notion/connections/${connectionId}/parent`, { pageId: parent.id });
    expect(chosen.status).to.equal(200);
    expect(chosen.body.data.settings.parentPageId).to.equal(parent.id);
  });

  it('the daily window publishes the closed month once: one page per team with the figures, a table and a narrative', async () => {
    const boss = bossOver(pool());
    const first = await boss.send('notion.publish-due', { schedule: 'notion.publish-due', windowStart: '2025-04-01T04:00:00.000Z' });
    expect((await jobDone(first as string)).output).to.deep.equal({ month: '2025-03', sent: 1 });
    // The fanned-out publish job has finished (so every page it writes is written) before counting.
    const { rows: [publish] } = await pool().query(`select id from pgboss.job where name = $1 and data->>'month' = '2025-03' order by created_on limit 1`, [NOTION_PUBLISH_JOB]);
    expect((await jobDone(publish.id)).state).to.equal('completed');
    const pages = notion.childrenOf(parent.id);
    expect(pages.map((p) => p.title).sort()).to.deep.equal(['Team alpha — delivery 2025-03', 'Team beta — delivery 2025-03']);
    const alpha = pages.find((p) => p.title.startsWith('Team alpha')) as FakePage;
    const [story, table, link] = alpha.blocks.map((b) => b.block);
    expect(story.paragraph.rich_text[0].text.content).to.equal(
      'Team alpha in 2025-03: 2 production deployments and 3 pull requests merged. Against 2025-02: production deployments +1, lead time for changes p50 +50%, change failure rate +33 pts, PRs merged +2, PR cycle time p50 +100%.',
    );
    const rows = table.table.children.map((r: any) => r.table_row.cells.map((c: any) => c[0].text.content));
    expect(rows).to.deep.equal([
      ['Measure', '2025-03', '2025-02', 'Change'],
      ['Production deployments', '2', '1', '+1'],
      ['Lead time for changes p50', '3.0 d (n = 3)', '2.0 d (n = 1)', '+50%'],
      ['Change failure rate', '33% (n = 3)', '0% (n = 1)', '+33 pts'],
      ['Time to restore p50', 'no value (n = 0)', 'no value (n = 0)', '—'],
      ['PRs merged', '3', '1', '+2'],
      ['PR cycle time p50', '2.0 h (n = 3)', '1.0 h (n = 1)', '+100%'],
      ['Issues closed', '0', '0', '±0'],
      ['Issue lead time p50', 'no value (n = 0)', 'no value (n = 0)', '—'],
    ]);
    expect(link.paragraph.rich_text[0].text.link.url).to.equal(`${api.baseUrl}/app/teams/${seed.alpha}`);
    const again = await boss.send('notion.publish-due', { schedule: 'notion.publish-due', windowStart: '2025-04-02T04:00:00.000Z' });
    expect((await jobDone(again as string)).output).to.deep.equal({ month: '2025-03', sent: 0 });
    const conn = (await status()).connections[0];
    expect(conn.settings.publishedMonth).to.equal('2025-03');
    expect(conn.lastSyncAt).to.be.a('string');
  });

  it('publishing the month again rewrites the same pages with fresh figures, never a second page', async () => {
    const before = new Map(notion.childrenOf(parent.id).map((p) => [p.title, p.id]));
    await pool().query(`update teams set name = 'Team Alpha' where id = $1`, [seed.alpha]);
    const res = await api.as(a.owner.apiKey).post(`/api/integrations/notion/connections/${connectionId}/publish`, { month: '2025-03' });
    expect(res.status).to.equal(202);
    expect((await jobDone(res.body.data.jobId)).output).to.deep.equal({ published: 2, created: 0, updated: 2 });
    const after = notion.childrenOf(parent.id);
    expect(after).to.have.length(2);
    const alpha = after.find((p) => p.id === before.get('Team alpha — delivery 2025-03')) as FakePage;
    expect(alpha.title).to.equal('Team Alpha — delivery 2025-03');
    expect(alpha.blocks).to.have.length(3);
    expect(alpha.blocks[0]!.block.paragraph.rich_text[0].text.content).to.match(/^Team Alpha in 2025-03/);
    const stored = await pool().query(`select count(*)::int as n from docs_pages where connection_id = $1`, [connectionId]);
    expect(stored.rows[0].n).to.equal(2);
  });

  it('webhooks: bad signatures are refused; a deleted parent page pauses publishing (needs attention) until a parent is chosen again', async () => {
    const deleted = { type: 'page.deleted', workspace_id: notion.workspace.id, entity: { id: parent.id.replace(/-/g, ''), type: 'page' } };
    const forged = { id: randomUUID(), timestamp: new Date().toISOString(), ...deleted };
    expect((await webhook(forged, sign(JSON.stringify(forged), 'wrong'))).status).to.equal(401);
    expect((await webhook(deleted, '')).status).to.equal(401);
    expect((await status()).connections[0].state).to.equal('active');
    const other = await webhook({ ...deleted, entity: { id: notion.addPage('x').id, type: 'page' } });
    expect(other.body).to.deep.equal({ handled: 'ignored' });
    const verification = await api.post('/api/integrations/notion/webhook', JSON.stringify({ verification_token: WEBHOOK_SECRET }), { 'content-type': 'application/json' });
    expect(verification.body).to.deep.equal({ handled: 'verification' });
    const paused = await webhook(deleted);
    expect([paused.status, paused.body]).to.deep.equal([200, { handled: 'paused' }]);
    const conn = (await status()).connections[0];
    expect([conn.state, conn.stateDetail]).to.deep.equal(['needs_attention', 'The parent page was deleted in Notion; publishing is paused until a parent page is chosen again']);
    const refused = await api.as(a.owner.apiKey).post(`/api/integrations/notion/connections/${connectionId}/publish`, { month: '2025-03' });
    expect(refused.status).to.equal(409);
    const due = await bossOver(pool()).send('notion.publish-due', { schedule: 'notion.publish-due', windowStart: '2025-05-01T04:00:00.000Z' });
    expect((await jobDone(due as string)).output).to.deep.equal({ month: '2025-04', sent: 0 });
    const chosen = await api.as(a.owner.apiKey).put(`/api/integrations/notion/connections/${connectionId}/parent`, { pageId: parent.id });
    expect(chosen.body.data.state).to.equal('active');
  });

  it('webhooks: a timestamp over five minutes away is refused (401), and an event id already taken is not applied again', async () => {
    const deleted = { type: 'page.deleted', workspace_id: notion.workspace.id, entity: { id: parent.id, type: 'page' } };
    const minutes = (n: number) => new Date(Date.now() + n * 60_000).toISOString();
    for (const timestamp of [minutes(-6), minutes(6)]) {
      const stale = await webhook({ ...deleted, timestamp });
      expect([stale.status, stale.body]).to.deep.equal([401, { error: { code: 'unauthorized', message: 'Stale Notion webhook timestamp' } }]);
    }
    // Within the window either way (clocks differ) is taken.
    expect((await webhook({ ...deleted, entity: { id: 'other', type: 'page' }, timestamp: minutes(-4) })).body).to.deep.equal({ handled: 'ignored' });
    const unnamed = await api.post('/api/integrations/notion/webhook', JSON.stringify(deleted), { 'content-type': 'application/json', 'x-notion-signature': sign(JSON.stringify(deleted)) });
    expect([unnamed.status, unnamed.body.error.details]).to.deep.equal([400, [{ path: 'id', message: 'Required' }, { path: 'timestamp', message: 'Required' }]]);
    expect((await status()).connections[0].state).to.equal('active');

    const once = { ...deleted, id: randomUUID(), timestamp: minutes(0) };
    expect((await webhook(once)).body).to.deep.equal({ handled: 'paused' });
    expect((await api.as(a.owner.apiKey).put(`/api/integrations/notion/connections/${connectionId}/parent`, { pageId: parent.id })).body.data.state).to.equal('active');
    // The same signed delivery again (a replay inside the window, or Notion's retry): acknowledged, not applied.
    const again = await webhook(once);
    expect([again.status, again.body]).to.deep.equal([200, { handled: 'duplicate' }]);
    expect((await status()).connections[0].state).to.equal('active');
    const { rows } = await pool().query(`select vendor from webhook_deliveries where delivery_id = $1`, [once.id]);
    expect(rows).to.deep.equal([{ vendor: 'notion' }]);
    // Claimed before any tenant is known: the tenant role has no privilege on the table (migration 0043).
    const client = await pool().connect();
    try {
      await client.query('begin');
      await client.query(`select set_config('role', 'app_tenant', true), set_config('app.tenant_id', $1, true)`, [a.tenantId]);
      expect(await client.query('select count(*) from webhook_deliveries').then(() => 'read', (e: { code?: string }) => e.code)).to.equal('42501');
    } finally {
      await client.query('rollback');
      client.release();
    }
  });

  it('a revoked grant marks the connection for reconnection when Notion refuses the token', async () => {
    notion.tokens.clear();
    const res = await api.as(a.owner.apiKey).post(`/api/integrations/notion/connections/${connectionId}/publish`, { month: '2025-03' });
    expect((await jobDone(res.body.data.jobId)).output).to.deep.equal({ skipped: 'unauthorized' });
    const conn = (await status()).connections[0];
    expect([conn.state, conn.stateDetail, conn.lastError]).to.deep.equal(['needs_reconnect', 'Notion refused the grant (revoked or removed); connect Notion again', 'publishing 2025-03 failed: unauthorized']);
  });
});
