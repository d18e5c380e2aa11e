/** Where the server is reached and listens: APP_URL, PORT, HOST, TRUSTED_PROXIES. */
import { isIP } from 'node:net';
import { parseHttpUrl, type Reader } from './reader.js';

/** One network of TRUSTED_PROXIES. */
export interface Cidr {
  address: string;
  prefix: number;
  family: 4 | 6;
}

export interface ListenerConfig {
  port: number;
  host: string;
  /** TRUSTED_PROXIES: peers whose X-Forwarded-* headers count (src/http/clientAddress.ts). */
  trustedProxies: Cidr[];
}

/** APP_URL (required): https in production. */
export function parseAppUrl(r: Reader, production: boolean): URL | null {
  const appUrl = parseHttpUrl(r, 'APP_URL', r.required('APP_URL'));
  if (appUrl && production && appUrl.protocol !== 'https:') {
    r.problems.push('APP_URL must use https when NODE_ENV is production');
  }
  return appUrl;
}

/**
 * TRUSTED_PROXIES: comma-separated addresses or CIDR networks (`10.0.0.0/8`, `::1`); a bare
 * address is a network of one. Unset: no proxy is trusted.
 */
function parseCidrs(r: Reader, name: string): Cidr[] {
  const raw = r.get(name);
  if (raw === null) return [];
  const cidrs: Cidr[] = [];
  for (const entry of raw.split(',').map((e) => e.trim()).filter(Boolean)) {
    const [address = '', prefixRaw, extra] = entry.split('/');
    const family = isIP(address);
    const max = family === 6 ? 128 : 32;
    const prefix = prefixRaw === undefined ? max : /^\d{1,3}$/.test(prefixRaw) ? Number(prefixRaw) : -1;
    if (family === 0 || extra !== undefined || prefix < 0 || prefix > max) {
      r.problems.push(`${name} must be a comma-separated list of IP addresses or CIDR networks (e.g. 172.30.0.0/16,::1)`);
      return [];
    }
    cidrs.push({ address, prefix, family: family as 4 | 6 });
  }
  return cidrs;
}

export function parseListener(r: Reader): ListenerConfig {
  const port = r.integer('PORT', 3000, 0, 65535);
  const trustedProxies = parseCidrs(r, 'TRUSTED_PROXIES');
  return { port, host: r.get('HOST') ?? '0.0.0.0', trustedProxies };
}
