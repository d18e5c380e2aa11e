import { createCipheriv, createDecipheriv, createHash, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Keys of the OAuth layer, all derived from OAUTH_ENCRYPTION_KEY with HKDF so that one secret
 * serves several purposes without a key ever being used for two: the stored-payload cipher, the
 * cookie signatures shared with oidc-provider, and the consent form's CSRF tokens. Every instance
 * derives the same keys, so any instance can continue any step.
 */
export interface OAuthKeys {
  storage: Buffer;
  cookies: string[];
  csrf: Buffer;
}

/** A 32-byte key for one purpose, derived from OAUTH_ENCRYPTION_KEY (never the master key itself). */
export const derive = (master: Buffer, purpose: string) => Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), `delivery-analytics/${purpose}`, 32));

const cache = new WeakMap<Buffer, OAuthKeys>();

export function oauthKeys(master: Buffer): OAuthKeys {
  let keys = cache.get(master);
  if (!keys) {
    keys = {
      storage: derive(master, 'oauth-storage'),
      cookies: [derive(master, 'oauth-cookies').toString('base64url')],
      csrf: derive(master, 'oauth-csrf'),
    };
    cache.set(master, keys);
  }
  return keys;
}

/** AES-256-GCM; output is base64url(iv ‖ tag ‖ ciphertext). `aad` binds the ciphertext to its row. */
export function seal(key: Buffer, plaintext: string, aad: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(aad, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

/** Throws when the ciphertext was altered, moved to another row, or sealed under another key. */
export function open(key: Buffer, sealed: string, aad: string): string {
  const raw = Buffer.from(sealed, 'base64url');
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
  decipher.setAAD(Buffer.from(aad, 'utf8'));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
}

export function sha256hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** A CSRF token bound to one login session and one authorization request. */
export function csrfToken(key: Buffer, sessionId: string, interactionUid: string): string {
  return createHmac('sha256', key).update(`${sessionId}\n${interactionUid}`).digest('base64url');
}

export function csrfValid(key: Buffer, sessionId: string, interactionUid: string, presented: unknown): boolean {
  if (typeof presented !== 'string' || presented.length > 100) return false;
  const expected = Buffer.from(csrfToken(key, sessionId, interactionUid));
  const given = Buffer.from(presented);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
