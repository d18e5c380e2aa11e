/**
 * Paddle's notifications (POST /api/billing/webhook). In order: the signature and its age, the
 * body, the tenant (custom data with this server's proof, a tenant that exists), the subscription
 * confirmed with Paddle's API the first time it is seen, then in the tenant's scope: the event id
 * taken once, and the subscription's state replaced only by a newer event (docs/billing.md).
 */
import { and, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { billingEvents, billingSubscriptions, tenants } from '../db/schema/index.js';
import { asSystem, withTenant } from '../db/tenancy.js';
import { AppError, zodDetails } from '../errors.js';
import { parseJsonBody } from '../http/body.js';
import { isProvenTenant } from './checkout.js';
import { isRestricting } from './entitlements.js';
import { readSubscription } from './paddle.js';
import { planOfPrice } from './plans.js';
import { verifyPaddleSignature } from './signature.js';
import { Uuid } from '../shared/schemas.js';

const Iso = z.string().max(40).refine((v) => !Number.isNaN(Date.parse(v)), 'An ISO 8601 timestamp');

const Notification = z.object({
  event_id: z.string().min(1).max(100),
  event_type: z.string().min(1).max(100),
  occurred_at: Iso,
  data: z.record(z.string(), z.unknown()),
});

const SubscriptionData = z.object({
  id: z.string().min(1).max(100),
  status: z.enum(['active', 'trialing', 'past_due', 'paused', 'canceled']),
  customer_id: z.string().max(100).nullish(),
  next_billed_at: Iso.nullish(),
  items: z.array(z.object({ price: z.object({ id: z.string().max(100) }).loose() }).loose()).max(100).default([]),
  custom_data: z.record(z.string(), z.unknown()).nullish(),
});

export type Outcome = 'applied' | 'stale' | 'duplicate' | 'ignored' | 'unknown_tenant' | 'unconfirmed';

export interface WebhookAnswer {
  status: 200 | 202;
  body: { data: { eventId: string | null; eventType: string | null; outcome: Outcome }; meta: Record<string, never> };
}

const answer = (status: 200 | 202, eventId: string | null, eventType: string | null, outcome: Outcome): WebhookAnswer => ({ status, body: { data: { eventId, eventType, outcome }, meta: {} } });

/** Signed bytes first, then the JSON every route would accept (src/http/body.ts). */
const parseJson = (body: Buffer): unknown => parseJsonBody(body, 'Validation failed');

export async function receivePaddleNotification(app: AppContext, signature: string, body: Buffer): Promise<WebhookAnswer> {
  const billing = app.config.billing;
  if (!billing) throw new AppError('not_found', 'Not found');
  const verdict = verifyPaddleSignature(billing.webhookSecret, signature, body);
  if (!verdict.ok) {
    app.log.warn({ vendor: 'paddle', reason: verdict.reason }, 'billing notification refused');
    throw new AppError('unauthorized', 'Invalid Paddle-Signature');
  }
  const raw = parseJson(body);
  const parsed = Notification.safeParse(raw);
  if (!parsed.success) throw new AppError('validation_failed', 'Validation failed', zodDetails(parsed.error, undefined, raw));
  const event = parsed.data;
  if (!event.event_type.startsWith('subscription.')) return answer(200, event.event_id, event.event_type, 'ignored');
  const sub = SubscriptionData.safeParse(event.data);
  if (!sub.success) throw new AppError('validation_failed', 'Validation failed', zodDetails(sub.error, 'data', event.data));
  const data = sub.data;

  // The tenant: named by custom data that this server issued to one of its owners, and still there.
  // Neither can change on a retry, so it is acknowledged (202) and Paddle stops retrying.
  const custom = data.custom_data ?? null;
  const tenantId = isProvenTenant(app.config.oauthEncryptionKey, custom) && Uuid.safeParse(custom.tenantId).success ? custom.tenantId : null;
  const [tenant] = tenantId ? await asSystem('inbound-routing', () => app.database.db.select({ id: tenants.id }).from(tenants).where(eq(tenants.id, tenantId))) : [];
  if (!tenant) {
    app.log.warn({ vendor: 'paddle', eventId: event.event_id }, 'billing notification names no tenant of this server');
    return answer(202, event.event_id, event.event_type, 'unknown_tenant');
  }

  const { db } = app.database;
  return withTenant(tenant.id, async () => {
    const [known] = await db.select({ id: billingSubscriptions.subscriptionId }).from(billingSubscriptions).where(eq(billingSubscriptions.subscriptionId, data.id));
    if (!known) {
      // First sight of this subscription: it exists at Paddle, for this tenant, or nothing is stored.
      const confirmed = await readSubscription(billing, data.id);
      if (!confirmed || confirmed.customData?.tenantId !== tenant.id) return answer(202, event.event_id, event.event_type, 'unconfirmed');
    }
    const priceId = data.items[0]?.price.id ?? null;
    // Event times are compared and stored by PostgreSQL from Paddle's own text: it carries
    // microseconds, which a JS Date would cut to milliseconds (two events of one millisecond
    // would then look like one time, and the later one be taken as stale).
    const at = sql`${event.occurred_at}::timestamptz`;
    const outcome = await db.transaction(async (tx): Promise<Outcome> => {
      const taken = await tx
        .insert(billingEvents)
        .values({ eventId: event.event_id, tenantId: tenant.id, eventType: event.event_type, subscriptionId: data.id, occurredAt: at, applied: true })
        .onConflictDoNothing()
        .returning({ id: billingEvents.eventId });
      if (taken.length === 0) return 'duplicate';
      const state = (current: { status: string } | undefined) => ({
        tenantId: tenant.id,
        customerId: data.customer_id ?? null,
        status: data.status,
        priceId,
        plan: planOfPrice(billing, priceId),
        renewsAt: data.next_billed_at ? new Date(data.next_billed_at) : null,
        // The grace period runs from the first restricting state: past due, then cancelled, is one period.
        statusSince: current && (current.status === data.status || (isRestricting(current.status) && isRestricting(data.status))) ? sql`${billingSubscriptions.statusSince}` : at,
        eventOccurredAt: at,
        updatedAt: new Date(),
      });
      const lockCurrent = () =>
        tx
          .select({ status: billingSubscriptions.status, newer: sql<boolean>`${billingSubscriptions.eventOccurredAt} >= ${at}` })
          .from(billingSubscriptions)
          .where(eq(billingSubscriptions.subscriptionId, data.id))
          .for('update');
      let [current] = await lockCurrent();
      if (!current) {
        const inserted = await tx.insert(billingSubscriptions).values({ subscriptionId: data.id, ...state(undefined) }).onConflictDoNothing().returning({ id: billingSubscriptions.subscriptionId });
        if (inserted.length === 1) return 'applied';
        // Another notification of the same new subscription (created and activated arrive together)
        // inserted it first; once committed, this statement sees it. Invisible: another tenant holds
        // the id, and a subscription never moves between tenants.
        [current] = await lockCurrent();
        if (!current) throw new AppError('conflict', 'The subscription belongs to another organisation');
      }
      if (current.newer) {
        await tx.update(billingEvents).set({ applied: false }).where(eq(billingEvents.eventId, event.event_id));
        return 'stale';
      }
      await tx.update(billingSubscriptions).set(state(current)).where(and(eq(billingSubscriptions.subscriptionId, data.id), eq(billingSubscriptions.tenantId, tenant.id)));
      return 'applied';
    });
    if (outcome === 'applied') app.log.info({ vendor: 'paddle', eventId: event.event_id, eventType: event.event_type, status: data.status }, 'billing notification applied');
    return answer(200, event.event_id, event.event_type, outcome);
  });
}
