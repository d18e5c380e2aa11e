/** Sign-in's scheduled sweep (run by jobCatalog.ts; set-based and keyed on time, so a second run finds nothing left). */
import { defineJob } from '../jobs/define.js';
import { scheduled } from '../jobs/maintenance.js';

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
