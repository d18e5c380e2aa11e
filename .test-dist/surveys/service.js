import { and, count, desc, eq, inArray, lte, or, sql } from "drizzle-orm";
import { people, surveyInvitations, surveyResponses, surveys, surveyTeams, teamMemberships, teams } from "../db/schema/index.js";
import { authorize } from "../auth/policies.js";
import { AppError, notFound } from "../errors.js";
import { sendMail } from "../mail/mailer.js";
import { linkExpiry, responseKey, signSurveyToken, surveyLinkKey, verifySurveyToken } from "./links.js";
import { QUESTIONS } from "./questions.js";
const today = () => (/* @__PURE__ */ new Date()).toISOString().slice(0, 10);
const keyCache = /* @__PURE__ */ new Map();
function keyOf(config) {
  let key = keyCache.get(config.database.url);
  if (!key) keyCache.set(config.database.url, key = surveyLinkKey(config.database.url));
  return key;
}
function surveyLink(config, invitationId, closesOn) {
  return `${config.appUrl}/s/${signSurveyToken(keyOf(config), invitationId, linkExpiry(closesOn))}`;
}
async function findSurvey(db, principal, id) {
  const [row] = await db.select().from(surveys).where(and(eq(surveys.id, id), eq(surveys.tenantId, principal.tenantId)));
  if (!row) throw notFound("Survey");
  return row;
}
async function createSurvey(deps, principal, input) {
  authorize(principal, "survey.manage");
  const sendBy = input.sendBy ?? "email";
  if (sendBy !== "email") {
    const { activeSlack } = await import("../integrations/slack/surveyDm.js");
    if (!await activeSlack(deps.db, principal.tenantId)) {
      throw new AppError("validation_failed", "Validation failed", [{ path: "sendBy", message: "No chat workspace is connected (Settings \u203A Integrations); send by email" }]);
    }
  }
  if (input.closesOn < input.opensOn) {
    throw new AppError("validation_failed", "Validation failed", [{ path: "closesOn", message: "Must not be before opensOn" }]);
  }
  if (input.closesOn < today()) {
    throw new AppError("validation_failed", "Validation failed", [{ path: "closesOn", message: "Must not be in the past" }]);
  }
  const wanted = [...new Set(input.teams)];
  const ids = wanted.filter((t) => /^[0-9a-f-]{36}$/i.test(t));
  const found = await deps.db.select({ id: teams.id, slug: teams.slug, enabled: teams.enabled }).from(teams).where(and(eq(teams.tenantId, principal.tenantId), or(inArray(teams.slug, wanted), ids.length ? inArray(teams.id, ids) : void 0)));
  const missing = wanted.filter((t) => !found.some((f) => f.id === t || f.slug === t));
  const disabled = found.filter((f) => !f.enabled).map((f) => f.slug);
  if (missing.length || disabled.length) {
    throw new AppError("validation_failed", "Validation failed", [
      ...missing.map((t) => ({ path: "teams", message: `Unknown team: ${t}` })),
      ...disabled.map((t) => ({ path: "teams", message: `Team is disabled: ${t}` }))
    ]);
  }
  const survey = await deps.db.transaction(async (tx) => {
    const [created] = await tx.insert(surveys).values({ tenantId: principal.tenantId, title: input.title, opensOn: input.opensOn, closesOn: input.closesOn, sendBy, createdBy: principal.userId }).returning();
    const row = created;
    const teamIds = found.map((f) => f.id);
    await tx.insert(surveyTeams).values(teamIds.map((teamId) => ({ surveyId: row.id, teamId, tenantId: principal.tenantId })));
    const members = await tx.select({ teamId: teamMemberships.teamId, personId: teamMemberships.personId }).from(teamMemberships).where(and(eq(teamMemberships.tenantId, principal.tenantId), inArray(teamMemberships.teamId, teamIds)));
    if (members.length > 0) {
      await tx.insert(surveyInvitations).values(members.map((m) => ({ tenantId: principal.tenantId, surveyId: row.id, ...m })));
    }
    return row;
  });
  return survey;
}
async function emailInvitations(deps, survey) {
  const pending = await deps.db.select({ id: surveyInvitations.id, email: people.email, name: people.displayName }).from(surveyInvitations).innerJoin(people, eq(people.id, surveyInvitations.personId)).where(and(eq(surveyInvitations.surveyId, survey.id), sql`${surveyInvitations.emailedAt} is null`, sql`${people.email} is not null`));
  let sent = 0;
  let failed = 0;
  for (const invitation of pending) {
    const link = surveyLink(deps.config, invitation.id, survey.closesOn);
    try {
      await sendMail(deps.config, {
        to: invitation.email,
        subject: `Survey: ${survey.title}`,
        text: `${QUESTIONS.length} short questions about how your team delivers software; answers are anonymous.

Open the survey (until ${survey.closesOn}): ${link}
`,
        html: `<p>${QUESTIONS.length} short questions about how your team delivers software; answers are anonymous.</p><p><a href="${link}">Open the survey</a> (until ${survey.closesOn}).</p>`
      });
      await deps.db.update(surveyInvitations).set({ emailedAt: sql`now()` }).where(eq(surveyInvitations.id, invitation.id));
      sent += 1;
    } catch (error) {
      failed += 1;
      deps.log.warn({ surveyId: survey.id, invitationId: invitation.id, err: error.message }, "survey invitation not sent");
    }
  }
  if (failed > 0) throw new Error(`${failed} of ${pending.length} survey invitations not sent (${sent} sent)`);
  return sent;
}
async function listSurveys(db, principal, paging) {
  const where = eq(surveys.tenantId, principal.tenantId);
  const [rows, [total]] = await Promise.all([
    db.select().from(surveys).where(where).orderBy(desc(surveys.createdAt), desc(surveys.id)).limit(paging.perPage).offset((paging.page - 1) * paging.perPage),
    db.select({ n: count() }).from(surveys).where(where)
  ]);
  return { rows, total: total?.n ?? 0 };
}
async function surveyCounts(db, surveyIds) {
  const byId = /* @__PURE__ */ new Map();
  if (surveyIds.length === 0) return byId;
  const rows = await db.execute(sql`
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
async function getSurvey(db, principal, id) {
  const survey = await findSurvey(db, principal, id);
  return { survey, teams: (await surveyCounts(db, [survey.id])).get(survey.id) ?? [] };
}
async function closeSurvey(db, principal, id) {
  authorize(principal, "survey.manage");
  const survey = await findSurvey(db, principal, id);
  if (survey.status === "closed") return survey;
  const [closed] = await db.update(surveys).set({ status: "closed", closedAt: sql`now()` }).where(eq(surveys.id, survey.id)).returning();
  return closed;
}
async function closeDueSurveys(db, now = /* @__PURE__ */ new Date()) {
  const yesterday = new Date(now.getTime() - 24 * 36e5).toISOString().slice(0, 10);
  const closed = await db.update(surveys).set({ status: "closed", closedAt: sql`now()` }).where(and(eq(surveys.status, "open"), lte(surveys.closesOn, yesterday))).returning({ id: surveys.id });
  return closed.length;
}
async function surveyLinks(deps, principal, id) {
  authorize(principal, "survey.manage");
  const survey = await findSurvey(deps.db, principal, id);
  const rows = await deps.db.select({ id: surveyInvitations.id, email: people.email, name: people.displayName, slug: teams.slug, ref: people.externalRef }).from(surveyInvitations).innerJoin(people, eq(people.id, surveyInvitations.personId)).innerJoin(teams, eq(teams.id, surveyInvitations.teamId)).where(eq(surveyInvitations.surveyId, survey.id)).orderBy(teams.slug, people.externalRef);
  return rows.map((r) => ({ email: r.email ?? "", display_name: r.name ?? "", team_slug: r.slug, link: surveyLink(deps.config, r.id, survey.closesOn) }));
}
class LinkProblem extends Error {
  constructor(kind, survey) {
    super(kind);
    this.kind = kind;
    this.survey = survey;
  }
  kind;
  survey;
}
async function openInvitation(deps, token) {
  const check = verifySurveyToken(keyOf(deps.config), token);
  if (!check.ok) throw new LinkProblem(check.reason);
  const [row] = await deps.db.select({ survey: surveys, teamName: teams.name }).from(surveyInvitations).innerJoin(surveys, eq(surveys.id, surveyInvitations.surveyId)).innerJoin(teams, eq(teams.id, surveyInvitations.teamId)).where(eq(surveyInvitations.id, check.invitationId));
  if (!row) throw new LinkProblem("invalid");
  if (row.survey.status === "closed" || row.survey.closesOn < today()) throw new LinkProblem("closed", row.survey);
  if (row.survey.opensOn > today()) throw new LinkProblem("not_open", row.survey);
  const [previous] = await deps.db.select({ q1: surveyResponses.q1, q2: surveyResponses.q2, q3: surveyResponses.q3, q4: surveyResponses.q4, q5: surveyResponses.q5, comment: surveyResponses.comment }).from(surveyResponses).where(eq(surveyResponses.responseKey, responseKey(keyOf(deps.config), check.invitationId)));
  return { survey: row.survey, invitationId: check.invitationId, teamName: row.teamName, previous: previous ?? null };
}
async function submitResponse(deps, token, answers) {
  const opened = await openInvitation(deps, token);
  const [invitation] = await deps.db.select({ teamId: surveyInvitations.teamId, tenantId: surveyInvitations.tenantId }).from(surveyInvitations).where(eq(surveyInvitations.id, opened.invitationId));
  const { teamId, tenantId } = invitation;
  await deps.db.insert(surveyResponses).values({ tenantId, surveyId: opened.survey.id, teamId, responseKey: responseKey(keyOf(deps.config), opened.invitationId), ...answers }).onConflictDoUpdate({ target: surveyResponses.responseKey, set: { ...answers } });
  return { survey: opened.survey, updated: opened.previous !== null };
}
export {
  LinkProblem,
  closeDueSurveys,
  closeSurvey,
  createSurvey,
  emailInvitations,
  getSurvey,
  listSurveys,
  openInvitation,
  submitResponse,
  surveyCounts,
  surveyLink,
  surveyLinks
};
