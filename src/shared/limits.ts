/**
 * Input limits shared by every surface: what PostgreSQL can store decides them, so a value the
 * database would refuse is a 400 naming its field, never a 500 (docs/input-limits.md).
 */
import { z } from 'zod';
import type { ErrorDetail } from '../errors.js';

export const INPUT_LIMITS = {
  /** Nesting of any JSON body (objects and arrays); deeper bodies are refused before validation. */
  jsonDepth: 32,
  /** Nesting of a free-form object (`metadata`), counted from the object itself. */
  objectDepth: 8,
  /** Keys of a free-form object, at every level together (its size in bytes is the body's limit). */
  objectKeys: 1000,
  /** PostgreSQL `integer`. */
  int32Max: 2_147_483_647,
  /** Timestamps and dates: 1970-01-01T00:00:00Z up to the end of 9999, UTC offsets within ±15:59. */
  earliest: Date.UTC(1970, 0, 1),
  latest: Date.UTC(10000, 0, 1) - 1,
} as const;

// U+0000 (PostgreSQL text and jsonb cannot hold it) and UTF-16 surrogates that are not a pair
// (they would be stored as U+FFFD). With the `u` flag a well-formed pair is one code point.
const UNSTORABLE = /[\u0000\uD800-\uDFFF]/u;

/** Why `value` cannot be stored as text, or null when it can. */
export function unstorable(value: string): string | null {
  const match = UNSTORABLE.exec(value);
  if (!match) return null;
  return match[0] === '\u0000' ? 'Must not contain the NUL character (U+0000)' : 'Must not contain a lone UTF-16 surrogate (invalid Unicode)';
}

/**
 * Every string (keys included) that cannot be stored, and nesting beyond `maxDepth`, as details
 * naming the path (`metadata.a.0`). Iterative, so a hostile depth cannot overflow the stack;
 * stops after `maxDetails`.
 */
export function checkJsonValue(root: unknown, maxDepth: number, prefix = '', maxDetails = 20): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  const stack: [value: unknown, path: string, depth: number][] = [[root, prefix, 0]];
  const join = (path: string, key: string | number) => (path === '' ? String(key) : `${path}.${key}`);
  while (stack.length > 0 && details.length < maxDetails) {
    const [value, path, depth] = stack.pop()!;
    if (typeof value === 'string') {
      const problem = unstorable(value);
      if (problem) details.push({ path: path || 'body', message: problem });
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth >= maxDepth) {
      details.push({ path: path || 'body', message: `Nested deeper than ${maxDepth} levels` });
      continue;
    }
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i -= 1) stack.push([value[i], join(path, i), depth + 1]);
      continue;
    }
    for (const key of Object.keys(value).reverse()) {
      const problem = unstorable(key);
      if (problem) details.push({ path: join(path, key.replace(UNSTORABLE, '?')), message: `Key: ${problem}` });
      else stack.push([(value as Record<string, unknown>)[key], join(path, key), depth + 1]);
    }
  }
  return details;
}

function inRange(ms: number): boolean {
  return !Number.isNaN(ms) && ms >= INPUT_LIMITS.earliest && ms <= INPUT_LIMITS.latest;
}

const OFFSET = /([+-])(\d{2}):?(\d{2})$/;

/**
 * An ISO 8601 timestamp with an offset that PostgreSQL `timestamptz` stores as given: offsets
 * within ±15:59, instants from 1970 to the end of 9999.
 */
export function pgTimestamp(error = 'Must be an ISO 8601 timestamp with an offset, e.g. 2024-05-01T12:00:00Z') {
  return z.iso
    .datetime({ offset: true, error, abort: true })
    .refine((value) => {
      const offset = OFFSET.exec(value);
      return !offset || Number(offset[2]) <= 15;
    }, { error: 'The UTC offset must be within ±15:59', abort: true })
    .refine((value) => inRange(Date.parse(value)), 'Must be between 1970-01-01T00:00:00Z and 9999-12-31T23:59:59Z');
}

/** A calendar date `YYYY-MM-DD` from 1970-01-01 to 9999-12-31. */
export function pgDate() {
  return z.iso.date({ abort: true }).refine((value) => inRange(Date.parse(`${value}T00:00:00Z`)), 'Must be between 1970-01-01 and 9999-12-31');
}

/** A whole number a PostgreSQL `integer` holds, from `min`. */
export const int32 = (min: number) => z.number().int('Must be a whole number').min(min).max(INPUT_LIMITS.int32Max);

/**
 * A free-form JSON object (webhook `metadata`): at most `objectDepth` levels and `objectKeys`
 * keys, so it is stored as given and read back cheaply; its size is bounded by the body's.
 */
export function freeObject(description: string) {
  return z
    .record(z.string(), z.unknown(), { error: 'Must be a JSON object' })
    .superRefine((value, ctx) => {
      const deep = checkJsonValue(value, INPUT_LIMITS.objectDepth, '', 1);
      if (deep.length > 0) {
        ctx.addIssue({ code: 'custom', message: deep[0]!.message, path: deep[0]!.path === 'body' ? [] : deep[0]!.path.split('.') });
        return;
      }
      if (countKeys(value) > INPUT_LIMITS.objectKeys) {
        ctx.addIssue({ code: 'custom', message: `Must have at most ${INPUT_LIMITS.objectKeys} keys, all levels together` });
      }
    })
    .meta({ description: `${description}; at most ${INPUT_LIMITS.objectDepth} levels deep and ${INPUT_LIMITS.objectKeys} keys` });
}

/** Object keys at every level (the depth is already bounded). */
function countKeys(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((n: number, v) => n + countKeys(v), 0);
  if (value === null || typeof value !== 'object') return 0;
  return Object.entries(value).reduce((n, [, v]) => n + 1 + countKeys(v), 0);
}
