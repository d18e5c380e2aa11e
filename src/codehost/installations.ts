/**
 * Installations of the code-host application and the tenant each one feeds. An owner claims an
 * installation the code host has announced (its `installation` event, or any delivery of it, made
 * the registry row) for their tenant, through the setup callback or the API; the first claim wins.
 * To an owner, an installation linked to another tenant is exactly an unknown one (404, the same
 * body: no oracle of what other tenants linked); the operator's `codehost:link` may link one not
 * yet announced, and is told of a conflict.
 */
import { asSystem } from '../db/tenancy.js';
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { AppContext } from '../context.js';
import type { Db } from '../db/client.js';
import { codehostInstallations, tenants } from '../db/schema/index.js';
import type { Actor, TenantPrincipal } from '../auth/principal.js';
import { authorize } from '../auth/policies.js';
import { AppError, notFound } from '../errors.js';
import type { Executor } from '../aiSessions/activityLinks.js';

export type InstallationRow = typeof codehostInstallations.$inferSelect;

/** The app must be configured for installations to mean anything. */
export function requireCodehostApp(app: AppContext): NonNullable<AppContext['config']['codehostApp']> {
  const codehost = app.config.codehostApp;
  if (!codehost) throw new AppError('not_found', 'The code-host application is not configured (CODEHOST_APP_ID)');
  return codehost;
}

/** The URLs an operator enters when registering the application. */
export function codehostUrls(app: AppContext): { webhookUrl: string; setupUrl: string } {
  return {
    webhookUrl: `${app.config.appUrl}/api/integrations/codehost/webhook`,
    setupUrl: `${app.config.appUrl}/api/integrations/codehost/setup`,
  };
}

export async function listInstallations(db: Db, principal: TenantPrincipal): Promise<InstallationRow[]> {
  return db.select().from(codehostInstallations).where(eq(codehostInstallations.tenantId, principal.tenantId)).orderBy(asc(codehostInstallations.installationId));
}

/**
 * Links an announced installation to the owner's tenant; idempotent for the same tenant. Unknown
 * and another tenant's are both `Installation not found`.
 */
export async function linkInstallation(db: Db, principal: TenantPrincipal, installationId: number): Promise<{ row: InstallationRow; created: boolean }> {
  return claimInstallation(db, principal, installationId, { announcedOnly: true });
}

export interface SetupPreview {
  installationId: number;
  tenantName: string;
  /** Known once the code host's `installation` event arrived. */
  accountLogin: string | null;
  /** `unknown`: not announced by the code host, or linked to another tenant (told apart by nobody). */
  state: 'unknown' | 'unlinked' | 'linked_here';
}

/**
 * What the setup confirmation page shows an owner. Reads only: the setup callback is a GET that
 * another site can trigger, so the link itself waits for the confirmed form post.
 */
export async function previewSetup(db: Db, principal: TenantPrincipal, installationId: number): Promise<SetupPreview> {
  authorize(principal, 'codehost.link');
  const [tenant] = await db.select({ name: tenants.name }).from(tenants).where(eq(tenants.id, principal.tenantId));
  if (!tenant) throw notFound('Tenant');
  // An unclaimed installation (or another tenant's) is no tenant's row: the preview spans tenants,
  // and shows another tenant's installation exactly as one never announced.
  const [row] = await asSystem('inbound-routing', () => db.select().from(codehostInstallations).where(eq(codehostInstallations.installationId, installationId)));
  const state = !row || (row.tenantId !== null && row.tenantId !== principal.tenantId) ? 'unknown' : row.tenantId === principal.tenantId ? 'linked_here' : 'unlinked';
  return { installationId, tenantName: tenant.name, accountLogin: state === 'unknown' ? null : (row?.accountLogin ?? null), state };
}

/**
 * The link itself, shared by owners (API, setup callback) and operators (`codehost:link`, system
 * work: no user). The row lock makes two simultaneous claims of one installation resolve to one winner.
 */
