/**
 * The webhook API's front door. Every webhook request is ONE database round trip: the API key
 * lookup, both per-key limits and the upsert run as one statement (gate CTEs in front of the
 * service's upsert, which takes its tenant from the key). Three sequential round trips for
 * authentication and the two limiter upserts were most of a request's cost (docs/webhooks.md).
 *
 * The gate keeps the rules of the rest of the program:
 * - the key: `principalFromApiKey`'s (unrevoked, the creator's current role in the key's tenant,
 *   `last_used_at` at minute precision); bearer only, as route()'s `apiKeyOnly`;
 * - the limits: the rows rate-limiter-flexible keeps for route() (`wh-min:<keyId>`,
 *   `wh-hour:<keyId>`, points, expiry in ms since the epoch) with its upsert rule, so both paths
 *   count the same buckets; a refused request writes nothing but the counters;
 * - 401 counts the caller's address against the anonymous limit, as route() does.
 */
import type Koa from 'koa';
import type { Pool } from 'pg';
import { API_KEY_PREFIX } from '../auth/apiKeys.js';
import { permissionsOf, type Role, type TenantPrincipal } from '../auth/principal.js';
import { sha256 } from '../auth/secrets.js';
import type { AppContext } from '../context.js';
import { AppError } from '../errors.js';
import { consume, headersOf, LIMITS, type LimitState } from './rateLimit.js';

const [MINUTE, HOUR] = [LIMITS.webhookMinute, LIMITS.webhookHour];

/** Gate CTEs. `$1` is the key's hash; `p(0…6)` name its other parameters (see `gateValues`). */
export function gateCtes(p: (i: number) => string): string {
  return `k AS (
  SELECT a.id, a.tenant_id, a.user_id, m.role
  FROM api_keys a
  JOIN tenant_memberships m ON m.tenant_id = a.tenant_id AND m.user_id = a.user_id
  WHERE a.key_hash = $1::text AND a.revoked_at IS NULL
  LIMIT 1
), touched AS (
  UPDATE api_keys SET last_used_at = now()
  WHERE id = (SELECT id FROM k) AND (last_used_at IS NULL OR last_used_at < now() - interval '60 seconds')
  RETURNING 1
), counted AS (
  INSERT INTO rate_limits AS r (key, points, expire)
  SELECT v.prefix || k.id, 1, ${p(0)}::bigint + v.ms
  FROM k, (VALUES (1, ${p(1)}::text, ${p(2)}::bigint), (2, ${p(4)}::text, ${p(5)}::bigint)) AS v(ord, prefix, ms)
  ORDER BY v.ord
  ON CONFLICT (key) DO UPDATE SET
    points = CASE WHEN r.expire <= ${p(0)}::bigint THEN 1 ELSE r.points + 1 END,
    expire = CASE WHEN r.expire <= ${p(0)}::bigint THEN EXCLUDED.expire ELSE r.expire END
  RETURNING r.key, r.points, r.expire
), ok AS (
  SELECT k.* FROM k WHERE NOT EXISTS (
    SELECT 1 FROM counted c, (VALUES (${p(1)}::text, ${p(3)}::int), (${p(4)}::text, ${p(6)}::int)) AS l(prefix, points)
    WHERE c.key = l.prefix || k.id AND c.points > l.points)
), `;
}

export const GATE_COLUMNS = `k.id AS key_id, k.tenant_id, k.user_id, k.role,
  (SELECT json_agg(json_build_array(key, points, expire)) FROM counted) AS counters`;

export function gateValues(now: number): unknown[] {
  return [now, `${MINUTE.name}:`, MINUTE.durationSeconds * 1000, MINUTE.points, `${HOUR.name}:`, HOUR.durationSeconds * 1000, HOUR.points];
}

const GATE_ONLY = `WITH ${gateCtes((i) => `$${i + 2}`)} done AS (SELECT 1) SELECT ${GATE_COLUMNS} FROM k`;

export interface GateRow {
  key_id: string;
  tenant_id: string;
  user_id: string;
  role: Role;
  counters: [string, number, number][];
}

/** The API key of `Authorization: Bearer gai_…`, or null (an admin header or a cookie never counts). */
export function bearerKey(headers: Koa.Request['headers']): string | null {
  if (headers['x-admin-secret'] !== undefined || headers.authorization === undefined) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(headers.authorization);
  return match && match[1]!.startsWith(API_KEY_PREFIX) ? match[1]! : null;
}

export const keyHash = sha256;

/**
 * Turns a gate row into the principal: 401 when there is none, 429 with Retry-After when a limit
 * is passed; otherwise sets the RateLimit-* headers of the tightest window.
 */
export async function admit(app: AppContext, ctx: Koa.Context, row: GateRow | undefined, now: number): Promise<TenantPrincipal> {
  if (!row) {
    ctx.set(headersOf(await consume(app, `ip:${ctx.ip}`, [LIMITS.anonymous])));
    throw new AppError('unauthorized', 'Missing or invalid credentials');
  }
  let tightest: LimitState | null = null;
  let refused: LimitState | null = null;
  for (const limit of [MINUTE, HOUR]) {
    const counter = row.counters.find(([key]) => key === `${limit.name}:${row.key_id}`);
    if (!counter) throw new Error(`rate-limit counter ${limit.name} missing`);
    const points = counter[1];
    const state: LimitState = {
      limit: limit.points,
      remaining: Math.max(0, limit.points - points),
      resetSeconds: Math.max(0, Math.ceil((Number(counter[2]) - now) / 1000)),
    };
    if (points > limit.points) refused ??= state;
    else if (!tightest || state.remaining < tightest.remaining) tightest = state;
  }
  if (refused) {
    throw new AppError('rate_limited', 'Too many requests; retry after the time given in Retry-After', undefined, {
      ...headersOf(refused),
      'Retry-After': String(Math.max(1, refused.resetSeconds)),
    });
  }
  ctx.set(headersOf(tightest as LimitState));
  return { kind: 'api_key', tenantId: row.tenant_id, userId: row.user_id, role: row.role, permissions: permissionsOf(row.role), apiKeyId: row.key_id };
}

/** Authentication and limits alone (a request whose body is refused still answers 401/429 first). */
export async function webhookGate(app: AppContext, ctx: Koa.Context, pool: Pool = app.database.pool): Promise<TenantPrincipal> {
  const secret = bearerKey(ctx.headers);
  const now = Date.now();
  const row = secret === null ? undefined : (await pool.query<GateRow>({ name: 'webhook-gate', text: GATE_ONLY, values: [keyHash(secret), ...gateValues(now)] })).rows[0];
  return admit(app, ctx, row, now);
}
