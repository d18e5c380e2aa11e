/** The request schemas of the routes beside this file (routes.ts keeps the wiring). */
import { z } from 'zod';
import { Uuid } from '../shared/schemas.js';

/** Only these fields; anything else is a 400. `displayName: null` or "" clears the name. */
export const UpdateMeBody = z
  .strictObject({
    displayName: z.string().trim().max(100).transform((v) => (v === '' ? null : v)).nullable().optional(),
    activeTenantId: Uuid.optional(),
  })
  .refine((b) => b.displayName !== undefined || b.activeTenantId !== undefined, { message: 'Nothing to update: send displayName or activeTenantId' });
