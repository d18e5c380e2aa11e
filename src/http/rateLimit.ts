import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import type { AppContext } from '../context.js';
import { AppError } from '../errors.js';

/**
 * The spec's limits, counted in PostgreSQL so they hold across every instance:
 * - general API: 100 requests a minute per authenticated principal (user in a tenant, API key,
 *   or the administrator), 10 a minute per client address when unauthenticated;
 * - webhook API: 100 a minute and 1000 an hour per API key (counted on the key's row by
 *   src/webhooks/gate.ts; only the figures are here).
 * The webhook and general buckets are separate: a key's webhook traffic does not use up its
 * general-API allowance, nor the reverse.
 */
export interface Limit {
  name: string;
  points: number;
  durationSeconds: number;
}

export const LIMITS = {
  general: { name: 'general', points: 100, durationSeconds: 60 },
  anonymous: { name: 'anon', points: 10, durationSeconds: 60 },
  webhookMinute: { name: 'wh-min', points: 100, durationSeconds: 60 },
  webhookHour: { name: 'wh-hour', points: 1000, durationSeconds: 3600 },
} satisfies Record<string, Limit>;

const limiters = new WeakMap<AppContext, Map<string, RateLimiterPostgres>>();

function limiterFor(app: AppContext, limit: Limit): RateLimiterPostgres {
  let byName = limiters.get(app);
  if (!byName) limiters.set(app, (byName = new Map()));
  let limiter = byName.get(limit.name);
  if (!limiter) {
    limiter = new RateLimiterPostgres({
      storeClient: app.database.pool,
      // Named, since the pool's class is ours (src/db/client.ts), not pg's Pool the library recognises.
      storeType: 'pool',
      tableName: 'rate_limits',
      // The table comes from our migrations: the server never runs DDL.
      tableCreated: true,
      keyPrefix: limit.name,
      points: limit.points,
      duration: limit.durationSeconds,
    });
    byName.set(limit.name, limiter);
  }
  return limiter;
}

export interface LimitState {
  limit: number;
  remaining: number;
  resetSeconds: number;
}

/**
 * Consumes `points` (one request each) from each limit; throws 429 when any is exhausted. Returns
 * the most constraining state for the RateLimit-* headers.
 */
export async function consume(app: AppContext, key: string, limits: Limit[], points = 1): Promise<LimitState> {
  let tightest: LimitState | null = null;
  let refused: LimitState | null = null;
  for (const limit of limits) {
    let res: RateLimiterRes;
    try {
      res = await limiterFor(app, limit).consume(key, points);
    } catch (rejected) {
      if (!(rejected instanceof RateLimiterRes)) throw rejected;
      res = rejected;
      refused ??= state(limit, res);
      continue;
    }
    const current = state(limit, res);
    if (!tightest || current.remaining < tightest.remaining) tightest = current;
  }
  if (refused) {
    throw new AppError('rate_limited', 'Too many requests; retry after the time given in Retry-After', undefined, {
      ...headersOf(refused),
      'Retry-After': String(Math.max(1, refused.resetSeconds)),
    });
  }
  return tightest as LimitState;
}

function state(limit: Limit, res: RateLimiterRes): LimitState {
  return {
    limit: limit.points,
    remaining: Math.max(0, res.remainingPoints),
    resetSeconds: Math.max(0, Math.ceil(res.msBeforeNext / 1000)),
  };
}

export function headersOf(s: LimitState): Record<string, string> {
  return { 'RateLimit-Limit': String(s.limit), 'RateLimit-Remaining': String(s.remaining), 'RateLimit-Reset': String(s.resetSeconds) };
}
