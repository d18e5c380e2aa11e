/**
 * Survey access links: `APP_URL/s/<token>`, where the token names the invitation and its expiry and
 * is signed with HMAC-SHA256. The key is derived from DATABASE_URL, so every instance (and a
 * serverless worker that only has DATABASE_URL) verifies a link without a table lookup, and
 * changing DATABASE_URL invalidates every link:
 *
 *   key   = HKDF-SHA256(ikm = DATABASE_URL, salt = "delivery-analytics", info = "survey-links/v1", 32 bytes)
 *   token = base64url("<invitationId>.<expiresAtUnixSeconds>") "." base64url(HMAC-SHA256(key, that payload))
 *
 * A second derivation of the same key gives each invitation's anonymous response key.
 */
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { isUuid } from '../shared/schemas.js';


export function surveyLinkKey(databaseUrl: string): Buffer {
  return Buffer.from(hkdfSync('sha256', databaseUrl, 'delivery-analytics', 'survey-links/v1', 32));
}

export function signSurveyToken(key: Buffer, invitationId: string, expiresAt: Date): string {
  const payload = `${invitationId}.${Math.floor(expiresAt.getTime() / 1000)}`;
  const mac = createHmac('sha256', key).update(payload).digest('base64url');
  return `${Buffer.from(payload).toString('base64url')}.${mac}`;
}

export type TokenCheck = { ok: true; invitationId: string; expiresAt: Date } | { ok: false; reason: 'invalid' | 'expired' };

export function verifySurveyToken(key: Buffer, token: string, now = new Date()): TokenCheck {
  const [encoded, mac, ...rest] = token.split('.');
  if (!encoded || !mac || rest.length > 0 || token.length > 200) return { ok: false, reason: 'invalid' };
  const payload = Buffer.from(encoded, 'base64url').toString('utf8');
  const expected = createHmac('sha256', key).update(payload).digest();
  const given = Buffer.from(mac, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'invalid' };
  const [invitationId, seconds] = payload.split('.');
  if (!invitationId || !isUuid(invitationId) || !seconds || !/^\d+$/.test(seconds)) return { ok: false, reason: 'invalid' };
  const expiresAt = new Date(Number(seconds) * 1000);
  if (expiresAt.getTime() <= now.getTime()) return { ok: false, reason: 'expired' };
  return { ok: true, invitationId, expiresAt };
}

/** The anonymous key of an invitation's response: same link, same row; no way back to the invitation without the key. */
export function responseKey(key: Buffer, invitationId: string): string {
  return createHmac('sha256', key).update(`response:${invitationId}`).digest('hex');
}

/** Links stop working at the end of the close day (UTC). */
export function linkExpiry(closesOn: string): Date {
  return new Date(Date.parse(`${closesOn}T00:00:00Z`) + 24 * 3600_000);
}
