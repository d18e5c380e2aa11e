/** The request schemas of the routes beside this file (routes.ts keeps the wiring). */
import { z } from 'zod';
import { Uuid } from '../../shared/schemas.js';

export const ConnectionParams = z.object({ id: Uuid });
export const CallbackQuery = z.object({ code: z.string().max(500).optional(), state: z.string().max(600).optional(), error: z.string().max(100).optional() });
export const DigestBody = z.strictObject({ teamId: Uuid, channel: z.string().regex(/^[CG][A-Z0-9]{2,30}$/, 'A Slack channel id (C… or G…)').nullable() });
/** The slash command's form, as Slack posts it (`/delivery [team] [month]`). */
export const SlashCommandForm = z.object({
  team_id: z.string().min(1).max(50),
  user_id: z.string().min(1).max(50),
  command: z.string().max(50).optional(),
  text: z.string().max(500).default(''),
  response_url: z.url().max(500),
});
