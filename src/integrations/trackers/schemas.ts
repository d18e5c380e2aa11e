/** The request schemas of the routes beside this file (routes.ts keeps the wiring). */
import { z } from 'zod';
import { Uuid } from '../../shared/schemas.js';
import { TrackerMappingChange } from './mapping.js';

export const CallbackQuery = z.object({ code: z.string().max(4096).optional(), state: z.string().max(512).optional(), error: z.string().max(200).optional() });
export const ConnectionParams = z.object({ id: Uuid });
export const DisconnectQuery = z.object({ connection: Uuid.optional() });
export const WebhookQuery = z.object({ site: z.string().max(200).optional(), key: z.string().max(100).optional() });

export const SettingsChange = z.strictObject({
  mapping: TrackerMappingChange.optional(),
  backfillMonths: z.number().int().min(1).max(36).optional(),
});
export type SettingsChange = z.infer<typeof SettingsChange>;
