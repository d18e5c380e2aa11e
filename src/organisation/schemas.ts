/** The request schemas of the routes beside this file (routes.ts keeps the wiring). */
import { z } from 'zod';
import { Paging } from '../http/route.js';
import { Uuid } from '../shared/schemas.js';
import { EMAIL } from '../shared/text.js';
import { CODEHOST_USERNAME } from './identities.js';
import { PROJECT_KEY } from './teams.js';

/** Register and seat files are larger than JSON bodies: 50,000 rows fit comfortably. */
export const IMPORT_BODY_LIMIT = 16 * 1024 * 1024;
const NO_ID = '00000000-0000-0000-0000-000000000000';
/** A malformed id is "not found", like an id of another tenant. */
export const TeamParams = z.object({ id: Uuid }).catch({ id: NO_ID });
export const ImportQuery = z.object({ mode: z.enum(['sync', 'async']).optional() });
export const JobParams = z.object({ jobId: Uuid }).catch({ jobId: NO_ID });
export const TeamsQuery = Paging.extend({ enabled: z.enum(['true', 'false']).optional() });
export const PeopleQuery = Paging.extend({ team: z.string().min(1).max(100).optional(), q: z.string().trim().min(1).max(100).optional() });
const Identity = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('email'), value: z.string().trim().max(320).regex(EMAIL, 'Must be an e-mail address') }),
  z.strictObject({ kind: z.literal('codehost_username'), value: z.string().trim().regex(CODEHOST_USERNAME, 'Must be a code-host username') }),
]);
export const PersonPatch = z.strictObject({ identities: z.array(Identity).max(50) });
export const MemberBody = z.strictObject({ personId: Uuid });
export const MemberParams = z.object({ id: Uuid, personId: Uuid }).catch({ id: NO_ID, personId: NO_ID });
export const TeamPatch = z
  .strictObject({
    enabled: z.boolean().optional(),
    projects: z.array(z.string().regex(PROJECT_KEY, 'Must be a project key <owner>/<repo>')).max(1000).optional(),
    // A key no project has: created as a manual project (the default, for scripts that assign before
    // data arrives), or refused with a field error per key (Settings › Teams asks first).
    unknownProjects: z.enum(['refuse', 'create']).optional(),
  })
  .refine((b) => b.enabled !== undefined || b.projects !== undefined, { message: 'Give enabled and/or projects' });
