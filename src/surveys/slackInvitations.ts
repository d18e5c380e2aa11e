/**
 * Survey links by Slack direct message: the same personal signed link the e-mail carries
 * (surveyLink), posted by the bot to the member found by e-mail (users.lookupByEmail). The
 * response still does not know the invitation, so anonymity is as with e-mail; a member without a
 * Slack account in the workspace gets no message (and the e-mail, when the survey is sent by both).
 */
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { people, surveyInvitations } from '../db/schema/index.js';
import type { SurveyDeps, SurveyRow } from './service.js';
import { surveyLink } from './service.js';
import { QUESTIONS } from './questions.js';
import { activeConnections, tokensOf, type Connection } from '../integrations/shared/connections.js';
import { slackClient, slackErrorCode } from '../integrations/slack/client.js';

/** The tenant's active Slack connection, if any: surveys can be sent by chat only through one. */
export async function activeSlack(db: Db, tenantId: string): Promise<Connection | null> {
  return (await activeConnections(db, 'slack', tenantId))[0] ?? null;
}

export async function dmInvitations(deps: SurveyDeps, survey: SurveyRow): Promise<{ sent: number; noAccount: number }> {
  const connection = await activeSlack(deps.db, survey.tenantId);
  if (!connection) throw new Error('no active Slack connection to send the survey by direct message');
  const client = slackClient(deps.config, tokensOf(deps.config.oauthEncryptionKey, connection).accessToken);
  const pending = await deps.db
    .select({ id: surveyInvitations.id, email: people.email })
    .from(surveyInvitations)
    .innerJoin(people, eq(people.id, surveyInvitations.personId))
    .where(and(eq(surveyInvitations.surveyId, survey.id), sql`${surveyInvitations.chatSentAt} is null`, sql`${people.email} is not null`));
  let sent = 0;
  let noAccount = 0;
  let failed = 0;
  for (const invitation of pending) {
    try {
      const found = await client.users.lookupByEmail({ email: (invitation.email as string).trim().toLowerCase() }).catch((error) => {
        if (slackErrorCode(error) === 'users_not_found') return null;
        throw error;
      });
      if (!found?.user?.id) {
        noAccount += 1;
        continue;
      }
      const link = surveyLink(deps.config, invitation.id, survey.closesOn);
      await client.chat.postMessage({
        channel: found.user.id,
        text: `*Survey: ${survey.title}*\n${QUESTIONS.length} short questions about how your team delivers software; answers are anonymous.\n<${link}|Open the survey> (until ${survey.closesOn}). The link is yours alone: please do not forward it.`,
        unfurl_links: false,
      });
      await deps.db.update(surveyInvitations).set({ chatSentAt: sql`now()` }).where(eq(surveyInvitations.id, invitation.id));
      sent += 1;
    } catch (error) {
      failed += 1;
      deps.log.warn({ surveyId: survey.id, invitationId: invitation.id, err: slackErrorCode(error) }, 'survey direct message not sent');
    }
  }
  if (failed > 0) throw new Error(`${failed} of ${pending.length} survey direct messages not sent (${sent} sent)`);
  return { sent, noAccount };
}