export async function claimInstallation(
  db: Db,
  actor: Actor,
  installationId: number,
  options: { announcedOnly?: boolean } = {},
): Promise<{ row: InstallationRow; created: boolean }> {
  authorize(actor, 'codehost.link');
  const by = { tenantId: actor.tenantId, userId: actor.kind === 'system' ? null : actor.userId };
  // An installation belongs to no tenant until claimed (the code host announces it first), and
  // one claimed by another tenant must be seen to be refused: the claim spans tenants.
  return asSystem('inbound-routing', () => db.transaction(async (tx) => {
    if (!options.announcedOnly) await tx.insert(codehostInstallations).values({ installationId }).onConflictDoNothing();
    const [current] = await tx.select().from(codehostInstallations).where(eq(codehostInstallations.installationId, installationId)).for('update');
    if (!current) throw notFound('Installation');
    if (current.tenantId === by.tenantId) return { row: current, created: false };
    // An owner learns nothing of other tenants: linked elsewhere reads as never announced.
    if (options.announcedOnly && current.tenantId !== null) throw notFound('Installation');
    if (current.tenantId !== null) throw new AppError('conflict', 'This installation is already linked to another tenant; an owner of that tenant must unlink it first');
    const [row] = await tx
      .update(codehostInstallations)
      .set({ tenantId: by.tenantId, linkedByUserId: by.userId, linkedAt: sql`now()`, unlinkedLoggedAt: null, updatedAt: sql`now()` })
      .where(eq(codehostInstallations.installationId, installationId))
      .returning();
    return { row: row as InstallationRow, created: true };
  }));
}

/** Stops an installation feeding the tenant; facts already stored stay. */
export async function unlinkInstallation(db: Db, principal: TenantPrincipal, installationId: number): Promise<InstallationRow> {
  authorize(principal, 'codehost.link');
  // The row leaves the tenant (tenant_id null), which the tenant's own scope may not write.
  const [row] = await asSystem('inbound-routing', () =>
    db
      .update(codehostInstallations)
      .set({ tenantId: null, linkedByUserId: null, linkedAt: null, updatedAt: sql`now()` })
      .where(and(eq(codehostInstallations.installationId, installationId), eq(codehostInstallations.tenantId, principal.tenantId)))
      .returning(),
  );
  if (!row) throw notFound('Installation');
  return row;
}

/** The tenant an installation feeds, or null (unknown or unlinked). */
export async function tenantOfInstallation(tx: Executor, installationId: number): Promise<string | null> {
  const [row] = await tx.select({ tenantId: codehostInstallations.tenantId }).from(codehostInstallations).where(eq(codehostInstallations.installationId, installationId));
  return row?.tenantId ?? null;
}

/**
 * Records that an unlinked installation sent an event and returns true the first time only, so
 * the log line is written once across all instances (the row update is the arbiter).
 */
export async function claimUnlinkedNotice(db: Db, installationId: number, account: { login?: string; type?: string } | null): Promise<boolean> {
  await db.insert(codehostInstallations).values({ installationId, accountLogin: account?.login ?? null, accountType: account?.type ?? null }).onConflictDoNothing();
  const claimed = await db
    .update(codehostInstallations)
    .set({ unlinkedLoggedAt: sql`now()` })
    .where(and(eq(codehostInstallations.installationId, installationId), isNull(codehostInstallations.tenantId), isNull(codehostInstallations.unlinkedLoggedAt)))
    .returning({ id: codehostInstallations.installationId });
  return claimed.length > 0;
}

/** `installation` events: the registry row follows the code host (account, suspension, removal). */
export async function applyInstallationEvent(tx: Executor, action: string, installation: { id: number; account?: { login?: string; type?: string } }): Promise<void> {
  const account = { accountLogin: installation.account?.login ?? null, accountType: installation.account?.type ?? null };
  const changes: Partial<typeof codehostInstallations.$inferInsert> = { ...account };
  if (action === 'created') changes.deletedAt = null;
  if (action === 'deleted') changes.deletedAt = new Date();
  if (action === 'suspend') changes.suspendedAt = new Date();
  if (action === 'unsuspend') changes.suspendedAt = null;
  await tx
    .insert(codehostInstallations)
    .values({ installationId: installation.id, ...changes })
    .onConflictDoUpdate({ target: codehostInstallations.installationId, set: { ...changes, updatedAt: sql`now()` } });
}
