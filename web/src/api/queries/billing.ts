import { apiQuery } from '../cube';

/** GET /api/billing/notice: every member's banner. A 404 means billing is off on this server. */
export interface BillingNotice {
  state: 'none' | 'active' | 'trialing' | 'past_due' | 'paused' | 'canceled';
  readOnly: boolean;
  graceEndsAt: string | null;
  overBand: boolean;
  message: string | null;
}

export interface SeatBand {
  min: number;
  max: number | null;
}

/** GET /api/billing: the owner's page. */
export interface BillingOverview {
  state: BillingNotice['state'];
  readOnly: boolean;
  graceEndsAt: string | null;
  plan: string | null;
  planName: string | null;
  renewsAt: string | null;
  seats: { used: number; band: SeatBand | null };
  overBand: boolean;
  notices: { readOnly: string | null; grace: string | null; overBand: string | null };
  recommendedPlan: string;
  plans: { plan: string; name: string; band: SeatBand; priceId: string }[];
  checkout: { clientToken: string; environment: 'sandbox' | 'production'; customData: Record<string, string> };
}

export const billingNoticeQuery = apiQuery<{ data: BillingNotice }>('/api/billing/notice');
export const billingQuery = apiQuery<{ data: BillingOverview }>('/api/billing');
