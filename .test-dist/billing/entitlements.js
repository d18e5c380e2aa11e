import { desc, eq, sql } from "drizzle-orm";
import { billingSubscriptions } from "../db/schema/index.js";
import { AppError } from "../errors.js";
const GRACE_PERIOD_DAYS = 14;
const DAY_MS = 24 * 3600 * 1e3;
const RESTRICTING = /* @__PURE__ */ new Set(["past_due", "paused", "canceled"]);
const isRestricting = (status) => RESTRICTING.has(status);
async function currentSubscription(db, tenantId) {
  const [row] = await db.select().from(billingSubscriptions).where(eq(billingSubscriptions.tenantId, tenantId)).orderBy(sql`(${billingSubscriptions.status} in ('active', 'trialing')) desc`, desc(billingSubscriptions.eventOccurredAt)).limit(1);
  return row ?? null;
}
function entitlementOf(row, now = /* @__PURE__ */ new Date()) {
  if (!row) return { state: "none", graceEndsAt: null, readOnly: false };
  const state = row.status;
  if (!RESTRICTING.has(state)) return { state, graceEndsAt: null, readOnly: false };
  const graceEndsAt = new Date(row.statusSince.getTime() + GRACE_PERIOD_DAYS * DAY_MS);
  return { state, graceEndsAt, readOnly: now >= graceEndsAt };
}
const STATE_WORDS = { past_due: "past due", paused: "paused", canceled: "cancelled" };
function readOnlyMessage(e) {
  return `This organisation is read-only: its subscription is ${STATE_WORDS[e.state] ?? e.state} and the ${GRACE_PERIOD_DAYS}-day grace period ended on ${e.graceEndsAt?.toISOString().slice(0, 10)}. An owner can restore it under Settings \u203A Billing. Exports, MCP, the Cube API and incoming data keep working.`;
}
async function assertWritable(app, tenantId) {
  if (!app.config.billing) return;
  const entitlement = entitlementOf(await currentSubscription(app.database.db, tenantId));
  if (entitlement.readOnly) throw new AppError("read_only", readOnlyMessage(entitlement));
}
export {
  GRACE_PERIOD_DAYS,
  assertWritable,
  currentSubscription,
  entitlementOf,
  isRestricting,
  readOnlyMessage
};
