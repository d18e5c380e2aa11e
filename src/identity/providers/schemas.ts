/** The request schemas of the routes beside this file (routes.ts keeps the wiring). */
import { z } from 'zod';
import { Uuid } from '../../shared/schemas.js';

const optionalString = z.string().optional().catch(undefined);
export const StartQuery = z.object({ returnUrl: optionalString, mode: optionalString });
// A malformed id is simply no identity of the caller's: 404 like any other.
export const IdentityParams = z.object({ id: Uuid }).catch({ id: '00000000-0000-0000-0000-000000000000' });
export const ProviderParams = z.object({ provider: z.string().max(40) });
