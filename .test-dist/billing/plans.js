import { BILLING_PLANS } from "../config/index.js";
const PLAN_BANDS = {
  individual: { min: 1, max: 1 },
  small_team: { min: 2, max: 10 },
  large_team: { min: 11, max: 50 },
  enterprise: { min: 51, max: null }
};
const PLAN_NAMES = {
  individual: "Individual",
  small_team: "Small team",
  large_team: "Large team",
  enterprise: "Enterprise"
};
function planOfPrice(config, priceId) {
  if (!priceId) return null;
  return BILLING_PLANS.find((plan) => config.priceIds[plan] === priceId) ?? null;
}
function planForSeats(seats) {
  const n = Math.max(1, seats);
  return BILLING_PLANS.find((plan) => PLAN_BANDS[plan].max === null || n <= PLAN_BANDS[plan].max);
}
function isOverBand(plan, seats) {
  const { max } = PLAN_BANDS[plan];
  return max !== null && seats > max;
}
export {
  PLAN_BANDS,
  PLAN_NAMES,
  isOverBand,
  planForSeats,
  planOfPrice
};
