import { and, eq, sql } from "drizzle-orm";
import { people, teamMemberships, teams, tenantMemberships, users } from "../../db/schema/index.js";
async function verifiedEmailOf(client, slackUserId) {
  const { user } = await client.users.info({ user: slackUserId });
  if (!user || user.deleted || user.is_bot || user.is_email_confirmed !== true) return null;
  const email = user.profile?.email?.trim().toLowerCase();
  return email ? email : null;
}
async function personByEmail(db, tenantId, email) {
  const found = await db.select({ id: people.id }).from(people).where(and(eq(people.tenantId, tenantId), sql`lower(${people.email}) = ${email}`)).limit(1);
  const [account] = found.length ? [null] : await db.select({ id: users.id }).from(users).innerJoin(tenantMemberships, and(eq(tenantMemberships.userId, users.id), eq(tenantMemberships.tenantId, tenantId))).where(sql`lower(${users.email}) = ${email}`).limit(1);
  if (!found.length && !account) return null;
  const personId = found[0]?.id;
  const memberOf = personId ? await db.select({ id: teams.id, slug: teams.slug, name: teams.name }).from(teamMemberships).innerJoin(teams, eq(teams.id, teamMemberships.teamId)).where(and(eq(teamMemberships.tenantId, tenantId), eq(teamMemberships.personId, personId), eq(teams.enabled, true))).orderBy(teams.slug) : [];
  return { email, teams: memberOf };
}
export {
  personByEmail,
  verifiedEmailOf
};
