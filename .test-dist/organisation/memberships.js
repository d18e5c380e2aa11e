import { and, eq } from "drizzle-orm";
import { people, teamMemberships, teams } from "../db/schema/index.js";
import { AppError, notFound } from "../errors.js";
import { authorize } from "../auth/policies.js";
async function requirePair(db, tenantId, teamId, personId) {
  const [[team], [person]] = await Promise.all([
    db.select({ id: teams.id }).from(teams).where(and(eq(teams.tenantId, tenantId), eq(teams.id, teamId))),
    db.select({ id: people.id }).from(people).where(and(eq(people.tenantId, tenantId), eq(people.id, personId)))
  ]);
  if (!team) throw notFound("Team");
  if (!person) throw notFound("Person");
}
async function addManualMembership(db, actor, teamId, personId) {
  authorize(actor, "team.manage");
  const { tenantId } = actor;
  await requirePair(db, tenantId, teamId, personId);
  const inserted = await db.insert(teamMemberships).values({ tenantId, teamId, personId, membershipSource: "manual" }).onConflictDoNothing().returning({ teamId: teamMemberships.teamId });
  return inserted.length > 0;
}
async function removeManualMembership(db, actor, teamId, personId) {
  authorize(actor, "team.manage");
  const { tenantId } = actor;
  await requirePair(db, tenantId, teamId, personId);
  const [existing] = await db.select({ source: teamMemberships.membershipSource }).from(teamMemberships).where(and(eq(teamMemberships.tenantId, tenantId), eq(teamMemberships.teamId, teamId), eq(teamMemberships.personId, personId)));
  if (!existing) throw notFound("Membership");
  if (existing.source === "register") throw new AppError("conflict", "This membership comes from the register; change it by importing a new register");
  await db.delete(teamMemberships).where(and(eq(teamMemberships.tenantId, tenantId), eq(teamMemberships.teamId, teamId), eq(teamMemberships.personId, personId)));
}
export {
  addManualMembership,
  removeManualMembership
};
