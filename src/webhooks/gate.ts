/**
 * The webhook API's front door: the API key, its two limits (100 a minute, 1000 an hour) and
 * `last_used_at` are ONE row update of the key (columns `webhook_*` of `api_keys`), written as
 * CTEs that the batched upserts (src/webhooks/batch.ts) put in front of their own, so a
 * batch of requests costs one statement (docs/webhooks.md).
 *
 * The gate keeps the rules of the rest of the program:
 * - the key: `principalFromApiKey`'s (unrevoked, the creator's current role in the key's tenant);
 *   bearer only, as route()'s `apiKeyOnly`; a key revoked a moment ago is refused at once, since
 *   the revocation and the count update the same row;
 * - the limits: fixed windows opened by the first request (rate-limiter-flexible's rule, which the
 *   general API uses), counted on the database's clock so every instance agrees; a refused request
 *   counts, and writes nothing else;
 * - 401 counts the caller's address against the anonymous limit, as route() does.
 */
import { asSystem } from '../db/tenancy.js';
import type Koa from 'koa';
import type { Pool } from 'pg';
import { API_KEY_PREFIX } from '../apiKeys/principal.js';
import { permissionsOf, type Role, type TenantPrincipal } from '../auth/principal.js';
import { sha256 } from '../auth/secrets.js';
import type { AppContext } from '../context.js';
import { AppError } from '../errors.js';
import { consume, headersOf, LIMITS, type LimitState } from '../http/rateLimit.js';

const [MINUTE, HOUR] = [LIMITS.webhookMinute, LIMITS.webhookHour];

/**
 * Gate CTEs over a CTE `input(ord, key_hash, …)`: one row per request. Each key is locked (in
 * key-hash order, so concurrent batches cannot deadlock) and its windows advance by its number of requests;
 * `admitted` is every request of a known key with the counts as of that request (its rank among
 * the key's requests in the batch), `ok` the admitted ones within both limits. The limits are our
 * constants, not input.
 */
export const GATE_CTES = `batch_keys AS MATERIALIZED (
  SELECT key_hash, count(*)::int AS n FROM input GROUP BY key_hash ORDER BY key_hash
), locked_keys AS MATERIALIZED (
  SELECT l.id, b.key_hash, b.n FROM batch_keys b
  CROSS JOIN LATERAL (SELECT a.id FROM api_keys a WHERE a.key_hash = b.key_hash AND a.revoked_at IS NULL FOR UPDATE) l
), k AS (
  UPDATE api_keys a SET
    last_used_at = now(),
    webhook_minute_points = CASE WHEN a.webhook_minute_resets_at > now() THEN a.webhook_minute_points ELSE 0 END + l.n,
    webhook_minute_resets_at = CASE WHEN a.webhook_minute_resets_at > now() THEN a.webhook_minute_resets_at
      ELSE now() + interval '${MINUTE.durationSeconds} seconds' END,
    webhook_hour_points = CASE WHEN a.webhook_hour_resets_at > now() THEN a.webhook_hour_points ELSE 0 END + l.n,
    webhook_hour_resets_at = CASE WHEN a.webhook_hour_resets_at > now() THEN a.webhook_hour_resets_at
      ELSE now() + interval '${HOUR.durationSeconds} seconds' END
  FROM locked_keys l, tenant_memberships m
  WHERE a.id = l.id AND m.tenant_id = a.tenant_id AND m.user_id = a.user_id
  RETURNING a.id, l.key_hash, a.tenant_id, a.user_id, m.role, l.n,
    a.webhook_minute_points AS minute_points, ceil(extract(epoch FROM a.webhook_minute_resets_at - now()))::int AS minute_reset,
    a.webhook_hour_points AS hour_points, ceil(extract(epoch FROM a.webhook_hour_resets_at - now()))::int AS hour_reset
), admitted AS MATERIALIZED (
  SELECT i.*, k.id AS key_id, k.tenant_id, k.user_id, k.role,
    k.minute_points - k.n + i.rank AS minute_points, k.minute_reset,
    k.hour_points - k.n + i.rank AS hour_points, k.hour_reset
  FROM (SELECT input.*, row_number() OVER (PARTITION BY key_hash ORDER BY ord)::int AS rank FROM input) i
  JOIN k ON k.key_hash = i.key_hash
), ok AS MATERIALIZED (
  SELECT * FROM admitted WHERE minute_points <= ${MINUTE.points} AND hour_points <= ${HOUR.points}
)`;

/** The gate's columns of a request's result row (`a` is `admitted`). */
export const GATE_COLUMNS = 'a.ord, a.key_id, a.tenant_id, a.user_id, a.role, a.minute_points, a.minute_reset, a.hour_points, a.hour_reset';

export interface GateRow {
  ord: number;
  key_id: string;
  tenant_id: string;
  user_id: string;
  role: Role;
  minute_points: number;
  minute_reset: number;
  hour_points: number;
  hour_reset: number;
}

const GATE_ONLY = `WITH input AS (SELECT 0 AS ord, $1::text AS key_hash), ${GATE_CTES} SELECT ${GATE_COLUMNS} FROM admitted a`;

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
export async function admit(app: AppContext, ctx: Koa.Context, row: GateRow | undefined): Promise<TenantPrincipal> {
  if (!row) {
    ctx.set(headersOf(await consume(app, `ip:${ctx.ip}`, [LIMITS.anonymous])));
    throw new AppError('unauthorized', 'Missing or invalid credentials');
  }
  let tightest: LimitState | null = null;
  let refused: LimitState | null = null;
  for (const [limit, points, reset] of [[MINUTE, row.minute_points, row.minute_reset], [HOUR, row.hour_points, row.hour_reset]] as const) {
    const state: LimitState = { limit: limit.points, remaining: Math.max(0, limit.points - points), resetSeconds: Math.max(0, reset) };
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
  const row = secret === null ? undefined : (await asSystem('authentication', () => pool.query<GateRow>({ name: 'webhook-gate', text: GATE_ONLY, values: [keyHash(secret)] }))).rows[0];
  return admit(app, ctx, row);
}
