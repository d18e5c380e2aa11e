/**
 * Billing end to end over HTTP, with a fake Paddle on loopback (test/helpers/fakePaddle.ts): off
 * it does not exist; on, a checkout's notification makes the plan active, and every refusal of a
 * notification, the grace period, the seat notice and the tenant boundary are checked exactly.
 */
import { sessionBody } from '../ai/helpers.js';
import { expect } from 'chai';
import { Webhooks } from '@paddle/paddle-node-sdk';
import { buildMember, buildTenant, dbFor, type BuiltTenant } from '../helpers/factories.js';
import { fakePaddle, PADDLE_ENV, type FakePaddle, type FakeSubscription } from '../helpers/fakePaddle.js';
import { apiError, expectRefusal } from '../helpers/refusals.js';
import { testServer, type TestServer } from '../helpers/server.js';
import { signPaddleNotification } from '../../src/billing/signature.js';
import { READ_TIMEOUT_MS } from '../../src/billing/paddle.js';
import { mcpClients } from '../mcp/mcpClient.js';
import { openDatabase } from '../../src/db/client.js';
import { withTenant } from '../../src/db/tenancy.js';

const DAY = 24 * 3600 * 1000;
const daysAgo = (n: number) => new Date(Date.now() - n * DAY);

async function addPeople(databaseUrl: string, tenantId: string, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    await dbFor(databaseUrl).pool.query('insert into people (tenant_id, external_ref) values ($1, $2)', [tenantId, `p-${tenantId.slice(0, 8)}-${i}`]);
  }
}

describe('billing: off (the default)', function () {
  this.timeout(60_000);
  let api: TestServer;
  let paddle: FakePaddle;
  let tenant: BuiltTenant;

  before(async () => {
    paddle = await fakePaddle();
    // Every billing variable but the flag: still off, and nothing may reach the vendor.
    const { BILLING_ENABLED: _flag, ...rest } = PADDLE_ENV;
    api = await testServer({ env: { ...rest, BILLING_API_URL: paddle.url } });
    tenant = await buildTenant(api.databaseUrl);
  });
  after(async () => {
    await api.close();
    await paddle.close();
  });

  it('has no billing route: each answers exactly as an unknown route', async () => {
    const unknown = await api.as(tenant.owner.apiKey).get('/api/no-such-route');
    expect(unknown.status).to.equal(404);
    for (const res of [
      await api.as(tenant.owner.apiKey).get('/api/billing'),
      await api.as(tenant.owner.apiKey).get('/api/billing/notice'),
      await api.post('/api/billing/webhook', '{}', { 'paddle-signature': signPaddleNotification(PADDLE_ENV.BILLING_WEBHOOK_SECRET, '{}') }),
    ]) {
      expect(res.status).to.equal(404);
      expect(res.body).to.deep.equal(unknown.body);
      expect(res.body).to.deep.equal(apiError('not_found', 'Not found'));
    }
  });

  it('makes no outbound call and limits nothing, even for a tenant with a lapsed subscription row', async () => {
    // A row as a past deployment with billing on would have left it: ignored while off.
    await dbFor(api.databaseUrl).pool.query(
      "insert into billing_subscriptions (subscription_id, tenant_id, status, status_since, event_occurred_at) values ('sub_old', $1, 'canceled', now() - interval '90 days', now() - interval '90 days')",
      [tenant.tenantId],
    );
    const sub: FakeSubscription = { id: 'sub_x', status: 'active', customer_id: 'ctm_x', priceId: 'pri_small_team', next_billed_at: null, custom_data: { tenantId: tenant.tenantId } };
    paddle.subscriptions.set(sub.id, sub);
    expect((await paddle.deliver(`${api.baseUrl}/api/billing/webhook`, paddle.notification('subscription.created', sub))).status).to.equal(404);
    const created = await api.as(tenant.owner.apiKey).post('/api/keys', { name: 'still writable' });
    expect(created.status).to.equal(201);
    expect(paddle.reads).to.deep.equal([]);
    expect((await api.get('/app/settings/billing', { authorization: '' })).status).to.equal(303);
    expect(created.headers.get('content-security-policy')).to.equal(null);
  });
});

