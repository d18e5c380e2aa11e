/**
 * Teams, people and project ownership inside one tenant. Every read filters by the tenant; a team
 * of another tenant is "not found".
 */
import { and, asc, count, eq, ilike, inArray, not, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { orgUnits, people, personIdentities, projects, teamMemberships, teams } from '../db/schema/index.js';
import { AppError, notFound } from '../errors.js';
import { UNKNOWN_PROJECT } from '../shared/projectKeys.js';
import type { Paging } from '../http/route.js';
import type { Actor } from '../auth/principal.js';
import { authorize } from '../auth/policies.js';
import { PROJECT_KEY } from '../shared/schemas.js';

export { PROJECT_KEY };

export interface TeamView {
  id: string; slug: string; name: string; externalRef: string | null; costCentreCode: string | null;
  orgUnit: { id: string; slug: string; name: string } | null;
  supplierName: string | null; deliveryModel: string | null; locationCountry: string | null; enabled: boolean;
  memberCount: number; projects: string[]; createdAt: Date; updatedAt: Date;
}

const teamColumns = {
  id: teams.id, slug: teams.slug, name: teams.name, externalRef: teams.externalRef, costCentreCode: teams.costCentreCode,
  supplierName: teams.supplierName, deliveryModel: teams.deliveryModel, locationCountry: teams.locationCountry, enabled: teams.enabled,
  createdAt: teams.createdAt, updatedAt: teams.updatedAt, orgUnitId: orgUnits.id, orgUnitSlug: orgUnits.slug, orgUnitName: orgUnits.name,
};

async function loadTeams(db: Db, tenantId: string, where: ReturnType<typeof and>, paging?: Paging): Promise<TeamView[]> {
  let query = db.select(teamColumns).from(teams).leftJoin(orgUnits, eq(orgUnits.id, teams.orgUnitId))
    .where(and(eq(teams.tenantId, tenantId), where)).orderBy(sql`${teams.slug} collate "C"`).$dynamic();
  if (paging) query = query.limit(paging.perPage).offset((paging.page - 1) * paging.perPage);
  const rows = await query;
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [members, owned] = await Promise.all([
    db.select({ teamId: teamMemberships.teamId, n: count() }).from(teamMemberships)
      .where(and(eq(teamMemberships.tenantId, tenantId), inArray(teamMemberships.teamId, ids))).groupBy(teamMemberships.teamId),
    db.select({ teamId: projects.owningTeamId, key: projects.projectKey }).from(projects)
      .where(and(eq(projects.tenantId, tenantId), inArray(projects.owningTeamId, ids))).orderBy(sql`${projects.projectKey} collate "C"`),
  ]);
  const memberCount = new Map(members.map((m) => [m.teamId, m.n]));
  return rows.map(({ orgUnitId, orgUnitSlug, orgUnitName, ...team }) => ({
    ...team,
    orgUnit: orgUnitId ? { id: orgUnitId, slug: orgUnitSlug as string, name: orgUnitName as string } : null,
    memberCount: memberCount.get(team.id) ?? 0,
    // One key may exist under several providers; the team owns the key once.
    projects: [...new Set(owned.filter((p) => p.teamId === team.id).map((p) => p.key))],
  }));
}

/** Teams of the tenant by slug, with member counts and owned projects. */
export async function listTeams(db: Db, tenantId: string, paging: Paging, filter: { enabled?: boolean } = {}): Promise<{ rows: TeamView[]; total: number }> {
  const where = filter.enabled === undefined ? undefined : eq(teams.enabled, filter.enabled);
  const [rows, [total]] = await Promise.all([
    loadTeams(db, tenantId, and(where), paging),
    db.select({ n: count() }).from(teams).where(and(eq(teams.tenantId, tenantId), where)),
  ]);
  return { rows, total: total?.n ?? 0 };
}

export async function getTeam(db: Db, tenantId: string, id: string): Promise<TeamView> {
  const [team] = await loadTeams(db, tenantId, and(eq(teams.id, id)));
  if (!team) throw notFound('Team');
  return team;
}

/**
 * Enables or disables a team, and/or sets exactly the projects it owns: listed keys are taken from
 * any other owner (a project has one owning team), keys no project has yet are created with
 * provider manual, and projects no longer listed lose their owner.
 */
export async function updateTeam(db: Db, actor: Actor, id: string, patch: { enabled?: boolean; projects?: string[]; unknownProjects?: 'refuse' | 'create' }): Promise<TeamView> {
  authorize(actor, 'team.manage');
  const { tenantId } = actor;
  await db.transaction(async (tx) => {
    const [team] = await tx.select({ id: teams.id }).from(teams).where(and(eq(teams.tenantId, tenantId), eq(teams.id, id))).for('update');
    if (!team) throw notFound('Team');
    if (patch.projects && patch.unknownProjects === 'refuse') await refuseUnknown(tx, tenantId, patch.projects);
    if (patch.enabled !== undefined) await tx.update(teams).set({ enabled: patch.enabled, updatedAt: new Date() }).where(eq(teams.id, id));
    if (patch.projects) {
      const keys = [...new Set(patch.projects)];
      await tx.update(projects).set({ owningTeamId: null })
        .where(and(eq(projects.tenantId, tenantId), eq(projects.owningTeamId, id), keys.length ? not(keyIn(keys)) : undefined));
      await ensureProjects(tx, tenantId, keys);
      if (keys.length) await tx.update(projects).set({ owningTeamId: id }).where(and(eq(projects.tenantId, tenantId), keyIn(keys)));
    }
  });
  return getTeam(db, tenantId, id);
}

/** Projects whose key is one of `keys`, whatever its case (one project per repository, docs/activity.md). */
const keyIn = (keys: string[]) => sql`lower(${projects.projectKey}) in (select lower(k) from jsonb_array_elements_text(${JSON.stringify(keys)}::jsonb) k)`;

/**
 * Keys no project of the tenant has (any case): a typing mistake would otherwise make a project
 * that no data ever reaches. Each is named under its item, with the nearest known key when one is
 * within two edits; nothing is written.
 */
async function refuseUnknown(db: Db, tenantId: string, keys: string[]): Promise<void> {
  const known = await db.select({ key: projects.projectKey }).from(projects).where(eq(projects.tenantId, tenantId));
  const lower = new Set(known.map((p) => p.key.toLowerCase()));
  const details = keys.flatMap((key, i) => {
    if (lower.has(key.toLowerCase())) return [];
    const near = nearest(key, known.map((p) => p.key));
    return [{ path: `projects.${i}`, message: `${UNKNOWN_PROJECT} "${key}"${near ? ` (did you mean ${near}?)` : ''}: no pull request, deployment, issue or code-host event has named it yet` }];
  });
  if (details.length) throw new AppError('validation_failed', `Unknown project keys: ${details.length === 1 ? 'one key names' : `${details.length} keys name`} no project of this organisation (send "unknownProjects": "create" to add them anyway)`, details);
}

/** The known key fewest edits away (at most two, case ignored), for "did you mean". */
function nearest(key: string, known: string[]): string | null {
  let best: { key: string; distance: number } | null = null;
  for (const candidate of known) {
    const distance = editDistance(key.toLowerCase(), candidate.toLowerCase(), 2);
    if (distance <= 2 && (!best || distance < best.distance)) best = { key: candidate, distance };
  }
  return best?.key ?? null;
}

/** Levenshtein distance, stopping early once every path is past `limit` (then limit + 1). */
function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    if (Math.min(...row) > limit) return limit + 1;
    previous = row;
  }
  return previous[b.length]!;
}

