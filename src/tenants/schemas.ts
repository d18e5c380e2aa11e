/** The request schemas of the routes beside this file (routes.ts keeps the wiring). */
import { z } from 'zod';
import { Uuid } from '../shared/schemas.js';

export const TenantBody = z.strictObject({ name: z.string().trim().min(1, 'A name is required').max(200) });
// A malformed id is "not found", like another tenant's.
export const TenantParams = z.object({ id: Uuid }).catch({ id: '00000000-0000-0000-0000-000000000000' });
