import { AsyncLocalStorage } from "node:async_hooks";
const SYSTEM_REASONS = [
  /** Finding the principal: API key by hash, session by token, OAuth grants, sign-in identities. */
  "authentication",
  /** The webhook batch statement: rows of several API keys, each admitted by its own key in SQL. */
  "ingest-batch",
  /** Publishing live events (NOTIFY): no table is read; the event names its tenant, and the hub filters by it. */
  "live-events",
  /** Finding the tenant an inbound vendor request belongs to (installation id, signature secret). */
  "inbound-routing",
  /** Schedules that fan out per tenant, the job queue's own tables, maintenance jobs. */
  "schedule",
  /** Rollup refresh, retention and cleanup, which sweep every tenant. */
  "maintenance",
  /** Creating and dropping the BI login roles: DDL that the tenant's role may not run (docs/bi.md). */
  "bi-roles",
  /** Operator commands and the configuration report. */
  "operator",
  /** Creating a tenant (no tenant exists yet) and listing a user's organisations. */
  "tenant-directory",
  /** Test fixtures that seed several tenants. */
  "test-fixture"
];
const storage = new AsyncLocalStorage();
function withTenant(tenantId, work) {
  return storage.run({ kind: "tenant", tenantId }, async () => await work());
}
function asSystem(reason, work) {
  return storage.run({ kind: "system", reason }, async () => await work());
}
function outsideScope(work) {
  return storage.exit(work);
}
function currentScope() {
  return storage.getStore();
}
export {
  SYSTEM_REASONS,
  asSystem,
  currentScope,
  outsideScope,
  withTenant
};
