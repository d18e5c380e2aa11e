/** The request schemas of the routes beside this file (routes.ts keeps the wiring). */
import { z } from 'zod';
import { ORGANISATION_PROVIDERS } from './settings.js';

export const AiSettingsBody = z.strictObject({
  provider: z.enum(ORGANISATION_PROVIDERS).nullable(),
  models: z.array(z.string().trim().min(1).max(200).regex(/^[^,\s]+$/, 'one model name, without commas or spaces')).max(10),
  /** Absent: keep the stored key. */
  apiKey: z.string().trim().min(8).max(1000).optional(),
  monthlyTokenBudget: z.number().int().min(1000).max(1_000_000_000_000).nullable(),
});
export type AiSettingsBody = z.infer<typeof AiSettingsBody>;
