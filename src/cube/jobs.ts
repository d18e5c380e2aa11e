import { defineJob } from '../jobs/define.js';
import { scheduled } from '../jobs/maintenance.js';

/** The hourly schedule whose window visits every tenant (src/jobCatalog.ts); the minutely one visits those that may need work. */
export const ROLLUPS_SWEEP = 'cube.rollups-sweep';

export const cubeRollupsRefresh = defineJob({
  ...scheduled,
  name: 'cube.rollups-refresh',
  summary: "Computes every tenant's missing or changed rollup months (docs/rollups.md) and forgets change records all stored months have seen.",
  idempotency:
    'Recomputes only months that are missing or not current, in one snapshot per tenant under a per-tenant advisory lock; a second run finds every month current and computes nothing.',
  // A first build of a large tenant reads its whole history once.
  expireInSeconds: 1800,
  async run(ctx, payload) {
    const { refreshAllRollups } = await import('./rollupRefresh.js');
    return refreshAllRollups(ctx.app.database.pool, new Date(), { everyTenant: payload.schedule === ROLLUPS_SWEEP });
  },
});

export const deliveryFactsCatchUp = defineJob({
  ...scheduled,
  name: 'cube.delivery-facts-catch-up',
  summary: "Recomputes the stored delivery facts every tenant's noted writes may have changed (docs/write-path.md), so that reads rarely find work and BI views, which cannot catch up themselves, stay seconds behind.",
  idempotency: 'Takes each tenant\'s notes in chunks, each under its catch-up lock and committed on its own, and recomputes from the current rows; a run cut short leaves the rest of the notes for the next; a second run finds no notes and does nothing.',
  async run(ctx) {
    const { catchUpAllDeliveryFacts } = await import('./deliveryFacts.js');
    return catchUpAllDeliveryFacts(ctx.app.database.pool);
  },
});
