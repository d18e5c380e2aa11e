/**
 * The four plans and their seat bands (docs/billing.md). A plan is one Paddle price, bought with
 * quantity 1: the band, not the exact head count, is what is paid for, so a register import that
 * adds a person never changes an invoice by itself.
 */
import { BILLING_PLANS, type BillingConfig, type BillingPlan } from '../config/index.js';

export interface SeatBand {
  min: number;
  /** null: no upper bound. */
  max: number | null;
}

export const PLAN_BANDS: Record<BillingPlan, SeatBand> = {
  individual: { min: 1, max: 1 },
  small_team: { min: 2, max: 10 },
  large_team: { min: 11, max: 50 },
  enterprise: { min: 51, max: null },
};

export const PLAN_NAMES: Record<BillingPlan, string> = {
  individual: 'Individual',
  small_team: 'Small team',
  large_team: 'Large team',
  enterprise: 'Enterprise',
};

/** The plan a price id was configured for; null for a price this deployment does not sell. */
export function planOfPrice(config: BillingConfig, priceId: string | null | undefined): BillingPlan | null {
  if (!priceId) return null;
  return BILLING_PLANS.find((plan) => config.priceIds[plan] === priceId) ?? null;
}

/** The smallest plan whose band holds `seats` (an empty register counts as one seat). */
export function planForSeats(seats: number): BillingPlan {
  const n = Math.max(1, seats);
  return BILLING_PLANS.find((plan) => PLAN_BANDS[plan].max === null || n <= (PLAN_BANDS[plan].max as number)) as BillingPlan;
}

export function isOverBand(plan: BillingPlan, seats: number): boolean {
  const { max } = PLAN_BANDS[plan];
  return max !== null && seats > max;
}
