import { inTransaction } from '../db/transaction.js';
import { defineJob } from '../jobs/define.js';
import { scheduled } from '../jobs/maintenance.js';

/**
 * How long delivery ids are kept for redelivery detection. The code host offers redelivery of the
 * last few days' deliveries only; 30 days is a wide margin.
 */
export const CODEHOST_DELIVERY_RETENTION_DAYS = 30;

export const codehostDeliveriesRetention = defineJob({
  ...scheduled,
  name: 'codehost.deliveries-retention',
  summary: `Deletes code-host delivery ids recorded over ${CODEHOST_DELIVERY_RETENTION_DAYS} days ago (redelivery detection needs only recent ones).`,
  idempotency: 'Deletes by age only; a second run deletes nothing more.',
  async run(ctx) {
    const deleted = await ctx.app.database.pool.query(
      'delete from codehost_deliveries where received_at < now() - make_interval(days => $1)',
      [CODEHOST_DELIVERY_RETENTION_DAYS],
    );
    return { deleted: deleted.rowCount ?? 0 };
  },
});

/** An integration silent for this long is flagged stale. */
export const STALE_AFTER_DAYS = 7;

export const integrationsFlagStale = defineJob({
  ...scheduled,
  name: 'integrations.flag-stale',
  summary: `Flags integrations with no activity for ${STALE_AFTER_DAYS} days in stale_integrations and unflags those active again. Today: code-host installations linked to a tenant, not suspended or deleted, linked over ${STALE_AFTER_DAYS} days ago, with no webhook delivery in ${STALE_AFTER_DAYS} days.`,
  idempotency: 'Upserts the current set of stale integrations and deletes the rest; a second run finds the same set.',
  async run(ctx) {
    const { stale, cleared } = await inTransaction(ctx.app.database.pool, async (client) => {
      const stale = await client.query(
        `with activity as (
           select i.installation_id, i.tenant_id,
                  (select max(d.received_at) from codehost_deliveries d where d.installation_id = i.installation_id) as last_at
             from codehost_installations i
            where i.tenant_id is not null and i.suspended_at is null and i.deleted_at is null
              and coalesce(i.linked_at, i.created_at) < now() - make_interval(days => $1))
         insert into stale_integrations (kind, ref, tenant_id, last_activity_at)
         select 'codehost_installation', installation_id::text, tenant_id, last_at from activity
          where last_at is null or last_at < now() - make_interval(days => $1)
         on conflict (kind, ref) do update set tenant_id = excluded.tenant_id, last_activity_at = excluded.last_activity_at
         returning ref, (xmax = 0) as flagged_now`,
        [STALE_AFTER_DAYS],
      );
      const refs = stale.rows.map((r: { ref: string }) => r.ref);
      const cleared = await client.query(
        `delete from stale_integrations where kind = 'codehost_installation' and not (ref = any($1::text[]))`,
        [refs],
      );
      return { stale, cleared };
    });
    const flagged = stale.rows.filter((r: { flagged_now: boolean }) => r.flagged_now).length;
    if (flagged > 0) ctx.app.log.warn({ flagged, stale: stale.rows.length }, 'integrations flagged stale');
    return { stale: stale.rows.length, flagged, cleared: cleared.rowCount ?? 0 };
  },
});
