/** The request schemas of the routes beside this file (routes.ts keeps the wiring). */
import { z } from 'zod';
import { AI_VENDOR_SOURCES } from '../db/schema/index.js';

export const Params = z.object({ source: z.enum(AI_VENDOR_SOURCES) });

export const SaveSourceBody = z.strictObject({
  /** Absent: keep the stored key (Copilot: or reach the organisation through the code-host installation). */
  apiKey: z.string().trim().min(8).max(2000).optional(),
  /** Copilot: the GitHub organisation. */
  org: z.string().trim().regex(/^[A-Za-z0-9][A-Za-z0-9-]{0,38}$/, 'a GitHub organisation name').optional(),
  backfillDays: z.number().int().min(1).max(365).optional(),
});
export type SaveSourceBody = z.infer<typeof SaveSourceBody>;
