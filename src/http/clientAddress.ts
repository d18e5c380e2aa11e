/**
 * The client's address. `X-Forwarded-For` (and the other `X-Forwarded-*` headers) count only when
 * the connection comes from a trusted proxy (TRUSTED_PROXIES); from anyone else they are dropped,
 * so a sender cannot pick its own rate-limit bucket or claim another scheme or host.
 *
 * Behind trusted proxies the client is the right-most `X-Forwarded-For` entry that is not itself a
 * trusted proxy: every proxy appends the address it saw, so entries left of that are the client's
 * own claims.
 */
import { BlockList, isIP } from 'node:net';
import type Koa from 'koa';
import type { Cidr } from '../config/index.js';

const FORWARDED = ['x-forwarded-for', 'x-forwarded-proto', 'x-forwarded-host'];

/** `::ffff:10.0.0.1` (an IPv4 peer on a dual-stack socket) is `10.0.0.1`. */
function plain(address: string): string {
  const trimmed = address.trim();
  return trimmed.startsWith('::ffff:') && isIP(trimmed.slice(7)) === 4 ? trimmed.slice(7) : trimmed;
}

export function trustedProxies(cidrs: readonly Cidr[]): (address: string) => boolean {
  const list = new BlockList();
  for (const cidr of cidrs) list.addSubnet(cidr.address, cidr.prefix, cidr.family === 6 ? 'ipv6' : 'ipv4');
  return (address) => {
    const ip = plain(address);
    const family = isIP(ip);
    return family !== 0 && cidrs.length > 0 && list.check(ip, family === 6 ? 'ipv6' : 'ipv4');
  };
}

/** Sets `ctx.ip` (rate-limit buckets, logs) and removes forwarded headers an untrusted peer sent. */
export function clientAddress(cidrs: readonly Cidr[]): Koa.Middleware {
  const trusted = trustedProxies(cidrs);
  return async (ctx, next) => {
    const peer = plain(ctx.req.socket.remoteAddress ?? '');
    if (!trusted(peer)) {
      for (const name of FORWARDED) delete ctx.req.headers[name];
      ctx.request.ip = peer;
    } else {
      const hops = (ctx.get('x-forwarded-for') || '').split(',').map(plain).filter((a) => a !== '');
      let client = peer;
      for (let i = hops.length - 1; i >= 0; i--) {
        client = hops[i] as string;
        if (!trusted(client)) break;
      }
      ctx.request.ip = isIP(client) ? client : peer;
    }
    await next();
  };
}
