import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Secrets we issue (API keys, session ids, magic-link tokens) carry 32+ random bytes, so a plain
 * SHA-256 is a sufficient one-way hash; the lookup by hash is an index probe, never a comparison.
 */
export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** Constant-time comparison of two strings of possibly different lengths. */
export function safeEqual(a: string, b: string): boolean {
  const left = createHash('sha256').update(a).digest();
  const right = createHash('sha256').update(b).digest();
  return timingSafeEqual(left, right) && a.length === b.length;
}
