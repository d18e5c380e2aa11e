import { defineJob } from "../jobs/define.js";
import { scheduled } from "../jobs/maintenance.js";
const CODEHOST_DELIVERY_RETENTION_DAYS = 30;
const codehostDeliveriesRetention = defineJob({
  ...scheduled,
  name: "codehost.deliveries-retention",
  summary: `Deletes code-host delivery ids recorded over ${CODEHOST_DELIVERY_RETENTION_DAYS} days ago (redelivery detection needs only recent ones).`,
  idempotency: "Deletes by age only; a second run deletes nothing more.",
  async run(ctx) {
    const deleted = await ctx.app.database.pool.query(
      "delete from codehost_deliveries where received_at < now() - make_interval(days => $1)",
      [CODEHOST_DELIVERY_RETENTION_DAYS]
    );
    return { deleted: deleted.rowCount ?? 0 };
  }
});
export {
  CODEHOST_DELIVERY_RETENTION_DAYS,
  codehostDeliveriesRetention
};
