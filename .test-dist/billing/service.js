import { authorize } from "../auth/policies.js";
import { BILLING_PLANS } from "../config/index.js";
import { cubeLoad } from "../cube/service.js";
import { checkoutCustomData } from "./checkout.js";
import { currentSubscription, entitlementOf, GRACE_PERIOD_DAYS, readOnlyMessage } from "./entitlements.js";
import { isOverBand, PLAN_BANDS, PLAN_NAMES, planForSeats } from "./plans.js";
async function seatsUsed(app, tenantId) {
  const { data } = await cubeLoad(app.database.pool, { tenantId }, { measures: ["people.count"] });
  return Number(data[0]?.["people.count"] ?? 0);
}
const iso = (d) => d ? d.toISOString() : null;
function notices(e, plan, seats) {
  const band = plan ? PLAN_BANDS[plan] : null;
  return {
    readOnly: e.readOnly ? readOnlyMessage(e) : null,
    grace: !e.readOnly && e.graceEndsAt ? `The subscription is ${e.state === "canceled" ? "cancelled" : e.state.replace("_", " ")}. Everything keeps working until ${e.graceEndsAt.toISOString().slice(0, 10)} (a ${GRACE_PERIOD_DAYS}-day grace period); after that the organisation becomes read-only until an owner restores the subscription under Settings \u203A Billing.` : null,
    overBand: plan && band && isOverBand(plan, seats) ? `The register holds ${seats} people, more than the ${band.max} seats of the ${PLAN_NAMES[plan]} plan. Nothing is blocked or removed; an owner can move to the ${PLAN_NAMES[planForSeats(seats)]} plan under Settings \u203A Billing.` : null
  };
}
async function billingOverview(app, principal) {
  authorize(principal, "billing.manage");
  const { tenantId } = principal;
  const billing = app.config.billing;
  const [row, seats] = await Promise.all([currentSubscription(app.database.db, tenantId), seatsUsed(app, tenantId)]);
  const entitlement = entitlementOf(row);
  const plan = row?.plan ?? null;
  return {
    state: entitlement.state,
    readOnly: entitlement.readOnly,
    graceEndsAt: iso(entitlement.graceEndsAt),
    plan,
    planName: plan ? PLAN_NAMES[plan] : null,
    renewsAt: entitlement.state === "active" || entitlement.state === "trialing" ? iso(row?.renewsAt ?? null) : null,
    seats: { used: seats, band: plan ? PLAN_BANDS[plan] : null },
    overBand: plan ? isOverBand(plan, seats) : false,
    notices: notices(entitlement, plan, seats),
    recommendedPlan: planForSeats(seats),
    plans: BILLING_PLANS.map((p) => ({ plan: p, name: PLAN_NAMES[p], band: PLAN_BANDS[p], priceId: billing.priceIds[p] })),
    checkout: {
      clientToken: billing.clientToken,
      // Paddle's sandbox client tokens begin `test_`; Paddle.js must be told which environment it is in.
      environment: billing.clientToken.startsWith("test_") ? "sandbox" : "production",
      customData: checkoutCustomData(app.config.oauthEncryptionKey, tenantId)
    }
  };
}
async function billingNotice(app, tenantId) {
  const row = await currentSubscription(app.database.db, tenantId);
  const entitlement = entitlementOf(row);
  const plan = row?.plan ?? null;
  const seats = plan ? await seatsUsed(app, tenantId) : 0;
  const n = notices(entitlement, plan, seats);
  return { state: entitlement.state, readOnly: entitlement.readOnly, graceEndsAt: iso(entitlement.graceEndsAt), overBand: n.overBand !== null, message: n.readOnly ?? n.grace ?? n.overBand };
}
export {
  billingNotice,
  billingOverview,
  seatsUsed
};
