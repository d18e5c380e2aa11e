import { ApiError } from './client';

/**
 * When a failed read is asked again. A 4xx is the answer (not found, forbidden, bad query), except
 * 429: the general API allows 100 requests a minute per person, which a few quick page changes can
 * use up, so the page waits the server's Retry-After and asks again, keeping what it showed.
 */
export const RATE_LIMIT_RETRIES = 3;
const MAX_WAIT_MS = 60_000;

export function retryQuery(count: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status === 429) return count < RATE_LIMIT_RETRIES;
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return count < 2;
}

export function retryDelayOf(count: number, error: unknown): number {
  if (error instanceof ApiError && error.status === 429 && error.retryAfterSeconds !== null) return Math.min(MAX_WAIT_MS, error.retryAfterSeconds * 1000);
  return Math.min(30_000, 1000 * 2 ** count);
}
