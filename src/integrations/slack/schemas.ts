/** The request schemas of the routes beside this file (routes.ts keeps the wiring). */
import { z } from 'zod';
import { Uuid } from '../../shared/schemas.js';

export const ConnectionParams = z.object({ id: Uuid });
export const CallbackQuery = z.object({ code: z.string().max(500).optional(), state: z.string().max(600).optional(), error: z.string().max(100).optional() });
export const DigestBody = z.strictObject({ teamId: Uuid, channel: z.string().regex(/^[CG][A-Z0-9]{2,30}$/, 'A Slack channel id (C… or G…)').nullable() });
