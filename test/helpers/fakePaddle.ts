/**
 * A local Paddle Billing: it holds subscriptions, serves `GET /subscriptions/:id` as Paddle's API
 * does (bearer API key, `{data}` or `{error}`), and sends notifications signed as Paddle signs them
 * (`Paddle-Signature: ts=…;h1=<HMAC-SHA256 of "ts:body">`) to our webhook. `checkout()` plays what
 * Paddle does after a buyer completes Paddle.js's checkout: the subscription exists and
 * `subscription.created` is sent. It also serves a stand-in Paddle.js (`/paddle.js`) for browser tests.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { signPaddleNotification } from '../../src/billing/signature.js';

export const PADDLE_ENV = {
  BILLING_ENABLED: 'true',
  BILLING_API_KEY: 'pdl_sdbx_apikey_test',
  BILLING_WEBHOOK_SECRET: 'pdl_ntfset_test_secret',
  BILLING_CLIENT_TOKEN: 'test_clienttoken0000000000000',
  BILLING_INDIVIDUAL_PRICE_ID: 'pri_individual',
  BILLING_SMALL_TEAM_PRICE_ID: 'pri_small_team',
  BILLING_LARGE_TEAM_PRICE_ID: 'pri_large_team',
  BILLING_ENTERPRISE_PRICE_ID: 'pri_enterprise',
};

export interface FakeSubscription {
  id: string;
  status: 'active' | 'trialing' | 'past_due' | 'paused' | 'canceled';
  customer_id: string;
  priceId: string;
  next_billed_at: string | null;
  custom_data: Record<string, unknown> | null;
}

export interface Notification {
  event_id: string;
  event_type: string;
  occurred_at: string;
  notification_id: string;
  data: Record<string, unknown>;
}

export interface FakePaddle {
  url: string;
  subscriptions: Map<string, FakeSubscription>;
  /** Every `GET /subscriptions/:id`, as the id asked for. */
  reads: string[];
  /** Milliseconds the API waits before answering a subscription read (a slow Paddle). */
  readDelayMs: number;
  /** Subscription reads received and not answered yet (a slow Paddle's reads in flight). */
  pendingReads: number;
  /** The notification Paddle would send about `sub` now (or at `occurredAt`). */
  notification(type: string, sub: FakeSubscription, occurredAt?: Date, eventId?: string): Notification;
  /** Delivers a notification to `webhookUrl`, signed now (or at `ts`, or with `secret`), answering our server's response. */
  deliver(webhookUrl: string, n: Notification, options?: { ts?: number; secret?: string; signature?: string }): Promise<{ status: number; body: any }>;
  /** Paddle's side of a completed checkout: the subscription, and its `subscription.created` notification delivered. */
  checkout(webhookUrl: string, priceId: string, customData: Record<string, unknown>): Promise<{ sub: FakeSubscription; response: { status: number; body: any } }>;
  close(): Promise<void>;
}

/** The subscription entity's JSON as Paddle's API and notifications carry it. */
export function subscriptionJson(sub: FakeSubscription): Record<string, unknown> {
  const now = new Date().toISOString();
  return {
    id: sub.id,
    status: sub.status,
    customer_id: sub.customer_id,
    address_id: 'add_01',
    business_id: null,
    currency_code: 'EUR',
    created_at: now,
    updated_at: now,
    started_at: now,
    first_billed_at: now,
    next_billed_at: sub.next_billed_at,
    paused_at: null,
    canceled_at: sub.status === 'canceled' ? now : null,
    collection_mode: 'automatic',
    billing_details: null,
    current_billing_period: sub.next_billed_at ? { starts_at: now, ends_at: sub.next_billed_at } : null,
    billing_cycle: { interval: 'month', frequency: 1 },
    scheduled_change: null,
    items: [{ status: 'active', quantity: 1, recurring: true, created_at: now, updated_at: now, previously_billed_at: now, next_billed_at: sub.next_billed_at, trial_dates: null, price: { id: sub.priceId, product_id: 'pro_01', description: 'Plan', type: 'standard', tax_mode: 'account_setting', billing_cycle: { interval: 'month', frequency: 1 }, trial_period: null, unit_price: { amount: '1000', currency_code: 'EUR' }, unit_price_overrides: [], quantity: { minimum: 1, maximum: 1 }, status: 'active', created_at: now, updated_at: now }, product: { id: 'pro_01', name: 'Delivery analytics', type: 'standard', tax_category: 'saas', description: null, image_url: null, status: 'active', created_at: now, updated_at: now } }],
    custom_data: sub.custom_data,
    management_urls: null,
    discount: null,
    import_meta: null,
  };
}

