/** The request schemas of the routes beside this file (routes.ts keeps the wiring). */
import { z } from 'zod';
import { Month, Uuid } from '../../shared/schemas.js';

export const ConnectionParams = z.object({ id: Uuid });
export const CallbackQuery = z.object({ code: z.string().max(500).optional(), state: z.string().max(600).optional(), error: z.string().max(100).optional() });
export const ParentBody = z.strictObject({ pageId: z.string().regex(/^[0-9a-fA-F-]{32,36}$/, 'A Notion page id') });
export const PublishBody = z.strictObject({ month: Month.optional() });
