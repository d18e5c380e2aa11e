import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { surveys } from '../db/schema/index.js';
import { closeDueSurveys, emailInvitations } from './service.js';
import { mailerConfigured } from '../mail/mailer.js';
import { defineJob } from '../jobs/define.js';
import { scheduled } from '../jobs/maintenance.js';
import { Uuid } from '../shared/schemas.js';

export const SEND_INVITATIONS_JOB = 'surveys.send-invitations';

const Payload = z.object({ tenantId: Uuid, surveyId: Uuid });

/** E-mails a survey's invitations outside the request that opened it (one message each). */
export const sendSurveyInvitations = defineJob({
  name: SEND_INVITATIONS_JOB,
  summary: 'Sends the access links of a newly opened survey by e-mail, by Slack direct message, or both (the survey\'s send_by).',
  idempotency: 'Sends only invitations with no emailed_at (chat_sent_at for direct messages) and sets it after each message; a retry sends the rest (a crash between a send and its mark can repeat that one message).',
  payload: Payload,
  tenantOf: (p) => p.tenantId,
  async run(ctx, payload) {
    const { db } = ctx.app.database;
    const [survey] = await db.select().from(surveys).where(and(eq(surveys.id, payload.surveyId), eq(surveys.tenantId, payload.tenantId)));
    if (!survey || survey.status !== 'open') return { sent: 0 };
    const deps = { db, config: ctx.app.config, log: ctx.app.log };
    // Each channel marks what it sent (emailed_at, chat_sent_at), so a retry sends only the rest.
    const outcome: { sent?: number; chat?: { sent: number; noAccount: number } } = {};
    const failures: string[] = [];
    if (survey.sendBy !== 'chat' && mailerConfigured(ctx.app.config)) {
      outcome.sent = await emailInvitations(deps, survey).catch((error: Error) => (failures.push(error.message), 0));
    }
    if (survey.sendBy !== 'email') {
      const { dmInvitations } = await import('./slackInvitations.js');
      outcome.chat = await dmInvitations(deps, survey).catch((error: Error) => (failures.push(error.message), { sent: 0, noAccount: 0 }));
    }
    if (failures.length) throw new Error(failures.join('; '));
    return outcome;
  },
});

export const surveysCloseDue = defineJob({
  ...scheduled,
  name: 'surveys.close-due',
  summary: 'Closes open surveys whose close day (UTC) has passed.',
  idempotency: 'Closes only surveys still open; a second run changes nothing.',
  async run(ctx) {
    return { closed: await closeDueSurveys(ctx.app.database.db) };
  },
});
