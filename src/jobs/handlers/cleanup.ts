/**
 * Scheduled sweeps over other capabilities' tables. Each is a set-based statement keyed on time,
 * so running it twice has the effect of running it once. Where the owning capability has not
 * landed its table yet, the sweep checks for the table and the columns it relies on
 * (`to_regclass` + information_schema) and is a logged no-op until they exist; the expected
 * columns are listed in docs/jobs.md, and the owner may swap the body for its own service call.
 */
import type pg from 'pg';
import { purgeExpiredOAuthRecords } from '../../oauth/adapter.js';
import { closeDueSurveys } from '../../surveys/service.js';
import { defineJob } from '../define.js';
import { scheduled } from './maintenance.js';

/** True when `table` exists in the search path and has every one of `columns`. */
export async function tableHas(pool: pg.Pool, table: string, columns: string[]): Promise<boolean> {
  const found = await pool.query<{ present: boolean; n: number }>(
    `select to_regclass($1) is not null as present,
            (select count(*)::int from information_schema.columns
              where table_schema = current_schema() and table_name = $1 and column_name = any($2::text[])) as n`,
    [table, columns],
  );
  const row = found.rows[0];
  return Boolean(row?.present) && row?.n === columns.length;
}

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
  summary: 'Deletes expired OAuth provider records (codes, tokens, sessions, interactions, grants) and tenant bindings, and clients registered over a day ago that never obtained a grant.',
  idempotency: 'Deletes rows by expiry time; a second run finds nothing left to delete.',
  async run(ctx) {
    // Expired records and tenant bindings, and registered clients that never obtained a grant.
    return { deleted: await purgeExpiredOAuthRecords(ctx.app.database.db) };
  },
});

export const surveysCloseDue = defineJob({
  ...scheduled,
  name: 'surveys.close-due',
  summary: 'Closes open surveys whose close day (UTC) has passed.',
  idempotency: 'Closes only surveys still open; a second run changes nothing.',
  async run(ctx) {
    return { closed: await closeDueSurveys(ctx.app.database.db) };
  },
});

/** An integration that has not synced for this long is flagged stale. */
export const STALE_AFTER_HOURS = 48;

export const integrationsFlagStale = defineJob({
  ...scheduled,
  name: 'integrations.flag-stale',
  summary: `Flags integrations whose last successful sync is older than ${STALE_AFTER_HOURS} hours (stale_since), and clears the flag of those that synced again.`,
  idempotency: 'Sets stale_since only where it is null and clears it only where it is set; a second run changes nothing.',
  async run(ctx) {
    const { pool } = ctx.app.database;
    if (!(await tableHas(pool, 'integrations', ['last_synced_at', 'stale_since']))) return { skipped: 'integrations not present' };
    const flagged = await pool.query(
      `update integrations set stale_since = now()
        where stale_since is null and last_synced_at < now() - make_interval(hours => $1)`,
      [STALE_AFTER_HOURS],
    );
    const cleared = await pool.query(
      `update integrations set stale_since = null
        where stale_since is not null and last_synced_at >= now() - make_interval(hours => $1)`,
      [STALE_AFTER_HOURS],
    );
    return { flagged: flagged.rowCount ?? 0, cleared: cleared.rowCount ?? 0 };
  },
});
