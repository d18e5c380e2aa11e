/**
 * The one outbound call of billing: reading a subscription back from Paddle's API with
 * BILLING_API_KEY (the official SDK, pointed at BILLING_API_URL), to confirm a subscription before
 * a tenant is first bound to it. Nothing is ever created at Paddle by this server.
 */
import type { Environment } from '@paddle/paddle-node-sdk';
import type { BillingConfig } from '../config/index.js';
import { AppError } from '../errors.js';

export interface VendorSubscription {
  id: string;
  status: string;
  customData: Record<string, unknown> | null;
}

/**
 * How long the read-back may take. The SDK's fetch has no timeout of its own, and a notification
 * held open past Paddle's delivery timeout is retried while the first still waits: each retry
 * would add another call to a Paddle that is already slow.
 */
export const READ_TIMEOUT_MS = 5_000;

function within<T>(ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** The subscription as Paddle holds it now; null when Paddle does not know it. */
export async function readSubscription(config: BillingConfig, subscriptionId: string): Promise<VendorSubscription | null> {
  // Loaded on the first read-back, not at start: the SDK is 0.65 s of CPU to import, and an
  // instance without billing never reads one (docs/architecture.md, "Vendor SDKs load when first used").
  const { ApiError, Paddle } = await import('@paddle/paddle-node-sdk');
  // The SDK takes a full origin in place of its environment names.
  const paddle = new Paddle(config.apiKey, { environment: config.apiUrl as Environment });
  try {
    const s = await within(READ_TIMEOUT_MS, paddle.subscriptions.get(subscriptionId));
    return { id: s.id, status: s.status, customData: (s.customData as Record<string, unknown> | null) ?? null };
  } catch (error) {
    if (error instanceof ApiError && error.code === 'not_found') return null;
    // Unreachable, too slow, refusing our key, or answering nonsense: Paddle retries the notification later.
    throw new AppError('unavailable', 'Paddle could not confirm the subscription; the notification will be retried');
  }
}