/** A stand-in for Paddle.js v2: records Initialize and Checkout.open, and reports checkout.completed. */
const PADDLE_JS = `window.Paddle = {
  Environment: { set: function (e) { window.__paddle.environment = e; } },
  Initialize: function (o) { window.__paddle.token = o.token; window.__paddle.callback = o.eventCallback; },
  Checkout: { open: function (o) { window.__paddle.checkouts.push(o); } }
};
window.__paddle = { checkouts: [], complete: function () { window.__paddle.callback && window.__paddle.callback({ name: 'checkout.completed', data: {} }); } };`;

export async function fakePaddle(env = PADDLE_ENV): Promise<FakePaddle> {
  const subscriptions = new Map<string, FakeSubscription>();
  const reads: string[] = [];
  const server: Server = createServer((req, res) => {
    const reply = (status: number, body: unknown, type = 'application/json') => {
      res.writeHead(status, { 'content-type': type });
      res.end(typeof body === 'string' ? body : JSON.stringify(body));
    };
    if (req.url === '/paddle.js') return reply(200, PADDLE_JS, 'application/javascript');
    const match = /^\/subscriptions\/([^/?]+)/.exec(req.url ?? '');
    if (req.method !== 'GET' || !match) return reply(404, { error: { type: 'request_error', code: 'not_found', detail: 'Unknown path' } });
    if (req.headers.authorization !== `bearer ${env.BILLING_API_KEY}` && req.headers.authorization !== `Bearer ${env.BILLING_API_KEY}`) {
      return reply(403, { error: { type: 'request_error', code: 'forbidden', detail: 'Invalid API key' } });
    }
    const id = decodeURIComponent(match[1] as string);
    reads.push(id);
    if (fake.readDelayMs > 0) {
      fake.pendingReads += 1;
      const timer = setTimeout(() => {
        fake.pendingReads -= 1;
        answerRead(id, reply);
      }, fake.readDelayMs);
      timer.unref();
      return;
    }
    answerRead(id, reply);
  });
  const answerRead = (id: string, reply: (status: number, body: unknown) => void) => {
    const sub = subscriptions.get(id);
    if (!sub) return reply(404, { error: { type: 'request_error', code: 'not_found', detail: `Entity ${id} not found` } });
    reply(200, { data: subscriptionJson(sub), meta: { request_id: randomUUID() } });
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const notification: FakePaddle['notification'] = (type, sub, occurredAt = new Date(), eventId = `evt_${randomUUID().replace(/-/g, '')}`) => ({
    event_id: eventId,
    event_type: type,
    occurred_at: occurredAt.toISOString(),
    notification_id: `ntf_${randomUUID().replace(/-/g, '')}`,
    data: subscriptionJson(sub),
  });

  const deliver: FakePaddle['deliver'] = async (webhookUrl, n, options = {}) => {
    const body = JSON.stringify(n);
    const signature = options.signature ?? signPaddleNotification(options.secret ?? env.BILLING_WEBHOOK_SECRET, body, options.ts);
    const res = await fetch(webhookUrl, { method: 'POST', headers: { 'content-type': 'application/json', 'paddle-signature': signature }, body });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  };

  const fake: FakePaddle = {
    url,
    subscriptions,
    reads,
    readDelayMs: 0,
    pendingReads: 0,
    notification,
    deliver,
    async checkout(webhookUrl, priceId, customData) {
      const sub: FakeSubscription = {
        id: `sub_${randomUUID().replace(/-/g, '')}`,
        status: 'active',
        customer_id: `ctm_${randomUUID().replace(/-/g, '').slice(0, 20)}`,
        priceId,
        next_billed_at: new Date(Date.now() + 30 * 24 * 3600 * 1000).toISOString(),
        custom_data: customData,
      };
      subscriptions.set(sub.id, sub);
      return { sub, response: await deliver(webhookUrl, notification('subscription.created', sub)) };
    },
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
  return fake;
}
