import { sql } from "drizzle-orm";
import { check, date, index, pgTable, primaryKey, smallint, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { tenants, users } from "./identity.js";
import { people, teams } from "./organisation.js";
const surveys = pgTable(
  "surveys",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: uuid("tenant_id").notNull().references(() => tenants.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    opensOn: date("opens_on", { mode: "string" }).notNull(),
    closesOn: date("closes_on", { mode: "string" }).notNull(),
    status: text("status", { enum: ["open", "closed"] }).notNull().default("open"),
    closedAt: timestamp("closed_at", { withTimezone: true }),
    /** How the personal links go out: e-mail, a direct message in the connected chat tool, or both. */
    sendBy: text("send_by", { enum: ["email", "chat", "both"] }).notNull().default("email"),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow()
  },
  (t) => [index("surveys_tenant_idx").on(t.tenantId, t.createdAt), check("surveys_window", sql`${t.closesOn} >= ${t.opensOn}`)]
);
const surveyTeams = pgTable(
  "survey_teams",
  {
    surveyId: uuid("survey_id").notNull().references(() => surveys.id, { onDelete: "cascade" }),
    teamId: uuid("team_id").notNull().references(() => teams.id, { onDelete: "cascade" }),
    tenantId: uuid("tenant_id").notNull().references(() => tenants.id, { onDelete: "cascade" })
  },
  (t) => [primaryKey({ columns: [t.surveyId, t.teamId] })]
);
const surveyInvitations = pgTable(
  "survey_invitations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: uuid("tenant_id").notNull().references(() => tenants.id, { onDelete: "cascade" }),
    surveyId: uuid("survey_id").notNull().references(() => surveys.id, { onDelete: "cascade" }),
    teamId: uuid("team_id").notNull().references(() => teams.id, { onDelete: "cascade" }),
    personId: uuid("person_id").notNull().references(() => people.id, { onDelete: "cascade" }),
    emailedAt: timestamp("emailed_at", { withTimezone: true }),
    /** When the link went out by chat direct message (surveys sent by chat). */
    chatSentAt: timestamp("chat_sent_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow()
  },
  (t) => [uniqueIndex("survey_invitations_unique").on(t.surveyId, t.teamId, t.personId), index("survey_invitations_team_idx").on(t.surveyId, t.teamId)]
);
const surveyResponses = pgTable(
  "survey_responses",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tenantId: uuid("tenant_id").notNull().references(() => tenants.id, { onDelete: "cascade" }),
    surveyId: uuid("survey_id").notNull().references(() => surveys.id, { onDelete: "cascade" }),
    teamId: uuid("team_id").notNull().references(() => teams.id, { onDelete: "cascade" }),
    responseKey: text("response_key").notNull(),
    q1: smallint("q1").notNull(),
    q2: smallint("q2").notNull(),
    q3: smallint("q3").notNull(),
    q4: smallint("q4").notNull(),
    q5: smallint("q5").notNull(),
    comment: text("comment")
  },
  (t) => [
    uniqueIndex("survey_responses_key").on(t.responseKey),
    index("survey_responses_survey_team_idx").on(t.surveyId, t.teamId),
    check("survey_responses_range", sql`${t.q1} between 1 and 5 and ${t.q2} between 1 and 5 and ${t.q3} between 1 and 5 and ${t.q4} between 1 and 5 and ${t.q5} between 1 and 5`)
  ]
);
export {
  surveyInvitations,
  surveyResponses,
  surveyTeams,
  surveys
};
