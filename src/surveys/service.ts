import { and, count, desc, eq, inArray, lte, or, sql } from 'drizzle-orm';
import type { Config } from '../config/index.js';
import type { Db } from '../db/client.js';
import { people, surveyInvitations, surveyResponses, surveys, surveyTeams, teamMemberships, teams } from '../db/schema/index.js';
import type { TenantPrincipal } from '../auth/principal.js';
import { authorize } from '../auth/policies.js';
import { AppError, notFound } from '../errors.js';
import type { Paging } from '../http/route.js';
import type { Logger } from '../log.js';
import { sendMail } from '../mail/mailer.js';
import { linkExpiry, responseKey, signSurveyToken, surveyLinkKey, verifySurveyToken } from './links.js';
import { QUESTIONS } from './questions.js';

export interface SurveyDeps {
  db: Db;
  config: Readonly<Config>;
  log: Logger;
}

export type SurveyRow = typeof surveys.$inferSelect;

const today = () => new Date().toISOString().slice(0, 10);

const keyCache = new Map<string, Buffer>();
function keyOf(config: Readonly<Config>): Buffer {
  let key = keyCache.get(config.database.url);
  if (!key) keyCache.set(config.database.url, (key = surveyLinkKey(config.database.url)));
  return key;
}

export function surveyLink(config: Readonly<Config>, invitationId: string, closesOn: string): string {
  return `${config.appUrl}/s/${signSurveyToken(keyOf(config), invitationId, linkExpiry(closesOn))}`;
}

async function findSurvey(db: Db, principal: TenantPrincipal, id: string): Promise<SurveyRow> {
  const [row] = await db.select().from(surveys).where(and(eq(surveys.id, id), eq(surveys.tenantId, principal.tenantId)));
  if (!row) throw notFound('Survey');
  return row;
}

/**
 * Creates and opens a survey: one invitation per current member of each (enabled) team. Teams are
 * named by id or slug. The caller sends the invitations (job `surveys.send-invitations`).
 */
export async function createSurvey(
  deps: SurveyDeps,
  principal: TenantPrincipal,
  input: { title: string; teams: string[]; opensOn: string; closesOn: string; sendBy?: 'email' | 'chat' | 'both' },
): Promise<SurveyRow> {
  authorize(principal, 'survey.manage');
  const sendBy = input.sendBy ?? 'email';
  if (sendBy !== 'email') {
    const { activeSlack } = await import('./slackInvitations.js');
    if (!(await activeSlack(deps.db, principal.tenantId))) {
      throw new AppError('validation_failed', 'Validation failed', [{ path: 'sendBy', message: 'No chat workspace is connected (Settings › Integrations); send by email' }]);
    }
  }
  if (input.closesOn < input.opensOn) {
    throw new AppError('validation_failed', 'Validation failed', [{ path: 'closesOn', message: 'Must not be before opensOn' }]);
  }
  if (input.closesOn < today()) {
    throw new AppError('validation_failed', 'Validation failed', [{ path: 'closesOn', message: 'Must not be in the past' }]);
  }
  const wanted = [...new Set(input.teams)];
  const ids = wanted.filter((t) => /^[0-9a-f-]{36}$/i.test(t));
  const found = await deps.db
    .select({ id: teams.id, slug: teams.slug, enabled: teams.enabled })
    .from(teams)
    .where(and(eq(teams.tenantId, principal.tenantId), or(inArray(teams.slug, wanted), ids.length ? inArray(teams.id, ids) : undefined)));
  const missing = wanted.filter((t) => !found.some((f) => f.id === t || f.slug === t));
  const disabled = found.filter((f) => !f.enabled).map((f) => f.slug);
  if (missing.length || disabled.length) {
    throw new AppError('validation_failed', 'Validation failed', [
      ...missing.map((t) => ({ path: 'teams', message: `Unknown team: ${t}` })),
      ...disabled.map((t) => ({ path: 'teams', message: `Team is disabled: ${t}` })),
    ]);
  }

  const survey = await deps.db.transaction(async (tx) => {
    const [created] = await tx
      .insert(surveys)
      .values({ tenantId: principal.tenantId, title: input.title, opensOn: input.opensOn, closesOn: input.closesOn, sendBy, createdBy: principal.userId })
      .returning();
    const row = created as SurveyRow;
    const teamIds = found.map((f) => f.id);
    await tx.insert(surveyTeams).values(teamIds.map((teamId) => ({ surveyId: row.id, teamId, tenantId: principal.tenantId })));
    const members = await tx
      .select({ teamId: teamMemberships.teamId, personId: teamMemberships.personId })
      .from(teamMemberships)
      .where(and(eq(teamMemberships.tenantId, principal.tenantId), inArray(teamMemberships.teamId, teamIds)));
    if (members.length > 0) {
      await tx.insert(surveyInvitations).values(members.map((m) => ({ tenantId: principal.tenantId, surveyId: row.id, ...m })));
    }
    return row;
  });
  return survey;
}

