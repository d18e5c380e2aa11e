import { and, eq, lt, sql } from "drizzle-orm";
import { webhookDeliveries } from "../../db/schema/index.js";
import { asSystem } from "../../db/tenancy.js";
const KEEP_HOURS = 24;
async function claimDelivery(db, vendor, id) {
  return asSystem("inbound-routing", async () => {
    const claimed = await db.insert(webhookDeliveries).values({ vendor, deliveryId: id }).onConflictDoNothing().returning({ id: webhookDeliveries.deliveryId });
    await db.delete(webhookDeliveries).where(lt(webhookDeliveries.receivedAt, sql`now() - make_interval(hours => ${KEEP_HOURS})`));
    return claimed.length > 0;
  });
}
async function releaseDelivery(db, vendor, id) {
  await asSystem("inbound-routing", () => db.delete(webhookDeliveries).where(and(eq(webhookDeliveries.vendor, vendor), eq(webhookDeliveries.deliveryId, id))));
}
async function onceForDelivery(db, vendor, id, duplicate, work) {
  if (!await claimDelivery(db, vendor, id)) return duplicate;
  try {
    return await work();
  } catch (error) {
    await releaseDelivery(db, vendor, id).catch(() => void 0);
    throw error;
  }
}
export {
  claimDelivery,
  onceForDelivery,
  releaseDelivery
};
