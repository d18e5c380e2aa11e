/**
 * The one outbound call of billing: reading a subscription back from Paddle's API with
 * BILLING_API_KEY (the official SDK, pointed at BILLING_API_URL), to confirm a subscription before
 * a tenant is first bound to it. Nothing is ever created at Paddle by this server.
 */
import { ApiError, Paddle, type Environment } from '@paddle/paddle-node-sdk';
import type { BillingConfig } from '../config.js';
import { AppError } from '../errors.js';

export interface VendorSubscription {
  id: string;
  status: string;
  customData: Record<string, unknown> | null;
}

/** The subscription as Paddle holds it now; null when Paddle does not know it. */
export async function readSubscription(config: BillingConfig, subscriptionId: string): Promise<VendorSubscription | null> {
  // The SDK takes a full origin in place of its environment names.
  const paddle = new Paddle(config.apiKey, { environment: config.apiUrl as Environment });
  try {
    const s = await paddle.subscriptions.get(subscriptionId);
    return { id: s.id, status: s.status, customData: (s.customData as Record<string, unknown> | null) ?? null };
  } catch (error) {
    if (error instanceof ApiError && error.code === 'not_found') return null;
    // Unreachable, refusing our key, or answering nonsense: Paddle retries the notification later.
    throw new AppError('unavailable', 'Paddle could not confirm the subscription; the notification will be retried');
  }
}
