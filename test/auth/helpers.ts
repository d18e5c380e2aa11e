import { randomBytes, randomInt } from 'node:crypto';
import { loginTokens } from '../../src/db/schema/index.js';
import { sha256 } from '../../src/auth/secrets.js';
import { dbFor } from '../helpers/factories.js';
import type { HttpClient, Response } from '../helpers/server.js';

/**
 * Unauthenticated requests are limited to 10 a minute per client address; the app trusts
 * X-Forwarded-For from loopback (baseEnv sets TRUSTED_PROXIES), so each test speaks from an address of its own.
 */
export function fromNewAddress(client: HttpClient): HttpClient {
  return client.with({ 'x-forwarded-for': `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}` });
}

export function setCookies(res: Response): string[] {
  return res.headers.getSetCookie();
}

/** The value a response sets for cookie `name` (undefined when it sets none). */
export function cookieValue(res: Response, name: string): string | undefined {
  const header = setCookies(res).find((c) => c.startsWith(`${name}=`));
  return header === undefined ? undefined : (header.split(';')[0] as string).slice(name.length + 1);
}

export function hiddenField(html: string, name: string): string | undefined {
  return new RegExp(`<input type="hidden" name="${name}" value="([^"]*)">`).exec(html)?.[1];
}

/** A login-token row as POST /auth/email stores it, with a token the test knows. */
export async function insertLoginToken(databaseUrl: string, email: string, options: { returnUrl?: string | null; expiresAt?: Date } = {}): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await dbFor(databaseUrl).db.insert(loginTokens).values({
    tokenHash: sha256(token),
    email,
    returnUrl: options.returnUrl === undefined ? '/' : options.returnUrl,
    expiresAt: options.expiresAt ?? new Date(Date.now() + 15 * 60_000),
  });
  return token;
}

export function tokenOf(link: string): string {
  return new URL(link).searchParams.get('token') as string;
}