/**
 * The spec's auto-created project: provider manual, source type manual, every sync on. A key
 * already known in another case is that project; two spellings of a new one make one project.
 */
async function ensureProjects(db: Db, tenantId: string, keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  const existing = await db.select({ key: sql<string>`lower(${projects.projectKey})` }).from(projects).where(and(eq(projects.tenantId, tenantId), keyIn(keys)));
  const known = new Set(existing.map((p) => p.key));
  const missing = keys.filter((k) => !known.has(k.toLowerCase()));
  if (missing.length === 0) return;
  await db.insert(projects).values(missing.map((projectKey) => ({ tenantId, provider: 'manual', projectKey, sourceType: 'manual' })))
    .onConflictDoNothing();
}

/** `project:assign`: the project of that key is owned by the team with this slug. */
export async function assignProject(db: Db, actor: Actor, projectKey: string, teamSlug: string): Promise<{ projectKey: string; teamId: string; teamSlug: string }> {
  authorize(actor, 'team.manage');
  const { tenantId } = actor;
  const [team] = await db.select({ id: teams.id }).from(teams).where(and(eq(teams.tenantId, tenantId), eq(teams.slug, teamSlug)));
  if (!team) throw notFound(`Team "${teamSlug}"`);
  await db.transaction(async (tx) => {
    await ensureProjects(tx, tenantId, [projectKey]);
    await tx.update(projects).set({ owningTeamId: team.id }).where(and(eq(projects.tenantId, tenantId), keyIn([projectKey])));
  });
  return { projectKey, teamId: team.id, teamSlug };
}

