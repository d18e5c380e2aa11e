/** The request schemas of the routes beside this file (routes.ts keeps the wiring). */
import { z } from 'zod';
import { Uuid } from '../shared/schemas.js';

export const CreateBiCredentialBody = z.strictObject({ name: z.string().trim().min(1).max(100) });
// A malformed id is an id that matches nothing: 404, like another tenant's.
export const IdParams = z.object({ id: Uuid }).catch({ id: '00000000-0000-0000-0000-000000000000' });