/**
 * Sends each not-yet-sent invitation. A failed message is logged (without its link); when any
 * failed, it throws after trying them all, so the job retries just those.
 */
export async function emailInvitations(deps: SurveyDeps, survey: SurveyRow): Promise<number> {
  const pending = await deps.db
    .select({ id: surveyInvitations.id, email: people.email, name: people.displayName })
    .from(surveyInvitations)
    .innerJoin(people, eq(people.id, surveyInvitations.personId))
    .where(and(eq(surveyInvitations.surveyId, survey.id), sql`${surveyInvitations.emailedAt} is null`, sql`${people.email} is not null`));
  let sent = 0;
  let failed = 0;
  for (const invitation of pending) {
    const link = surveyLink(deps.config, invitation.id, survey.closesOn);
    try {
      await sendMail(deps.config, {
        to: invitation.email as string,
        subject: `Survey: ${survey.title}`,
        text: `${QUESTIONS.length} short questions about how your team delivers software; answers are anonymous.\n\nOpen the survey (until ${survey.closesOn}): ${link}\n`,
        html: `<p>${QUESTIONS.length} short questions about how your team delivers software; answers are anonymous.</p><p><a href="${link}">Open the survey</a> (until ${survey.closesOn}).</p>`,
      });
      await deps.db.update(surveyInvitations).set({ emailedAt: sql`now()` }).where(eq(surveyInvitations.id, invitation.id));
      sent += 1;
    } catch (error) {
      failed += 1;
      deps.log.warn({ surveyId: survey.id, invitationId: invitation.id, err: (error as Error).message }, 'survey invitation not sent');
    }
  }
  if (failed > 0) throw new Error(`${failed} of ${pending.length} survey invitations not sent (${sent} sent)`);
  return sent;
}

export async function listSurveys(db: Db, principal: TenantPrincipal, paging: Paging): Promise<{ rows: SurveyRow[]; total: number }> {
  const where = eq(surveys.tenantId, principal.tenantId);
  const [rows, [total]] = await Promise.all([
    db.select().from(surveys).where(where).orderBy(desc(surveys.createdAt), desc(surveys.id)).limit(paging.perPage).offset((paging.page - 1) * paging.perPage),
    db.select({ n: count() }).from(surveys).where(where),
  ]);
  return { rows, total: total?.n ?? 0 };
}

export interface TeamCounts {
  teamId: string;
  slug: string;
  name: string;
  invitations: number;
  responses: number;
}

/** Counts only: invitations and responses per team. Nothing about who answered, nor what. */
export async function surveyCounts(db: Db, surveyIds: string[]): Promise<Map<string, TeamCounts[]>> {
  const byId = new Map<string, TeamCounts[]>();
  if (surveyIds.length === 0) return byId;
  const rows = await db.execute<{ survey_id: string; team_id: string; slug: string; name: string; invitations: number; responses: number }>(sql`
    select survey_teams.survey_id, t.id as team_id, t.slug, t.name,
      (select count(*)::int from survey_invitations i where i.survey_id = survey_teams.survey_id and i.team_id = survey_teams.team_id) as invitations,
      (select count(*)::int from survey_responses r where r.survey_id = survey_teams.survey_id and r.team_id = survey_teams.team_id) as responses
    from survey_teams join teams t on t.id = survey_teams.team_id
    where ${inArray(surveyTeams.surveyId, surveyIds)}
    order by t.slug`);
  for (const row of rows.rows) {
    const list = byId.get(row.survey_id) ?? [];
    list.push({ teamId: row.team_id, slug: row.slug, name: row.name, invitations: row.invitations, responses: row.responses });
    byId.set(row.survey_id, list);
  }
  return byId;
}

export async function getSurvey(db: Db, principal: TenantPrincipal, id: string): Promise<{ survey: SurveyRow; teams: TeamCounts[] }> {
  const survey = await findSurvey(db, principal, id);
  return { survey, teams: (await surveyCounts(db, [survey.id])).get(survey.id) ?? [] };
}

export async function closeSurvey(db: Db, principal: TenantPrincipal, id: string): Promise<SurveyRow> {
  authorize(principal, 'survey.manage');
  const survey = await findSurvey(db, principal, id);
  if (survey.status === 'closed') return survey;
  const [closed] = await db.update(surveys).set({ status: 'closed', closedAt: sql`now()` }).where(eq(surveys.id, survey.id)).returning();
  return closed as SurveyRow;
}

