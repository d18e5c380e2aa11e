/**
 * Slack's request signing: `v0=` HMAC-SHA256 of `v0:<timestamp>:<raw body>` under the app's
 * signing secret (CHAT_SIGNING_SECRET), in X-Slack-Signature, with X-Slack-Request-Timestamp at
 * most five minutes from now so a captured request cannot be replayed later. Written here rather
 * than taken from @slack/bolt, which would bring a whole web framework for these few lines.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const REPLAY_WINDOW_SECONDS = 5 * 60;

export type SlackVerdict = { ok: true } | { ok: false; reason: 'missing headers' | 'stale timestamp' | 'bad signature' };

export function verifySlackRequest(secret: string, headers: { timestamp: string; signature: string }, body: Buffer, nowMs = Date.now()): SlackVerdict {
  const { timestamp, signature } = headers;
  if (!/^\d{1,12}$/.test(timestamp) || !/^v0=[0-9a-f]{64}$/.test(signature)) return { ok: false, reason: 'missing headers' };
  if (Math.abs(nowMs / 1000 - Number(timestamp)) > REPLAY_WINDOW_SECONDS) return { ok: false, reason: 'stale timestamp' };
  const expected = createHmac('sha256', secret).update(`v0:${timestamp}:`).update(body).digest();
  const given = Buffer.from(signature.slice(3), 'hex');
  return timingSafeEqual(expected, given) ? { ok: true } : { ok: false, reason: 'bad signature' };
}

/** The headers a request signed now would carry (the fakes and tests sign with it). */
export function signSlackRequest(secret: string, body: string | Buffer, timestamp = Math.floor(Date.now() / 1000)): { 'x-slack-request-timestamp': string; 'x-slack-signature': string } {
  const digest = createHmac('sha256', secret).update(`v0:${timestamp}:`).update(body).digest('hex');
  return { 'x-slack-request-timestamp': String(timestamp), 'x-slack-signature': `v0=${digest}` };
}
