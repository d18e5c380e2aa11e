/**
 * Scheduled sweeps over other capabilities' tables, through those capabilities' own service
 * functions where they have one. Each is set-based and keyed on time or state, so running it
 * twice has the effect of running it once.
 */
import { inTransaction } from '../db/transaction.js';
import { defineJob } from './define.js';
import { scheduled } from './maintenance.js';

export const loginSessionsCleanup = defineJob({
  ...scheduled,
  name: 'identity.sessions-cleanup',
  summary: 'Deletes login sessions past their idle or absolute expiry, and sign-in links a day past their expiry.',
  idempotency: 'Deletes rows by expiry time; a second run finds nothing left to delete.',
  async run(ctx) {
    const { pool } = ctx.app.database;
    const sessions = await pool.query('delete from login_sessions where absolute_expires_at < now() or idle_expires_at < now()');
    // A day of grace lets the sign-in page tell "this link expired" from "this link is unknown".
    const tokens = await pool.query(`delete from login_tokens where expires_at < now() - interval '1 day'`);
    return { sessions: sessions.rowCount ?? 0, tokens: tokens.rowCount ?? 0 };
  },
});

export const oauthRecordsCleanup = defineJob({
  ...scheduled,
  name: 'oauth.records-cleanup',
  summary: 'Deletes expired OAuth provider records and MCP tenant bindings, and registered clients that never obtained a grant within a day.',
  idempotency: 'Deletes rows by expiry time; a second run finds nothing left to delete.',
  async run(ctx) {
    // Loaded when run, so `migrate` (which reads this catalog) never loads the OAuth provider.
    const { purgeExpiredOAuthRecords } = await import('../oauth/adapter.js');
    return { deleted: await purgeExpiredOAuthRecords(ctx.app.database.db) };
  },
});

export const surveysCloseDue = defineJob({
  ...scheduled,
  name: 'surveys.close-due',
  summary: 'Closes open surveys whose close day (UTC) has passed.',
  idempotency: 'Closes only surveys still open; a second run changes nothing.',
  async run(ctx) {
    const { closeDueSurveys } = await import('../surveys/service.js');
    return { closed: await closeDueSurveys(ctx.app.database.db) };
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
