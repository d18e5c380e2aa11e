/** The request schemas of the routes beside this file (routes.ts keeps the wiring). */
import { z } from 'zod';

/** The code host caps webhook payloads at 25 MB. */
export const WEBHOOK_BODY_LIMIT = 25 * 1024 * 1024;
export const SETUP_FORM_LIMIT = 4 * 1024;

const InstallationId = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);
export const LinkBody = z.strictObject({ installationId: InstallationId });
export const InstallationParams = z.object({ installationId: InstallationId });
export const SetupQuery = z.object({ installation_id: InstallationId, setup_action: z.string().max(50).optional() });
export const SetupForm = z.object({ installation_id: InstallationId });
