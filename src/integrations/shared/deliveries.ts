/**
 * Deliveries of vendor webhooks already taken (table webhook_deliveries), by the id the vendor
 * gives each delivery (Notion's event id, Jira's X-Atlassian-Webhook-Identifier): a delivery
 * replayed within its vendor's replay window, or redelivered, is applied once. The id is claimed
 * before the work and given back when the work fails, so the vendor's own retry still applies it.
 * The code host has its own table (codehost_deliveries), claimed in the transaction of its work.
 */
import { and, eq, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { webhookDeliveries } from '../../db/schema/index.js';
import { asSystem } from '../../db/tenancy.js';

export type DeliveryVendor = 'notion' | 'jira';

/** Far beyond every replay window (Notion 5 minutes, Jira's token 10 minutes). */
const KEEP_HOURS = 24;

/** True when `id` is new for `vendor` (now claimed); false when it was taken before. */
export async function claimDelivery(db: Db, vendor: DeliveryVendor, id: string): Promise<boolean> {
  return asSystem('inbound-routing', async () => {
    const claimed = await db.insert(webhookDeliveries).values({ vendor, deliveryId: id }).onConflictDoNothing().returning({ id: webhookDeliveries.deliveryId });
    // Cheap on the index, and no schedule to keep: ids past every replay window go as new ones come.
    await db.delete(webhookDeliveries).where(lt(webhookDeliveries.receivedAt, sql`now() - make_interval(hours => ${KEEP_HOURS})`));
    return claimed.length > 0;
  });
}

/** Gives a claim back when its work failed, so the vendor's retry is not taken for a replay. */
export async function releaseDelivery(db: Db, vendor: DeliveryVendor, id: string): Promise<void> {
  await asSystem('inbound-routing', () => db.delete(webhookDeliveries).where(and(eq(webhookDeliveries.vendor, vendor), eq(webhookDeliveries.deliveryId, id))));
}

/** Runs `work` once per delivery id: a taken id returns `duplicate` without running it. */
export async function onceForDelivery<T>(db: Db, vendor: DeliveryVendor, id: string, duplicate: T, work: () => Promise<T>): Promise<T> {
  if (!(await claimDelivery(db, vendor, id))) return duplicate;
  try {
    return await work();
  } catch (error) {
    await releaseDelivery(db, vendor, id).catch(() => undefined);
    throw error;
  }
}
