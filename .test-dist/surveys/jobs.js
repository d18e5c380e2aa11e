import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { surveys } from "../db/schema/index.js";
import { emailInvitations } from "./service.js";
import { mailerConfigured } from "../mail/mailer.js";
import { defineJob } from "../jobs/define.js";
import { Uuid } from "../shared/schemas.js";
const SEND_INVITATIONS_JOB = "surveys.send-invitations";
const Payload = z.object({ tenantId: Uuid, surveyId: Uuid });
const sendSurveyInvitations = defineJob({
  name: SEND_INVITATIONS_JOB,
  summary: "Sends the access links of a newly opened survey by e-mail, by Slack direct message, or both (the survey's send_by).",
  idempotency: "Sends only invitations with no emailed_at (chat_sent_at for direct messages) and sets it after each message; a retry sends the rest (a crash between a send and its mark can repeat that one message).",
  payload: Payload,
  tenantOf: (p) => p.tenantId,
  async run(ctx, payload) {
    const { db } = ctx.app.database;
    const [survey] = await db.select().from(surveys).where(and(eq(surveys.id, payload.surveyId), eq(surveys.tenantId, payload.tenantId)));
    if (!survey || survey.status !== "open") return { sent: 0 };
    const deps = { db, config: ctx.app.config, log: ctx.app.log };
    const outcome = {};
    const failures = [];
    if (survey.sendBy !== "chat" && mailerConfigured(ctx.app.config)) {
      outcome.sent = await emailInvitations(deps, survey).catch((error) => (failures.push(error.message), 0));
    }
    if (survey.sendBy !== "email") {
      const { dmInvitations } = await import("../integrations/slack/surveyDm.js");
      outcome.chat = await dmInvitations(deps, survey).catch((error) => (failures.push(error.message), { sent: 0, noAccount: 0 }));
    }
    if (failures.length) throw new Error(failures.join("; "));
    return outcome;
  }
});
export {
  SEND_INVITATIONS_JOB,
  sendSurveyInvitations
};
