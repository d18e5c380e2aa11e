/** The request schemas of the routes beside this file (routes.ts keeps the wiring). */
import { z } from 'zod';

// GET carries the query as JSON text in `?query=`; POST as an object (or text) in the body.
// `castNumerics` asks for JSON numbers instead of Cube's numeric strings.
export const QueryParams = z.object({
  query: z.string().max(100_000).optional(),
  queryType: z.enum(['multi']).optional(),
  castNumerics: z.enum(['true', 'false']).optional(),
});
export const QueryBody = z.object({ query: z.unknown().optional(), queryType: z.enum(['multi']).optional(), castNumerics: z.boolean().optional() });
