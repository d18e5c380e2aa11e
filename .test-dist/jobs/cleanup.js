import { inTransaction } from "../db/transaction.js";
import { defineJob } from "./define.js";
import { scheduled } from "./maintenance.js";
const loginSessionsCleanup = defineJob({
  ...scheduled,
  name: "identity.sessions-cleanup",
  summary: "Deletes login sessions past their idle or absolute expiry, and sign-in links a day past their expiry.",
  idempotency: "Deletes rows by expiry time; a second run finds nothing left to delete.",
  async run(ctx) {
    const { pool } = ctx.app.database;
    const sessions = await pool.query("delete from login_sessions where absolute_expires_at < now() or idle_expires_at < now()");
    const tokens = await pool.query(`delete from login_tokens where expires_at < now() - interval '1 day'`);
    return { sessions: sessions.rowCount ?? 0, tokens: tokens.rowCount ?? 0 };
  }
});
const oauthRecordsCleanup = defineJob({
  ...scheduled,
  name: "oauth.records-cleanup",
  summary: "Deletes expired OAuth provider records and MCP tenant bindings, and registered clients that never obtained a grant within a day.",
  idempotency: "Deletes rows by expiry time; a second run finds nothing left to delete.",
  async run(ctx) {
    const { purgeExpiredOAuthRecords } = await import("../oauth/adapter.js");
    return { deleted: await purgeExpiredOAuthRecords(ctx.app.database.db) };
  }
});
const surveysCloseDue = defineJob({
  ...scheduled,
  name: "surveys.close-due",
  summary: "Closes open surveys whose close day (UTC) has passed.",
  idempotency: "Closes only surveys still open; a second run changes nothing.",
  async run(ctx) {
    const { closeDueSurveys } = await import("../surveys/service.js");
    return { closed: await closeDueSurveys(ctx.app.database.db) };
  }
});
const STALE_AFTER_DAYS = 7;
const integrationsFlagStale = defineJob({
  ...scheduled,
  name: "integrations.flag-stale",
  summary: `Flags integrations with no activity for ${STALE_AFTER_DAYS} days in stale_integrations and unflags those active again. Today: code-host installations linked to a tenant, not suspended or deleted, linked over ${STALE_AFTER_DAYS} days ago, with no webhook delivery in ${STALE_AFTER_DAYS} days.`,
  idempotency: "Upserts the current set of stale integrations and deletes the rest; a second run finds the same set.",
  async run(ctx) {
    const { stale, cleared } = await inTransaction(ctx.app.database.pool, async (client) => {
      const stale2 = await client.query(
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
        [STALE_AFTER_DAYS]
      );
      const refs = stale2.rows.map((r) => r.ref);
      const cleared2 = await client.query(
        `delete from stale_integrations where kind = 'codehost_installation' and not (ref = any($1::text[]))`,
        [refs]
      );
      return { stale: stale2, cleared: cleared2 };
    });
    const flagged = stale.rows.filter((r) => r.flagged_now).length;
    if (flagged > 0) ctx.app.log.warn({ flagged, stale: stale.rows.length }, "integrations flagged stale");
    return { stale: stale.rows.length, flagged, cleared: cleared.rowCount ?? 0 };
  }
});
export {
  STALE_AFTER_DAYS,
  integrationsFlagStale,
  loginSessionsCleanup,
  oauthRecordsCleanup,
  surveysCloseDue
};
