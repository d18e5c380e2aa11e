import type { BillingNotice, BillingOverview } from '../contract';
import { apiQuery } from '../cube';

export type { BillingNotice, BillingOverview };

/** Every member's banner; a 404 means billing is off on this server. */
export const billingNoticeQuery = apiQuery('GET /api/billing/notice');
/** The owner's page. */
export const billingQuery = apiQuery('GET /api/billing');
