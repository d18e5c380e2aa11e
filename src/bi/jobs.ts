/** The BI capability's scheduled job (docs/bi-isolation.md "Tenant floor", "The BI database"). */
import { defineJob } from '../jobs/define.js';
import { scheduled } from '../jobs/maintenance.js';
import { syncBiDatabaseIfUsed } from './database.js';
import { restoreBiRoles, stopOverrunningBiSessions, stopOverrunningBiSessionsAt } from './watchdog.js';

export const biWatchdog = defineJob({
  ...scheduled,
  name: 'bi.watchdog',
  summary: "Cancels BI roles' statements running past their credential's statement timeout and ends their sessions idle in a transaction past it, on the database and on DATABASE_URL_BI; puts back a BI role's password and setting defaults when the role changed them; brings the BI database's views and foreign tables up to date (docs/bi.md).",
  idempotency: 'Signals only sessions over the limit at the time of the run and restores only what differs from the credential; a second run finds nothing to do.',
  async run(ctx) {
    const stopped = await stopOverrunningBiSessions(ctx.app.database.pool);
    const replica = ctx.app.config.bi.databaseUrl;
    if (replica) stopped.push(...(await stopOverrunningBiSessionsAt(replica)));
    // A role that changed its own password or settings gets the credential's back.
    const restored = await restoreBiRoles(ctx.app.database.pool);
    if (restored.length > 0) ctx.app.log.warn({ restored }, 'BI roles restored to their credentials');
    // The BI database follows this database's bi views (a migration may have added one) and
    // upgrades credentials from before it; a failure (no right to create it) must not stop the rest.
    const bi = { replicaUrl: replica, database: ctx.app.config.bi.database };
    const synced = await syncBiDatabaseIfUsed(ctx.app.database.pool, bi).catch((error: unknown) => {
      ctx.app.log.warn({ err: error }, 'BI database not brought up to date');
      return null;
    });
    if (synced && (synced.created || synced.tables.length > 0 || synced.upgraded.length > 0)) ctx.app.log.info({ synced }, 'BI database brought up to date');
    return { stopped, restored };
  },
});
