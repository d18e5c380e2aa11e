/**
 * Retention of the intake's raw state (docs/ai-telemetry.md "Retention"): each metric series' last
 * point (ai_telemetry_series) is kept AI_TELEMETRY_RETENTION_DAYS. Its counts went into the
 * session and person-day rows in the transaction that stored it, so deleting it changes no
 * measure; the intake refuses points older than the retention, so a pruned series never counts a
 * re-sent point again. Log events are never rows (their digests live on the aggregate rows).
 */
import type pg from 'pg';
import { defineJob } from '../jobs/define.js';
import { scheduled } from '../jobs/maintenance.js';

/** Series examined per statement: each batch is its own short transaction over a primary-key range. */
export const RETENTION_BATCH = 5_000;
const FIRST_KEY = '00000000-0000-0000-0000-000000000000';

/** The retention's horizon in unix nanoseconds (a series point's own time). */
export const retentionHorizonNs = (days: number, nowMs = Date.now()): bigint => BigInt(nowMs - days * 86_400_000) * 1_000_000n;

/**
 * Deletes the series whose last point is older than `horizonNs`, `batch` series examined per
 * statement (keyset pages of the primary key: bounded work per statement with no index on time,
 * which would make every intake update a non-HOT one). A row the intake updated meanwhile is
 * re-checked by the DELETE (READ COMMITTED) and kept, its point being new.
 */
export async function pruneSeries(pool: pg.Pool, horizonNs: bigint, signal: AbortSignal, batch = RETENTION_BATCH): Promise<{ deleted: number; batches: number }> {
  let after = { tenant: FIRST_KEY, key: FIRST_KEY };
  let deleted = 0;
  let batches = 0;
  for (;;) {
    signal.throwIfAborted();
    const { rows: [page] } = await pool.query<{ examined: number; deleted: number; last_tenant: string | null; last_key: string | null }>(
      `with page as (
         select tenant_id, series_key from ai_telemetry_series
          where (tenant_id, series_key) > ($1::uuid, $2::uuid)
          order by tenant_id, series_key limit $3),
       gone as (
         delete from ai_telemetry_series s using page p
          where s.tenant_id = p.tenant_id and s.series_key = p.series_key and s.time_ns < $4::bigint
          returning 1),
       last as (select tenant_id, series_key from page order by tenant_id desc, series_key desc limit 1)
       select (select count(*) from page)::int as examined, (select count(*) from gone)::int as deleted,
              (select tenant_id from last) as last_tenant, (select series_key from last) as last_key`,
      [after.tenant, after.key, batch, String(horizonNs)],
    );
    batches += 1;
    deleted += page!.deleted;
    if (page!.examined < batch || !page!.last_tenant || !page!.last_key) break;
    after = { tenant: page!.last_tenant, key: page!.last_key };
  }
  return { deleted, batches };
}

export const aiTelemetryRetention = defineJob({
  ...scheduled,
  name: 'ai-telemetry.retention',
  summary: 'Deletes the AI telemetry metric series whose last point is older than AI_TELEMETRY_RETENTION_DAYS, every tenant, walking the primary key in batches.',
  idempotency: 'Deletes by the points’ own time only; a second run finds nothing more to delete.',
  run: (ctx) => pruneSeries(ctx.app.database.pool, retentionHorizonNs(ctx.app.config.aiTelemetry.retentionDays), ctx.signal),
});
