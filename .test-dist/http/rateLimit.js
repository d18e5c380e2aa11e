import { RateLimiterPostgres, RateLimiterRes } from "rate-limiter-flexible";
import { AppError } from "../errors.js";
const LIMITS = {
  general: { name: "general", points: 100, durationSeconds: 60 },
  anonymous: { name: "anon", points: 10, durationSeconds: 60 },
  webhookMinute: { name: "wh-min", points: 100, durationSeconds: 60 },
  webhookHour: { name: "wh-hour", points: 1e3, durationSeconds: 3600 }
};
const limiters = /* @__PURE__ */ new WeakMap();
function limiterFor(app, limit) {
  let byName = limiters.get(app);
  if (!byName) limiters.set(app, byName = /* @__PURE__ */ new Map());
  let limiter = byName.get(limit.name);
  if (!limiter) {
    limiter = new RateLimiterPostgres({
      storeClient: app.database.pool,
      // Named, since the pool's class is ours (src/db/client.ts), not pg's Pool the library recognises.
      storeType: "pool",
      tableName: "rate_limits",
      // The table comes from our migrations: the server never runs DDL.
      tableCreated: true,
      keyPrefix: limit.name,
      points: limit.points,
      duration: limit.durationSeconds
    });
    byName.set(limit.name, limiter);
  }
  return limiter;
}
async function consume(app, key, limits, points = 1) {
  let tightest = null;
  let refused = null;
  for (const limit of limits) {
    let res;
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
    throw new AppError("rate_limited", "Too many requests; retry after the time given in Retry-After", void 0, {
      ...headersOf(refused),
      "Retry-After": String(Math.max(1, refused.resetSeconds))
    });
  }
  return tightest;
}
function state(limit, res) {
  return {
    limit: limit.points,
    remaining: Math.max(0, res.remainingPoints),
    resetSeconds: Math.max(0, Math.ceil(res.msBeforeNext / 1e3))
  };
}
function headersOf(s) {
  return { "RateLimit-Limit": String(s.limit), "RateLimit-Remaining": String(s.remaining), "RateLimit-Reset": String(s.resetSeconds) };
}
export {
  LIMITS,
  consume,
  headersOf
};
