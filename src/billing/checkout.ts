/**
 * What the owner's checkout passes to Paddle as custom data: the tenant id and a proof that this
 * server issued it to an owner of that tenant (an HMAC under a key derived from
 * OAUTH_ENCRYPTION_KEY). Custom data is written by the browser, so without the proof anyone who
 * learned a tenant id could attach a subscription to it, and then cancel it.
 */
import { createHmac } from 'node:crypto';
import { safeEqual } from '../auth/secrets.js';
import { derive } from '../auth/crypto.js';

const proofKey = (master: Buffer) => derive(master, 'billing-checkout');

export interface CheckoutCustomData {
  tenantId: string;
  tenantProof: string;
}

export function checkoutCustomData(master: Buffer, tenantId: string): CheckoutCustomData {
  return { tenantId, tenantProof: createHmac('sha256', proofKey(master)).update(tenantId).digest('base64url') };
}

export function isProvenTenant(master: Buffer, data: { tenantId?: unknown; tenantProof?: unknown } | null | undefined): data is CheckoutCustomData {
  if (!data || typeof data.tenantId !== 'string' || typeof data.tenantProof !== 'string') return false;
  return safeEqual(checkoutCustomData(master, data.tenantId).tenantProof, data.tenantProof);
}
