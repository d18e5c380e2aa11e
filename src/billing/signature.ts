/**
 * Paddle's notification signature: `Paddle-Signature: ts=<unix seconds>;h1=<hex>` where h1 is the
 * HMAC-SHA256 of `<ts>:<raw body>` under the notification destination's secret
 * (BILLING_WEBHOOK_SECRET). Checked here rather than with the SDK's Webhooks().unmarshal, which
 * compares the digest with `===` (not constant time), fixes its window at 5 seconds with no bound
 * on timestamps from the future, and reads the clock itself (docs/billing.md).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * A notification signed longer ago (or further ahead, for clock skew) than this is refused. Paddle
 * signs each delivery and each retry afresh, so a real one is seconds old; a replay inside the
 * window is harmless because events are taken once by id.
 */
export const REPLAY_WINDOW_SECONDS = 5 * 60;

export type SignatureVerdict = { ok: true } | { ok: false; reason: 'missing or malformed header' | 'stale timestamp' | 'bad signature' };

export function verifyPaddleSignature(secret: string, header: string, body: Buffer, nowMs = Date.now()): SignatureVerdict {
  let ts: string | null = null;
  const digests: Buffer[] = [];
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 'ts' && /^\d{1,12}$/.test(value)) ts = value;
    // During a secret rotation a delivery may carry one h1 per secret.
    else if (key === 'h1' && /^[0-9a-f]{64}$/.test(value)) digests.push(Buffer.from(value, 'hex'));
  }
  if (ts === null || digests.length === 0 || digests.length > 4) return { ok: false, reason: 'missing or malformed header' };
  if (Math.abs(nowMs / 1000 - Number(ts)) > REPLAY_WINDOW_SECONDS) return { ok: false, reason: 'stale timestamp' };
  const expected = createHmac('sha256', secret).update(`${ts}:`).update(body).digest();
  let match = false;
  for (const digest of digests) match = timingSafeEqual(expected, digest) || match;
  return match ? { ok: true } : { ok: false, reason: 'bad signature' };
}

/** The header Paddle would send for `body` signed at `ts` (the fake vendor and tests sign with it). */
export function signPaddleNotification(secret: string, body: string | Buffer, ts = Math.floor(Date.now() / 1000)): string {
  const digest = createHmac('sha256', secret).update(`${ts}:`).update(body).digest('hex');
  return `ts=${ts};h1=${digest}`;
}
