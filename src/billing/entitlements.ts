/**
 * What a tenant may do under its subscription (docs/billing.md "Entitlements"). With billing off
 * every entitlement is unlimited and nothing here reads the database. With it on, a subscription
 * past due, paused or cancelled for longer than the grace period makes the tenant read-only: the
 * web app's and API's changes are refused (route() checks once, src/http/route.ts), while exports,
 * MCP, the cube and every kind of ingest keep working so no data is lost. Seats over the plan's
 * band only ever raise a notice.
 */
import { desc, eq, sql } from 'drizzle-orm';
import type { AppContext } from '../context.js';
import type { Db } from '../db/client.js';
import { billingSubscriptions } from '../db/schema/index.js';
import { AppError } from '../errors.js';

export const GRACE_PERIOD_DAYS = 14;
const DAY_MS = 24 * 3600 * 1000;

/** Paddle's subscription statuses, and `none` before any verified notification. */
export type BillingState = 'none' | 'active' | 'trialing' | 'past_due' | 'paused' | 'canceled';
const RESTRICTING = new Set<string>(['past_due', 'paused', 'canceled']);
/** A state that starts (or continues) the grace period. */
export const isRestricting = (status: string): boolean => RESTRICTING.has(status);

export type SubscriptionRow = typeof billingSubscriptions.$inferSelect;

export interface Entitlement {
  state: BillingState;
  /** When a restricting state turns (or turned) the tenant read-only; null while none applies. */
  graceEndsAt: Date | null;
  readOnly: boolean;
}

/**
 * The subscription that speaks for the tenant: a working one (active, trialing) if any, else the
 * one most recently heard of. A tenant that cancelled an old subscription after buying a new one
 * is governed by the new one.
 */
export async function currentSubscription(db: Db, tenantId: string): Promise<SubscriptionRow | null> {
  const [row] = await db
    .select()
    .from(billingSubscriptions)
    .where(eq(billingSubscriptions.tenantId, tenantId))
    .orderBy(sql`(${billingSubscriptions.status} in ('active', 'trialing')) desc`, desc(billingSubscriptions.eventOccurredAt))
    .limit(1);
  return row ?? null;
}

export function entitlementOf(row: SubscriptionRow | null, now = new Date()): Entitlement {
  if (!row) return { state: 'none', graceEndsAt: null, readOnly: false };
  const state = row.status as BillingState;
  if (!RESTRICTING.has(state)) return { state, graceEndsAt: null, readOnly: false };
  const graceEndsAt = new Date(row.statusSince.getTime() + GRACE_PERIOD_DAYS * DAY_MS);
  return { state, graceEndsAt, readOnly: now >= graceEndsAt };
}

const STATE_WORDS: Record<string, string> = { past_due: 'past due', paused: 'paused', canceled: 'cancelled' };

/** What to do, in words for the banner and the refusal alike. */
export function readOnlyMessage(e: Entitlement): string {
  return `This organisation is read-only: its subscription is ${STATE_WORDS[e.state] ?? e.state} and the ${GRACE_PERIOD_DAYS}-day grace period ended on ${e.graceEndsAt?.toISOString().slice(0, 10)}. An owner can restore it under Settings › Billing. Exports, MCP, the Cube API and incoming data keep working.`;
}

/**
 * Refuses a change for a read-only tenant (403 `read_only`). Runs in the tenant's scope; with
 * billing off it returns at once.
 */
export async function assertWritable(app: AppContext, tenantId: string): Promise<void> {
  if (!app.config.billing) return;
  const entitlement = entitlementOf(await currentSubscription(app.database.db, tenantId));
  if (entitlement.readOnly) throw new AppError('read_only', readOnlyMessage(entitlement));
}
