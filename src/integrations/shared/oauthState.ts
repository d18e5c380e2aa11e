/**
 * The `state` of an integration's OAuth authorization-code flow: a signed, short-lived token that
 * binds the vendor's callback to the owner and tenant who pressed "Connect", so a callback
 * carrying a code obtained by someone else (login CSRF) or for another tenant is refused. It is
 * stateless (HMAC under a key derived from OAUTH_ENCRYPTION_KEY), so any instance can take the
 * callback.
 */
import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IntegrationKind } from '../../db/schema/index.js';

export const STATE_TTL_SECONDS = 10 * 60;

export interface StateClaims {
  tenantId: string;
  userId: string;
  kind: IntegrationKind;
}

const stateKey = (master: Buffer) => Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), 'delivery-analytics/integration-state', 32));

function sign(master: Buffer, body: string): string {
  return createHmac('sha256', stateKey(master)).update(body).digest('base64url');
}

export function createState(master: Buffer, claims: StateClaims, now = Date.now()): string {
  const expires = Math.floor(now / 1000) + STATE_TTL_SECONDS;
  const body = Buffer.from(JSON.stringify([claims.tenantId, claims.userId, claims.kind, expires, randomBytes(9).toString('base64url')])).toString('base64url');
  return `${body}.${sign(master, body)}`;
}

/** True only for a state this service signed, unexpired, for exactly these claims. */
export function stateValid(master: Buffer, presented: unknown, expected: StateClaims, now = Date.now()): boolean {
  if (typeof presented !== 'string' || presented.length > 512) return false;
  const [body, signature, extra] = presented.split('.');
  if (!body || !signature || extra !== undefined) return false;
  const want = Buffer.from(sign(master, body));
  const given = Buffer.from(signature);
  if (want.length !== given.length || !timingSafeEqual(want, given)) return false;
  let claims: unknown;
  try {
    claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    return false;
  }
  if (!Array.isArray(claims) || claims.length !== 5) return false;
  const [tenantId, userId, kind, expires] = claims as [unknown, unknown, unknown, unknown];
  return tenantId === expected.tenantId && userId === expected.userId && kind === expected.kind && typeof expires === 'number' && expires * 1000 > now;
}
