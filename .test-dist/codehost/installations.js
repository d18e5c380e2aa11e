import { asSystem } from "../db/tenancy.js";
import { and, asc, eq, isNull, sql } from "drizzle-orm";
import { codehostInstallations, tenants } from "../db/schema/index.js";
import { authorize } from "../auth/policies.js";
import { AppError, notFound } from "../errors.js";
function requireCodehostApp(app) {
  const codehost = app.config.codehostApp;
  if (!codehost) throw new AppError("not_found", "The code-host application is not configured (CODEHOST_APP_ID)");
  return codehost;
}
function codehostUrls(app) {
  return {
    webhookUrl: `${app.config.appUrl}/api/integrations/codehost/webhook`,
    setupUrl: `${app.config.appUrl}/api/integrations/codehost/setup`
  };
}
async function listInstallations(db, principal) {
  return db.select().from(codehostInstallations).where(eq(codehostInstallations.tenantId, principal.tenantId)).orderBy(asc(codehostInstallations.installationId));
}
async function linkInstallation(db, principal, installationId) {
  return claimInstallation(db, principal, installationId, { announcedOnly: true });
}
async function previewSetup(db, principal, installationId) {
  authorize(principal, "codehost.link");
  const [tenant] = await db.select({ name: tenants.name }).from(tenants).where(eq(tenants.id, principal.tenantId));
  if (!tenant) throw notFound("Tenant");
  const [row] = await asSystem("inbound-routing", () => db.select().from(codehostInstallations).where(eq(codehostInstallations.installationId, installationId)));
  const state = !row || row.tenantId !== null && row.tenantId !== principal.tenantId ? "unknown" : row.tenantId === principal.tenantId ? "linked_here" : "unlinked";
  return { installationId, tenantName: tenant.name, accountLogin: state === "unknown" ? null : row?.accountLogin ?? null, state };
}
async function claimInstallation(db, actor, installationId, options = {}) {
  authorize(actor, "codehost.link");
  const by = { tenantId: actor.tenantId, userId: actor.kind === "system" ? null : actor.userId };
  return asSystem("inbound-routing", () => db.transaction(async (tx) => {
    if (!options.announcedOnly) await tx.insert(codehostInstallations).values({ installationId }).onConflictDoNothing();
    const [current] = await tx.select().from(codehostInstallations).where(eq(codehostInstallations.installationId, installationId)).for("update");
    if (!current) throw notFound("Installation");
    if (current.tenantId === by.tenantId) return { row: current, created: false };
    if (options.announcedOnly && current.tenantId !== null) throw notFound("Installation");
    if (current.tenantId !== null) throw new AppError("conflict", "This installation is already linked to another tenant; an owner of that tenant must unlink it first");
    const [row] = await tx.update(codehostInstallations).set({ tenantId: by.tenantId, linkedByUserId: by.userId, linkedAt: sql`now()`, unlinkedLoggedAt: null, updatedAt: sql`now()` }).where(eq(codehostInstallations.installationId, installationId)).returning();
    return { row, created: true };
  }));
}
async function unlinkInstallation(db, principal, installationId) {
  authorize(principal, "codehost.link");
  const [row] = await asSystem(
    "inbound-routing",
    () => db.update(codehostInstallations).set({ tenantId: null, linkedByUserId: null, linkedAt: null, updatedAt: sql`now()` }).where(and(eq(codehostInstallations.installationId, installationId), eq(codehostInstallations.tenantId, principal.tenantId))).returning()
  );
  if (!row) throw notFound("Installation");
  return row;
}
async function tenantOfInstallation(tx, installationId) {
  const [row] = await tx.select({ tenantId: codehostInstallations.tenantId }).from(codehostInstallations).where(eq(codehostInstallations.installationId, installationId));
  return row?.tenantId ?? null;
}
async function claimUnlinkedNotice(db, installationId, account) {
  await db.insert(codehostInstallations).values({ installationId, accountLogin: account?.login ?? null, accountType: account?.type ?? null }).onConflictDoNothing();
  const claimed = await db.update(codehostInstallations).set({ unlinkedLoggedAt: sql`now()` }).where(and(eq(codehostInstallations.installationId, installationId), isNull(codehostInstallations.tenantId), isNull(codehostInstallations.unlinkedLoggedAt))).returning({ id: codehostInstallations.installationId });
  return claimed.length > 0;
}
async function applyInstallationEvent(tx, action, installation) {
  const account = { accountLogin: installation.account?.login ?? null, accountType: installation.account?.type ?? null };
  const changes = { ...account };
  if (action === "created") changes.deletedAt = null;
  if (action === "deleted") changes.deletedAt = /* @__PURE__ */ new Date();
  if (action === "suspend") changes.suspendedAt = /* @__PURE__ */ new Date();
  if (action === "unsuspend") changes.suspendedAt = null;
  await tx.insert(codehostInstallations).values({ installationId: installation.id, ...changes }).onConflictDoUpdate({ target: codehostInstallations.installationId, set: { ...changes, updatedAt: sql`now()` } });
}
export {
  applyInstallationEvent,
  claimInstallation,
  claimUnlinkedNotice,
  codehostUrls,
  linkInstallation,
  listInstallations,
  previewSetup,
  requireCodehostApp,
  tenantOfInstallation,
  unlinkInstallation
};
