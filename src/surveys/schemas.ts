/** The request schemas of the routes beside this file (routes.ts keeps the wiring). */
import { z } from 'zod';
import { pgDate } from '../shared/limits.js';
import { Uuid } from '../shared/schemas.js';

const Day = pgDate();
export const CreateSurveyBody = z.strictObject({
  title: z.string().trim().min(1).max(200),
  teams: z.array(z.string().min(1).max(100)).min(1, 'Choose at least one team').max(500),
  opensOn: Day.optional(),
  closesOn: Day,
  /** E-mail (default), a chat direct message through the connected Slack workspace, or both. */
  sendBy: z.enum(['email', 'chat', 'both']).default('email'),
});
// An id that is not a UUID cannot name a survey: "not found", like any other unknown id.
export const SurveyParams = z.object({ id: Uuid }).catch({ id: '00000000-0000-0000-0000-000000000000' });
export const TokenParams = z.object({ token: z.string().max(300) });
