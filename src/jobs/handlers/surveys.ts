import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { surveys } from '../../db/schema/index.js';
import { emailInvitations } from '../../surveys/service.js';
import { defineJob } from '../define.js';

export const SEND_INVITATIONS_JOB = 'surveys.send-invitations';

const Payload = z.object({ tenantId: z.uuid(), surveyId: z.uuid() });

/** E-mails a survey's invitations outside the request that opened it (one message each). */
export const sendSurveyInvitations = defineJob({
  name: SEND_INVITATIONS_JOB,
  summary: 'E-mails the access links of a newly opened survey.',
  idempotency: 'Sends only invitations with no emailed_at and sets it after each message; a retry sends the rest (a crash between a send and its mark can repeat that one message).',
  payload: Payload,
  tenantOf: (p) => p.tenantId,
  async run(ctx, payload) {
    const { db } = ctx.app.database;
    const [survey] = await db.select().from(surveys).where(and(eq(surveys.id, payload.surveyId), eq(surveys.tenantId, payload.tenantId)));
    if (!survey || survey.status !== 'open') return { sent: 0 };
    return { sent: await emailInvitations({ db, config: ctx.app.config, log: ctx.app.log }, survey) };
  },
});
