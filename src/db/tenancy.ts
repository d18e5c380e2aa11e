/**
 * The tenant of the current unit of work (a request, a job, a CLI command), carried through async
 * calls, so that the database connection of that work reads and writes as that tenant only
 * (row-level security, docs/tenancy.md). The code that knows the principal sets it once; the
 * code below it never passes it around for the floor's sake.
 *
 * Work that spans tenants by design runs `asSystem` with one of the reasons below: the list is the
 * one place that says which work may see every tenant.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export const SYSTEM_REASONS = [
  /** Finding the principal: API key by hash, session by token, OAuth grants, sign-in identities. */
  'authentication',
  /** The webhook batch statement: rows of several API keys, each admitted by its own key in SQL. */
  'ingest-batch',
  /** Publishing live events (NOTIFY): no table is read; the event names its tenant, and the hub filters by it. */
  'live-events',
  /** Finding the tenant an inbound vendor request belongs to (installation id, signature secret). */
  'inbound-routing',
  /** Schedules that fan out per tenant, the job queue's own tables, maintenance jobs. */
  'schedule',
  /** Rollup refresh, retention and cleanup, which sweep every tenant. */
  'maintenance',
  /** Creating and dropping the BI login roles: DDL that the tenant's role may not run (docs/bi.md). */
  'bi-roles',
  /** Operator commands and the configuration report. */
  'operator',
  /** Creating a tenant (no tenant exists yet) and listing a user's organisations. */
  'tenant-directory',
  /** Test fixtures that seed several tenants. */
  'test-fixture',
] as const;
export type SystemReason = (typeof SYSTEM_REASONS)[number];

export type TenantScope = { kind: 'tenant'; tenantId: string } | { kind: 'system'; reason: SystemReason };

const storage = new AsyncLocalStorage<TenantScope>();

// `await` inside the scope: drizzle's query builders are thenables that run their query only
// when awaited, and an await outside `run` would run it outside the scope.
export function withTenant<T>(tenantId: string, work: () => PromiseLike<T>): Promise<T> {
  return storage.run({ kind: 'tenant', tenantId }, async () => await work());
}

export function asSystem<T>(reason: SystemReason, work: () => PromiseLike<T>): Promise<T> {
  return storage.run({ kind: 'system', reason }, async () => await work());
}

/** Runs `work` outside any scope (what follows a system middleware must not inherit it). */
export function outsideScope<T>(work: () => T): T {
  return storage.exit(work);
}

/** The scope of the caller, or undefined outside any unit of work (then the database sees no tenant). */
export function currentScope(): TenantScope | undefined {
  return storage.getStore();
}
