import { asSystem } from "../db/tenancy.js";
import { API_KEY_PREFIX } from "../apiKeys/principal.js";
import { permissionsOf } from "../auth/principal.js";
import { sha256 } from "../auth/secrets.js";
import { AppError } from "../errors.js";
import { consume, headersOf, LIMITS } from "../http/rateLimit.js";
const [MINUTE, HOUR] = [LIMITS.webhookMinute, LIMITS.webhookHour];
const GATE_CTES = `batch_keys AS MATERIALIZED (
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
const GATE_COLUMNS = "a.ord, a.key_id, a.tenant_id, a.user_id, a.role, a.minute_points, a.minute_reset, a.hour_points, a.hour_reset";
const GATE_ONLY = `WITH input AS (SELECT 0 AS ord, $1::text AS key_hash), ${GATE_CTES} SELECT ${GATE_COLUMNS} FROM admitted a`;
function bearerKey(headers) {
  if (headers["x-admin-secret"] !== void 0 || headers.authorization === void 0) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(headers.authorization);
  return match && match[1].startsWith(API_KEY_PREFIX) ? match[1] : null;
}
const keyHash = sha256;
async function admit(app, ctx, row) {
  if (!row) {
    ctx.set(headersOf(await consume(app, `ip:${ctx.ip}`, [LIMITS.anonymous])));
    throw new AppError("unauthorized", "Missing or invalid credentials");
  }
  let tightest = null;
  let refused = null;
  for (const [limit, points, reset] of [[MINUTE, row.minute_points, row.minute_reset], [HOUR, row.hour_points, row.hour_reset]]) {
    const state = { limit: limit.points, remaining: Math.max(0, limit.points - points), resetSeconds: Math.max(0, reset) };
    if (points > limit.points) refused ??= state;
    else if (!tightest || state.remaining < tightest.remaining) tightest = state;
  }
  if (refused) {
    throw new AppError("rate_limited", "Too many requests; retry after the time given in Retry-After", void 0, {
      ...headersOf(refused),
      "Retry-After": String(Math.max(1, refused.resetSeconds))
    });
  }
  ctx.set(headersOf(tightest));
  return { kind: "api_key", tenantId: row.tenant_id, userId: row.user_id, role: row.role, permissions: permissionsOf(row.role), apiKeyId: row.key_id };
}
async function webhookGate(app, ctx, pool = app.database.pool) {
  const secret = bearerKey(ctx.headers);
  const row = secret === null ? void 0 : (await asSystem("authentication", () => pool.query({ name: "webhook-gate", text: GATE_ONLY, values: [keyHash(secret)] }))).rows[0];
  return admit(app, ctx, row);
}
export {
  GATE_COLUMNS,
  GATE_CTES,
  admit,
  bearerKey,
  keyHash,
  webhookGate
};
