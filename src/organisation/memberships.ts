/**
 * Manual team memberships: an owner adds someone the register does not list (a secondee, a new
 * starter before the next register). Register memberships belong to the register and change only
 * by importing it.
 */
import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { people, teamMemberships, teams } from '../db/schema/index.js';
import { AppError, notFound } from '../errors.js';
import type { Actor } from '../auth/principal.js';
import { authorize } from '../auth/policies.js';

async function requirePair(db: Db, tenantId: string, teamId: string, personId: string): Promise<void> {
  const [[team], [person]] = await Promise.all([
    db.select({ id: teams.id }).from(teams).where(and(eq(teams.tenantId, tenantId), eq(teams.id, teamId))),
    db.select({ id: people.id }).from(people).where(and(eq(people.tenantId, tenantId), eq(people.id, personId))),
  ]);
  if (!team) throw notFound('Team');
  if (!person) throw notFound('Person');
}

/** Adds a manual membership; returns false when the person already is a member (from any source). */
export async function addManualMembership(db: Db, actor: Actor, teamId: string, personId: string): Promise<boolean> {
  authorize(actor, 'team.manage');
  const { tenantId } = actor;
  await requirePair(db, tenantId, teamId, personId);
  const inserted = await db.insert(teamMemberships).values({ tenantId, teamId, personId, membershipSource: 'manual' })
    .onConflictDoNothing().returning({ teamId: teamMemberships.teamId });
  return inserted.length > 0;
}

/** Removes a manual membership; a register membership is a 409 (the register owns it). */
export async function removeManualMembership(db: Db, actor: Actor, teamId: string, personId: string): Promise<void> {
  authorize(actor, 'team.manage');
  const { tenantId } = actor;
  await requirePair(db, tenantId, teamId, personId);
  const [existing] = await db.select({ source: teamMemberships.membershipSource }).from(teamMemberships)
    .where(and(eq(teamMemberships.tenantId, tenantId), eq(teamMemberships.teamId, teamId), eq(teamMemberships.personId, personId)));
  if (!existing) throw notFound('Membership');
  if (existing.source === 'register') throw new AppError('conflict', 'This membership comes from the register; change it by importing a new register');
  await db.delete(teamMemberships).where(and(eq(teamMemberships.tenantId, tenantId), eq(teamMemberships.teamId, teamId), eq(teamMemberships.personId, personId)));
}
