/**
 * Who a Slack user is in the tenant: the workspace's verified e-mail address (users.info, scope
 * users:read.email) matched to a person of the register or an account of the tenant. Anyone else
 * is refused, so a workspace shared with guests or contractors shows figures to none of them.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { people, teamMemberships, teams, tenantMemberships, users } from '../../db/schema/index.js';
import type { WebClient } from '@slack/web-api';

export interface ChatPerson {
  email: string;
  /** Enabled teams the person belongs to (by the register), for a command that names no team. */
  teams: { id: string; slug: string; name: string }[];
}

/** The user's e-mail as Slack vouches for it: confirmed, not a bot, not deactivated; else null. */
export async function verifiedEmailOf(client: WebClient, slackUserId: string): Promise<string | null> {
  const { user } = await client.users.info({ user: slackUserId });
  if (!user || user.deleted || user.is_bot || user.is_email_confirmed !== true) return null;
  const email = user.profile?.email?.trim().toLowerCase();
  return email ? email : null;
}

export async function personByEmail(db: Db, tenantId: string, email: string): Promise<ChatPerson | null> {
  const found = await db
    .select({ id: people.id })
    .from(people)
    .where(and(eq(people.tenantId, tenantId), sql`lower(${people.email}) = ${email}`))
    .limit(1);
  const [account] = found.length
    ? [null]
    : await db
        .select({ id: users.id })
        .from(users)
        .innerJoin(tenantMemberships, and(eq(tenantMemberships.userId, users.id), eq(tenantMemberships.tenantId, tenantId)))
        .where(sql`lower(${users.email}) = ${email}`)
        .limit(1);
  if (!found.length && !account) return null;
  const personId = found[0]?.id;
  const memberOf = personId
    ? await db
        .select({ id: teams.id, slug: teams.slug, name: teams.name })
        .from(teamMemberships)
        .innerJoin(teams, eq(teams.id, teamMemberships.teamId))
        .where(and(eq(teamMemberships.tenantId, tenantId), eq(teamMemberships.personId, personId), eq(teams.enabled, true)))
        .orderBy(teams.slug)
    : [];
  return { email, teams: memberOf };
}