export interface PersonView {
  id: string; externalRef: string; email: string | null; displayName: string | null; employmentType: string;
  supplierName: string | null; costCentreCode: string | null; locationCountry: string | null;
  identities: { kind: string; value: string; source: string }[];
  teams: { id: string; slug: string; membershipSource: string }[];
}

/**
 * People of the tenant by external_ref, optionally only the members of one team (by slug) and/or
 * those whose external_ref, name or register e-mail contains `q` (case-insensitive; for pickers).
 */
export async function listPeople(db: Db, tenantId: string, paging: Paging, filter: { team?: string; q?: string } = {}): Promise<{ rows: PersonView[]; total: number }> {
  const inTeam = filter.team === undefined ? undefined : sql`${people.id} in (
    select m.person_id from team_memberships m join teams t on t.id = m.team_id
    where m.tenant_id = ${tenantId}::uuid and t.tenant_id = ${tenantId}::uuid and t.slug = ${filter.team})`;
  // LIKE's own wildcards in the search text are literal characters.
  const pattern = filter.q === undefined ? undefined : `%${filter.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const matches = pattern === undefined ? undefined : or(ilike(people.externalRef, pattern), ilike(people.displayName, pattern), ilike(people.email, pattern));
  const where = and(eq(people.tenantId, tenantId), inTeam, matches);
  const [rows, [total]] = await Promise.all([
    db.select().from(people).where(where).orderBy(sql`${people.externalRef} collate "C"`).limit(paging.perPage).offset((paging.page - 1) * paging.perPage),
    db.select({ n: count() }).from(people).where(where),
  ]);
  return { rows: await withDetails(db, tenantId, rows), total: total?.n ?? 0 };
}

/** One person of the tenant (another tenant's is "not found"). */
export async function getPerson(db: Db, tenantId: string, id: string): Promise<PersonView> {
  const rows = await db.select().from(people).where(and(eq(people.tenantId, tenantId), eq(people.id, id)));
  const [person] = await withDetails(db, tenantId, rows);
  if (!person) throw notFound('Person');
  return person;
}

async function withDetails(db: Db, tenantId: string, rows: (typeof people.$inferSelect)[]): Promise<PersonView[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((p) => p.id);
  const [identities, memberships] = await Promise.all([
    db.select().from(personIdentities).where(and(eq(personIdentities.tenantId, tenantId), inArray(personIdentities.personId, ids)))
      .orderBy(asc(personIdentities.kind), sql`${personIdentities.value} collate "C"`),
    db.select({ personId: teamMemberships.personId, id: teams.id, slug: teams.slug, membershipSource: teamMemberships.membershipSource })
      .from(teamMemberships).innerJoin(teams, eq(teams.id, teamMemberships.teamId))
      .where(and(eq(teamMemberships.tenantId, tenantId), inArray(teamMemberships.personId, ids))).orderBy(sql`${teams.slug} collate "C"`),
  ]);
  return rows.map((p) => ({
    id: p.id, externalRef: p.externalRef, email: p.email, displayName: p.displayName, employmentType: p.employmentType,
    supplierName: p.supplierName, costCentreCode: p.costCentreCode, locationCountry: p.locationCountry,
    identities: identities.filter((i) => i.personId === p.id).map(({ kind, value, source }) => ({ kind, value, source })),
    teams: memberships.filter((m) => m.personId === p.id).map(({ id, slug, membershipSource }) => ({ id, slug, membershipSource })),
  }));
}
