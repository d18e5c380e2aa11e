/** The OAuth layer's scheduled sweep (run by jobCatalog.ts; keyed on time, so a second run finds nothing left). */
import { defineJob } from '../jobs/define.js';
import { scheduled } from '../jobs/maintenance.js';

export const oauthRecordsCleanup = defineJob({
  ...scheduled,
  name: 'oauth.records-cleanup',
  summary: 'Deletes expired OAuth provider records and MCP tenant bindings, and registered clients that never obtained a grant within a day.',
  idempotency: 'Deletes rows by expiry time; a second run finds nothing left to delete.',
  async run(ctx) {
    // Loaded when run, so `migrate` (which reads this catalog) never loads the OAuth provider.
    const { purgeExpiredOAuthRecords } = await import('./adapter.js');
    return { deleted: await purgeExpiredOAuthRecords(ctx.app.database.db) };
  },
});
