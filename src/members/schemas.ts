/** The request schemas of the routes beside this file (routes.ts keeps the wiring). */
import { z } from 'zod';
import { ROLES } from '../auth/principal.js';
import { Uuid } from '../shared/schemas.js';

const Role = z.enum(ROLES);
export const ChangeRoleBody = z.strictObject({ role: Role });
export const CreateInvitationBody = z.strictObject({ email: z.email().max(320), role: Role });
// A malformed id is an id that matches nothing: 404, like another tenant's.
const NOWHERE = '00000000-0000-0000-0000-000000000000';
export const UserParams = z.object({ userId: Uuid }).catch({ userId: NOWHERE });
export const IdParams = z.object({ id: Uuid }).catch({ id: NOWHERE });
