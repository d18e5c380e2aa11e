/** The request schemas of the routes beside this file (routes.ts keeps the wiring). */
import { z } from 'zod';

/** `team`: a team's id or slug; without it, the whole organisation. */
export const OpenWorkQuery = z.object({ team: z.string().trim().min(1).max(200).optional() });
