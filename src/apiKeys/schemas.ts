/** The request schemas of the routes beside this file (routes.ts keeps the wiring). */
import { z } from 'zod';
import { Uuid } from '../shared/schemas.js';

export const CreateKeyBody = z.strictObject({ name: z.string().trim().min(1).max(100) });
export const KeyParams = z.object({ id: Uuid });
