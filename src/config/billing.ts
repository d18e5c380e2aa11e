/** Paddle Billing (docs/billing.md): nothing of billing exists while BILLING_ENABLED is off. */
import { parseHttpUrl, withoutTrailingSlash, type Reader } from './reader.js';

/** The four plans, by seat band (src/billing/plans.ts). */
export const BILLING_PLANS = ['individual', 'small_team', 'large_team', 'enterprise'] as const;
export type BillingPlan = (typeof BILLING_PLANS)[number];

export interface BillingConfig {
  apiKey: string;
  webhookSecret: string;
  /** Paddle.js's client-side token; sandbox tokens begin `test_`. */
  clientToken: string;
  priceIds: Record<BillingPlan, string>;
  /** BILLING_API_URL: Paddle's API origin (default https://api.paddle.com; the sandbox, or a fake in tests). */
  apiUrl: string;
}

const BILLING_VARIABLES = [
  'BILLING_API_KEY',
  'BILLING_WEBHOOK_SECRET',
  'BILLING_CLIENT_TOKEN',
  'BILLING_INDIVIDUAL_PRICE_ID',
  'BILLING_SMALL_TEAM_PRICE_ID',
  'BILLING_LARGE_TEAM_PRICE_ID',
  'BILLING_ENTERPRISE_PRICE_ID',
];

/** The billing group: every variable once BILLING_ENABLED is on; BILLING_API_URL is an optional override. */
export function parseBilling(r: Reader, production: boolean): BillingConfig | null {
  const apiUrl = parseHttpUrl(r, 'BILLING_API_URL', r.get('BILLING_API_URL'));
  if (!r.boolean('BILLING_ENABLED', false)) return null;
  if (apiUrl && production && apiUrl.protocol !== 'https:') r.problems.push('BILLING_API_URL must use https when NODE_ENV is production');
  const g = r.enabledGroup('billing group (BILLING_ENABLED)', BILLING_VARIABLES);
  if (!g) return null;
  return {
    apiKey: g.BILLING_API_KEY as string,
    webhookSecret: g.BILLING_WEBHOOK_SECRET as string,
    clientToken: g.BILLING_CLIENT_TOKEN as string,
    priceIds: {
      individual: g.BILLING_INDIVIDUAL_PRICE_ID as string,
      small_team: g.BILLING_SMALL_TEAM_PRICE_ID as string,
      large_team: g.BILLING_LARGE_TEAM_PRICE_ID as string,
      enterprise: g.BILLING_ENTERPRISE_PRICE_ID as string,
    },
    apiUrl: apiUrl ? withoutTrailingSlash(apiUrl) : 'https://api.paddle.com',
  };
}
