/** The request schemas of the routes beside this file (routes.ts keeps the wiring). */
import { z } from 'zod';
import { int32, pgDate, pgTimestamp } from '../shared/limits.js';
import { Paging } from '../http/route.js';
import { Uuid } from '../shared/schemas.js';

/** Request body limit of POST /api/sessions (after gunzip): the 10 MiB transcript plus JSON escaping and metadata. */
export const SESSION_BODY_LIMIT = 16 * 1024 * 1024;

const Timestamp = pgTimestamp();
// Token counts are bigint columns; messages and tool calls integer ones.
const Count = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const SmallCount = int32(0);

const SessionFields = z
  .strictObject({
    tool: z.string().trim().min(1).max(100),
    model: z.string().trim().min(1).max(200).optional(),
    startedAt: Timestamp,
    endedAt: Timestamp.nullable().optional(),
    projectKey: z.string().regex(/^[^/\s]+\/[^/\s]+$/, 'must have the form <owner>/<repo>').max(200).optional(),
    branch: z.string().min(1).max(255).optional(),
    prNumber: int32(1).optional(),
    commitShas: z.array(z.string().regex(/^[0-9a-fA-F]{7,40}$/, 'must be 7 to 40 hexadecimal characters')).max(1000).optional(),
    externalId: z.string().min(1).max(200).optional(),
    usage: z
      .strictObject({ inputTokens: Count, outputTokens: Count, cacheReadTokens: Count, cacheWriteTokens: Count, messages: SmallCount, toolCalls: SmallCount })
      .partial()
      .optional(),
    transcript: z.union([z.string(), z.array(z.unknown())]).optional(),
  });
const endsAfterStart = (b: { startedAt: string; endedAt?: string | null | undefined }) => !b.endedAt || new Date(b.endedAt) >= new Date(b.startedAt);
const ENDED_AT = { path: ['endedAt'], message: 'must not be before startedAt' };

export const SessionBody = SessionFields.refine(endsAfterStart, ENDED_AT);
/** PUT /api/sessions/by-external-id/:externalId: the same fields, the externalId being in the path. */
export const CaptureBody = SessionFields.omit({ externalId: true }).refine(endsAfterStart, ENDED_AT);
export const ExternalIdParams = z.object({ externalId: z.string().min(1).max(200) });

export const ListQuery = Paging.extend({
  userId: Uuid.optional(),
  projectKey: z.string().min(1).max(200).optional(),
  tool: z.string().min(1).max(100).optional(),
  // A date alone means its midnight UTC.
  from: z.union([Timestamp, pgDate()]).optional(),
  to: z.union([Timestamp, pgDate()]).optional(),
  // A team's slug or id: the sessions of its members (as the ai_sessions cube counts them).
  team: z.string().min(1).max(200).optional(),
});

// A malformed id cannot name a session: answer 404 like any unknown id.
export const SessionParams = z.object({ id: Uuid }).catch({ id: '00000000-0000-0000-0000-000000000000' });
export const DetailQuery = z.object({ include: z.enum(['transcript']).optional() });