describe('billing: on (Paddle Billing)', function () {
  this.timeout(90_000);
  let api: TestServer;
  let paddle: FakePaddle;
  let a: BuiltTenant;
  let b: BuiltTenant;
  let hook: string;
  const mcp = mcpClients(() => api.baseUrl);

  before(async () => {
    paddle = await fakePaddle();
    api = await testServer({ env: { ...PADDLE_ENV, BILLING_API_URL: paddle.url } });
    a = await buildTenant(api.databaseUrl, 'Billing A');
    b = await buildTenant(api.databaseUrl, 'Billing B');
    hook = `${api.baseUrl}/api/billing/webhook`;
  });
  after(async () => {
    await mcp.closeAll();
    await api.close();
    await paddle.close();
  });

  /** A new tenant, and the subscription Paddle would hold after its owner's checkout (nothing delivered yet). */
  async function subscriber(id: string, priceId: string, name?: string): Promise<{ t: BuiltTenant; sub: FakeSubscription }> {
    const t = await buildTenant(api.databaseUrl, name);
    const customData = (await api.as(t.owner.apiKey).get('/api/billing')).body.data.checkout.customData;
    const sub: FakeSubscription = { id, status: 'active', customer_id: `ctm_${id}`, priceId, next_billed_at: null, custom_data: customData };
    paddle.subscriptions.set(sub.id, sub);
    return { t, sub };
  }

  it('checkout → verified notification → plan active (confirmed once with the vendor API)', async () => {
    const before = await api.as(a.owner.apiKey).get('/api/billing');
    expect(before.status).to.equal(200);
    expect(before.body.data).to.include({ state: 'none', plan: null, readOnly: false, renewsAt: null, recommendedPlan: 'individual' });
    expect(before.body.data.checkout.clientToken).to.equal(PADDLE_ENV.BILLING_CLIENT_TOKEN);
    expect(before.body.data.checkout.environment).to.equal('sandbox');
    expect(before.body.data.checkout.customData.tenantId).to.equal(a.tenantId);
    expect(before.body.data.plans.map((p: { priceId: string }) => p.priceId)).to.deep.equal(['pri_individual', 'pri_small_team', 'pri_large_team', 'pri_enterprise']);

    const { sub, response } = await paddle.checkout(hook, 'pri_small_team', before.body.data.checkout.customData);
    expect(response.status).to.equal(200);
    expect(response.body.data.outcome).to.equal('applied');
    expect(paddle.reads).to.deep.equal([sub.id]);

    const after = await api.as(a.owner.apiKey).get('/api/billing');
    expect(after.body.data).to.include({ state: 'active', plan: 'small_team', planName: 'Small team', readOnly: false, graceEndsAt: null, overBand: false, renewsAt: new Date(sub.next_billed_at as string).toISOString() });
    expect(after.body.data.seats).to.deep.equal({ used: 0, band: { min: 2, max: 10 } });

    // A later notification of a known subscription needs no read-back.
    sub.next_billed_at = new Date(Date.now() + 60 * DAY).toISOString();
    expect((await paddle.deliver(hook, paddle.notification('subscription.updated', sub))).body.data.outcome).to.equal('applied');
    expect(paddle.reads).to.have.length(1);
  });

  it('signs as Paddle does: the SDK accepts the fake’s signature', async () => {
    const body = JSON.stringify({ hello: 'paddle' });
    expect(await new Webhooks().isSignatureValid(body, PADDLE_ENV.BILLING_WEBHOOK_SECRET, signPaddleNotification(PADDLE_ENV.BILLING_WEBHOOK_SECRET, body))).to.equal(true);
  });

  it('refuses a bad signature, a missing one, and a stale timestamp (replay) with 401 and stores nothing', async () => {
    const sub = [...paddle.subscriptions.values()][0] as FakeSubscription;
    const n = paddle.notification('subscription.canceled', { ...sub, status: 'canceled' });
    const refused = apiError('unauthorized', 'Invalid Paddle-Signature');
    expectRefusal(await paddle.deliver(hook, n, { secret: 'not-the-secret' }), 401, refused, 'wrong secret');
    expectRefusal(await paddle.deliver(hook, n, { signature: '' }), 401, refused, 'no header');
    expectRefusal(await paddle.deliver(hook, n, { signature: 'ts=1;h1=zz' }), 401, refused, 'malformed');
    expectRefusal(await paddle.deliver(hook, n, { ts: Math.floor(Date.now() / 1000) - 301 }), 401, refused, 'stale (replayed) timestamp');
    expectRefusal(await paddle.deliver(hook, n, { ts: Math.floor(Date.now() / 1000) + 301 }), 401, refused, 'timestamp from the future');
    const events = await dbFor(api.databaseUrl).pool.query('select count(*)::int as n from billing_events where event_id = $1', [n.event_id]);
    expect(events.rows[0].n).to.equal(0);
    expect((await api.as(a.owner.apiKey).get('/api/billing')).body.data.state).to.equal('active');
    // A malformed but signed body is the caller's 400, never a 500.
    const bad = await api.post('/api/billing/webhook', 'not json', { 'paddle-signature': signPaddleNotification(PADDLE_ENV.BILLING_WEBHOOK_SECRET, 'not json') });
    expectRefusal(bad, 400, { error: { code: 'validation_failed', message: 'Validation failed', details: [{ path: 'body', message: 'Body is not valid JSON' }] } });
    // Signed JSON the database cannot store (a NUL in the event id) is refused like any route's body, naming the field, before any SQL.
    const nul = JSON.stringify({ ...n, event_id: 'evt_\u0000nul' });
    const unstorable = await api.post('/api/billing/webhook', nul, { 'paddle-signature': signPaddleNotification(PADDLE_ENV.BILLING_WEBHOOK_SECRET, nul) });
    expectRefusal(unstorable, 400, { error: { code: 'validation_failed', message: 'Validation failed', details: [{ path: 'event_id', message: 'Must not contain the NUL character (U+0000)' }] } });
  });

  it('takes an event id once: a redelivery is a duplicate and changes nothing', async () => {
    const customData = (await api.as(b.owner.apiKey).get('/api/billing')).body.data.checkout.customData;
    const { sub } = await paddle.checkout(hook, 'pri_individual', customData);
    const pastDue = paddle.notification('subscription.past_due', { ...sub, status: 'past_due' });
    expect((await paddle.deliver(hook, pastDue)).body.data.outcome).to.equal('applied');
    const again = await paddle.deliver(hook, pastDue);
    expect(again.status).to.equal(200);
    expect(again.body).to.deep.equal({ data: { eventId: pastDue.event_id, eventType: 'subscription.past_due', outcome: 'duplicate' }, meta: {} });
    const view = (await api.as(b.owner.apiKey).get('/api/billing')).body.data;
    expect(view).to.include({ state: 'past_due', readOnly: false });
    expect(new Date(view.graceEndsAt).getTime()).to.equal(new Date(pastDue.occurred_at).getTime() + 14 * DAY);
    const rows = await dbFor(api.databaseUrl).pool.query('select count(*)::int as n from billing_events where event_id = $1', [pastDue.event_id]);
    expect(rows.rows[0].n).to.equal(1);
  });

  it('resolves out-of-order events by their time: an older one never overwrites a newer state', async () => {
    const { t, sub } = await subscriber('sub_out_of_order', 'pri_large_team');
    const created = paddle.notification('subscription.created', sub, daysAgo(3));
    const canceled = paddle.notification('subscription.canceled', { ...sub, status: 'canceled' }, daysAgo(1));
    const activated = paddle.notification('subscription.activated', sub, daysAgo(2));
    expect((await paddle.deliver(hook, canceled)).body.data.outcome).to.equal('applied');
    expect((await paddle.deliver(hook, created)).body.data.outcome).to.equal('stale');
    expect((await paddle.deliver(hook, activated)).body.data.outcome).to.equal('stale');
    const view = (await api.as(t.owner.apiKey).get('/api/billing')).body.data;
    expect(view).to.include({ state: 'canceled', plan: 'large_team' });
    expect(new Date(view.graceEndsAt).getTime()).to.equal(new Date(canceled.occurred_at).getTime() + 14 * DAY);
    const applied = await dbFor(api.databaseUrl).pool.query('select event_type, applied from billing_events where subscription_id = $1 order by occurred_at', [sub.id]);
    expect(applied.rows).to.deep.equal([
      { event_type: 'subscription.created', applied: false },
      { event_type: 'subscription.activated', applied: false },
      { event_type: 'subscription.canceled', applied: true },
    ]);
  });

  it('takes the first two notifications of a new subscription arriving together (no false conflict)', async () => {
    const t = await buildTenant(api.databaseUrl);
    const customData = (await api.as(t.owner.apiKey).get('/api/billing')).body.data.checkout.customData;
    for (let i = 0; i < 5; i += 1) {
      const sub: FakeSubscription = { id: `sub_together_${i}`, status: 'active', customer_id: 'ctm_t', priceId: 'pri_small_team', next_billed_at: null, custom_data: customData };
      paddle.subscriptions.set(sub.id, sub);
      const created = paddle.notification('subscription.created', sub, daysAgo(1));
      const activated = paddle.notification('subscription.activated', sub, new Date(daysAgo(1).getTime() + 1000));
      const both = await Promise.all([paddle.deliver(hook, created), paddle.deliver(hook, activated)]);
      expect(both.map((r) => r.status), sub.id).to.deep.equal([200, 200]);
      // Whichever committed first, the later event's state is the one kept.
      expect(both[1]!.body.data.outcome, sub.id).to.equal('applied');
      expect(['applied', 'stale'], sub.id).to.include(both[0]!.body.data.outcome);
    }
    const rows = await dbFor(api.databaseUrl).pool.query("select count(*)::int as n from billing_subscriptions where subscription_id like 'sub_together_%'");
    expect(rows.rows[0].n).to.equal(5);
  });

  it('orders two events of one millisecond by Paddle\'s microseconds', async () => {
    const { t, sub } = await subscriber('sub_micro', 'pri_small_team');
    const at = (micros: string) => `${daysAgo(2).toISOString().slice(0, 23)}${micros}Z`;
    const created = { ...paddle.notification('subscription.created', sub), occurred_at: at('100') };
    const pastDue = { ...paddle.notification('subscription.past_due', { ...sub, status: 'past_due' }), occurred_at: at('900') };
    expect((await paddle.deliver(hook, created)).body.data.outcome).to.equal('applied');
    expect((await paddle.deliver(hook, pastDue)).body.data.outcome).to.equal('applied');
    expect((await api.as(t.owner.apiKey).get('/api/billing')).body.data.state).to.equal('past_due');
  });

  it('runs one grace period from the first lapsed state: past due, then cancelled, does not start it again', async () => {
    const { t, sub } = await subscriber('sub_one_grace', 'pri_small_team');
    await paddle.deliver(hook, paddle.notification('subscription.created', sub, daysAgo(30)));
    const pastDue = paddle.notification('subscription.past_due', { ...sub, status: 'past_due' }, daysAgo(13));
    await paddle.deliver(hook, pastDue);
    expect((await paddle.deliver(hook, paddle.notification('subscription.canceled', { ...sub, status: 'canceled' }, daysAgo(1)))).body.data.outcome).to.equal('applied');
    const view = (await api.as(t.owner.apiKey).get('/api/billing')).body.data;
    expect(view.state).to.equal('canceled');
    expect(new Date(view.graceEndsAt).getTime()).to.equal(new Date(pastDue.occurred_at).getTime() + 14 * DAY);
    // A payment ends the period: a later lapse starts a new one.
    await paddle.deliver(hook, paddle.notification('subscription.activated', sub, daysAgo(0.5)));
    expect((await api.as(t.owner.apiKey).get('/api/billing')).body.data.graceEndsAt).to.equal(null);
  });

  it('answers 202 for a tenant it cannot prove or find, and for a subscription the vendor does not confirm', async () => {
    const sub: FakeSubscription = { id: 'sub_forged', status: 'canceled', customer_id: 'ctm_f', priceId: 'pri_individual', next_billed_at: null, custom_data: { tenantId: a.tenantId, tenantProof: 'forged' } };
    paddle.subscriptions.set(sub.id, sub);
    const forged = await paddle.deliver(hook, paddle.notification('subscription.canceled', sub));
    expect(forged.status).to.equal(202);
    expect(forged.body.data.outcome).to.equal('unknown_tenant');
    // B's proof does not open A.
    const bProof = (await api.as(b.owner.apiKey).get('/api/billing')).body.data.checkout.customData.tenantProof;
    const crossed = await paddle.deliver(hook, paddle.notification('subscription.canceled', { ...sub, custom_data: { tenantId: a.tenantId, tenantProof: bProof } }));
    expect(crossed.body.data.outcome).to.equal('unknown_tenant');
    // A proven tenant, but a subscription Paddle has never heard of.
    const aData = (await api.as(a.owner.apiKey).get('/api/billing')).body.data.checkout.customData;
    const ghost = await paddle.deliver(hook, paddle.notification('subscription.created', { ...sub, id: 'sub_ghost', status: 'active', custom_data: aData }));
    expect(ghost.status).to.equal(202);
    expect(ghost.body.data.outcome).to.equal('unconfirmed');
    expect((await api.as(a.owner.apiKey).get('/api/billing')).body.data.state).to.equal('active');
    // Not a subscription event: acknowledged, ignored.
    const other = await paddle.deliver(hook, { ...paddle.notification('transaction.completed', sub), data: { id: 'txn_1' } });
    expect(other.status).to.equal(200);
    expect(other.body.data.outcome).to.equal('ignored');
  });

  it('answers 503 when Paddle is too slow to confirm a new subscription, so Paddle retries; nothing is stored', async () => {
    const { sub } = await subscriber('sub_slow', 'pri_small_team');
    // Paddle holds the read far past our timeout: the answer arriving while the read is still in
    // flight shows the server gave up on its own (no wall-clock limit here).
    paddle.readDelayMs = READ_TIMEOUT_MS + 600_000;
    try {
      const slow = await paddle.deliver(hook, paddle.notification('subscription.created', sub));
      expect(paddle.pendingReads, 'answered before Paddle did').to.equal(1);
      expectRefusal(slow, 503, apiError('unavailable', 'Paddle could not confirm the subscription; the notification will be retried'));
    } finally {
      paddle.readDelayMs = 0;
    }
    const rows = await dbFor(api.databaseUrl).pool.query("select (select count(*)::int from billing_subscriptions where subscription_id = 'sub_slow') as subs, (select count(*)::int from billing_events where subscription_id = 'sub_slow') as events");
    expect(rows.rows[0]).to.deep.equal({ subs: 0, events: 0 });
    // Paddle's retry, once it answers in time, is applied.
    expect((await paddle.deliver(hook, paddle.notification('subscription.created', sub))).body.data.outcome).to.equal('applied');
  });

  it('after the grace period a lapsed tenant is read-only: writes refused, exports, cube, MCP and ingest still work', async () => {
    const { t, sub } = await subscriber('sub_lapsed', 'pri_small_team', 'Lapsed');
    await paddle.deliver(hook, paddle.notification('subscription.created', sub, daysAgo(40)));
    // Past due 13 days: still inside the grace period, everything works.
    await paddle.deliver(hook, paddle.notification('subscription.past_due', { ...sub, status: 'past_due' }, daysAgo(13)));
    expect((await api.as(t.owner.apiKey).post('/api/keys', { name: 'in grace' })).status).to.equal(201);
    const grace = (await api.as(t.owner.apiKey).get('/api/billing/notice')).body.data;
    expect(grace.readOnly).to.equal(false);
    expect(grace.message).to.match(/^The subscription is past due\. Everything keeps working until \d{4}-\d{2}-\d{2}/);

    // Past due 15 days (the same status since then): read-only.
    await dbFor(api.databaseUrl).pool.query("update billing_subscriptions set status_since = now() - interval '15 days' where subscription_id = 'sub_lapsed'");
    const owner = api.as(t.owner.apiKey);
    const notice = (await owner.get('/api/billing/notice')).body.data;
    expect(notice).to.include({ state: 'past_due', readOnly: true, overBand: false });
    const message = notice.message as string;
    expect(message).to.match(/^This organisation is read-only: its subscription is past due and the 14-day grace period ended on \d{4}-\d{2}-\d{2}\. An owner can restore it under Settings › Billing\./);

    expectRefusal(await owner.post('/api/keys', { name: 'refused' }), 403, apiError('read_only', message), 'create a key');
    expectRefusal(await owner.patch(`/api/tenants/${t.tenantId}`, { name: 'Renamed' }), 403, apiError('read_only', message), 'rename the tenant');
    expectRefusal(await owner.post('/api/surveys', { title: 'x' }), 403, apiError('read_only', message), 'create a survey');
    const member = await buildMember(api.databaseUrl, t.tenantId);
    expectRefusal(await api.as(member.apiKey).post('/api/notebooks', { title: 'n' }), 403, apiError('read_only', message), 'a member’s change');

    // Still working: reads, exports, the Cube API (a POST that reads), MCP, ingest, revoking a key.
    expect((await owner.get('/api/keys')).status).to.equal(200);
    expect((await owner.get('/api/exports/team-roster?format=json')).status).to.equal(200);
    expect((await owner.get('/api/exports/team-baseline?format=csv')).status).to.equal(200);
    const cube = await owner.post('/cubejs-api/v1/load', { query: { measures: ['people.count'] } });
    expect(cube.status).to.equal(200);
    const client = await mcp.connect(t.owner.apiKey);
    const tools = await client.callTool({ name: 'cube_metadata', arguments: {} });
    expect(tools.isError ?? false).to.equal(false);
    const ingest = await owner.post('/api/webhooks/v1/issues', { projectKey: 'acme/app', externalId: 'ISS-1', title: 'Kept', type: 'bug', state: 'open' });
    expect(ingest.status).to.be.oneOf([200, 201]);
    expect(ingest.body.action).to.equal('created');
    const stored = await dbFor(api.databaseUrl).pool.query("select count(*)::int as n from issues where tenant_id = $1 and external_id = 'ISS-1'", [t.tenantId]);
    expect(stored.rows[0].n).to.equal(1);
    const keys = (await owner.get('/api/keys')).body.data as { id: string; name: string }[];
    const inGrace = keys.find((k) => k.name === 'in grace') as { id: string };
    expect((await owner.delete(`/api/keys/${inGrace.id}`)).status).to.be.oneOf([200, 204]);
    // …and taking personal data and people out: a session deleted, a member removed.
    const session = await owner.post('/api/sessions', sessionBody());
    expect(session.status).to.equal(201);
    const removed = await owner.delete(`/api/sessions/${session.body.data.id}`);
    expect([removed.status, removed.body.data.deleted]).to.deep.equal([200, true]);
    const left = await owner.delete(`/api/members/${member.userId}`);
    expect(left.status).to.equal(200);

    // Paid again: the next notification restores every change.
    await paddle.deliver(hook, paddle.notification('subscription.updated', sub));
    expect((await owner.post('/api/keys', { name: 'restored' })).status).to.equal(201);
  });

  it('over the seat band: a notice in the overview and the notice, never a refusal', async () => {
    const t = await buildTenant(api.databaseUrl, 'Crowded');
    const customData = (await api.as(t.owner.apiKey).get('/api/billing')).body.data.checkout.customData;
    await paddle.checkout(hook, 'pri_individual', customData);
    await addPeople(api.databaseUrl, t.tenantId, 3);
    const view = (await api.as(t.owner.apiKey).get('/api/billing')).body.data;
    expect(view).to.include({ state: 'active', plan: 'individual', overBand: true, recommendedPlan: 'small_team', readOnly: false });
    expect(view.seats).to.deep.equal({ used: 3, band: { min: 1, max: 1 } });
    const expected = 'The register holds 3 people, more than the 1 seats of the Individual plan. Nothing is blocked or removed; an owner can move to the Small team plan under Settings › Billing.';
    expect(view.notices.overBand).to.equal(expected);
    const member = await buildMember(api.databaseUrl, t.tenantId);
    expect((await api.as(member.apiKey).get('/api/billing/notice')).body.data).to.deep.equal({ state: 'active', readOnly: false, graceEndsAt: null, overBand: true, message: expected });
    expect((await api.as(t.owner.apiKey).post('/api/keys', { name: 'over band' })).status).to.equal(201);
  });

  it('is the owner’s: a member is refused, and tenant B sees only its own billing', async () => {
    const member = await buildMember(api.databaseUrl, a.tenantId);
    expectRefusal(await api.as(member.apiKey).get('/api/billing'), 403, apiError('forbidden', 'Only an owner of the tenant can do this'));
    const aView = (await api.as(a.owner.apiKey).get('/api/billing')).body.data;
    const bView = (await api.as(b.owner.apiKey).get('/api/billing')).body.data;
    expect(aView).to.include({ state: 'active', plan: 'small_team' });
    expect(bView).to.include({ state: 'past_due', plan: 'individual' });
    expect(bView.checkout.customData.tenantId).to.equal(b.tenantId);
    // Under the floor, B's scope sees none of A's rows even when it asks for them.
    const scoped = openDatabase(api.databaseUrl, { max: 1 });
    try {
      const asB = await withTenant(b.tenantId, () => scoped.pool.query('select subscription_id from billing_subscriptions where tenant_id = $1', [a.tenantId]));
      const asA = await withTenant(a.tenantId, () => scoped.pool.query('select subscription_id from billing_subscriptions where tenant_id = $1', [a.tenantId]));
      expect(asB.rows).to.deep.equal([]);
      expect(asA.rows.length).to.equal(1);
    } finally {
      await scoped.close();
    }
  });
});
