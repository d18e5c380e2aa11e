import type { BillingNotice, BillingOverview, Data } from '../contract';
import { apiQuery } from '../cube';

export type { BillingNotice, BillingOverview };

/** Every member's banner; a 404 means billing is off on this server. */
export const billingNoticeQuery = apiQuery<Data<BillingNotice>>('/api/billing/notice');
/** The owner's page. */
export const billingQuery = apiQuery<Data<BillingOverview>>('/api/billing');