/** The schedule's work: every open survey whose close day has passed (UTC) is closed. Idempotent. */
export async function closeDueSurveys(db: Db, now = new Date()): Promise<number> {
  const yesterday = new Date(now.getTime() - 24 * 3600_000).toISOString().slice(0, 10);
  const closed = await db
    .update(surveys)
    .set({ status: 'closed', closedAt: sql`now()` })
    .where(and(eq(surveys.status, 'open'), lte(surveys.closesOn, yesterday)))
    .returning({ id: surveys.id });
  return closed.length;
}

export interface LinkRow {
  email: string;
  display_name: string;
  team_slug: string;
  link: string;
}

/** The access links of a survey, for owners who distribute them themselves. */
export async function surveyLinks(deps: SurveyDeps, principal: TenantPrincipal, id: string): Promise<LinkRow[]> {
  authorize(principal, 'survey.manage');
  const survey = await findSurvey(deps.db, principal, id);
  const rows = await deps.db
    .select({ id: surveyInvitations.id, email: people.email, name: people.displayName, slug: teams.slug, ref: people.externalRef })
    .from(surveyInvitations)
    .innerJoin(people, eq(people.id, surveyInvitations.personId))
    .innerJoin(teams, eq(teams.id, surveyInvitations.teamId))
    .where(eq(surveyInvitations.surveyId, survey.id))
    .orderBy(teams.slug, people.externalRef);
  return rows.map((r) => ({ email: r.email ?? '', display_name: r.name ?? '', team_slug: r.slug, link: surveyLink(deps.config, r.id, survey.closesOn) }));
}

export type OpenedInvitation = { survey: SurveyRow; invitationId: string; teamName: string; previous: Record<string, number | string | null> | null };

/** Why a link does not open a form; each maps to a page with its own status. */
export class LinkProblem extends Error {
  constructor(readonly kind: 'invalid' | 'expired' | 'closed' | 'not_open', readonly survey?: SurveyRow) {
    super(kind);
  }
}

/** Verifies the signature first (no lookup for a forged link), then the invitation and its survey. */
export async function openInvitation(deps: SurveyDeps, token: string): Promise<OpenedInvitation> {
  const check = verifySurveyToken(keyOf(deps.config), token);
  if (!check.ok) throw new LinkProblem(check.reason);
  const [row] = await deps.db
    .select({ survey: surveys, teamName: teams.name })
    .from(surveyInvitations)
    .innerJoin(surveys, eq(surveys.id, surveyInvitations.surveyId))
    .innerJoin(teams, eq(teams.id, surveyInvitations.teamId))
    .where(eq(surveyInvitations.id, check.invitationId));
  if (!row) throw new LinkProblem('invalid');
  if (row.survey.status === 'closed' || row.survey.closesOn < today()) throw new LinkProblem('closed', row.survey);
  if (row.survey.opensOn > today()) throw new LinkProblem('not_open', row.survey);
  const [previous] = await deps.db
    .select({ q1: surveyResponses.q1, q2: surveyResponses.q2, q3: surveyResponses.q3, q4: surveyResponses.q4, q5: surveyResponses.q5, comment: surveyResponses.comment })
    .from(surveyResponses)
    .where(eq(surveyResponses.responseKey, responseKey(keyOf(deps.config), check.invitationId)));
  return { survey: row.survey, invitationId: check.invitationId, teamName: row.teamName, previous: previous ?? null };
}

export type Answers = { q1: number; q2: number; q3: number; q4: number; q5: number; comment: string | null };

/** One response per invitation: a second submission replaces the first until the survey closes. */
export async function submitResponse(deps: SurveyDeps, token: string, answers: Answers): Promise<{ survey: SurveyRow; updated: boolean }> {
  const opened = await openInvitation(deps, token);
  const [invitation] = await deps.db
    .select({ teamId: surveyInvitations.teamId, tenantId: surveyInvitations.tenantId })
    .from(surveyInvitations)
    .where(eq(surveyInvitations.id, opened.invitationId));
  const { teamId, tenantId } = invitation as { teamId: string; tenantId: string };
  await deps.db
    .insert(surveyResponses)
    .values({ tenantId, surveyId: opened.survey.id, teamId, responseKey: responseKey(keyOf(deps.config), opened.invitationId), ...answers })
    .onConflictDoUpdate({ target: surveyResponses.responseKey, set: { ...answers } });
  return { survey: opened.survey, updated: opened.previous !== null };
}
