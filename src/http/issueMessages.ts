/**
 * Sentences for zod's own issue messages on the general API ("Must not be empty" instead of "Too
 * small: expected string to have >=1 characters"): people read them in the web app's forms and in
 * the CLI. A schema's own message (`z.string().min(1, 'A name is required')`) takes precedence, as
 * zod ranks a schema's error above the parse's. The webhook API keeps zod's words: its bodies are
 * pinned by the spec's examples and its callers' tests.
 */
import type { z } from 'zod';

type Issue = z.core.$ZodRawIssue;

const FORMATS: Record<string, string> = {
  email: 'Must be an e-mail address',
  uuid: 'Must be an id (a UUID)',
  guid: 'Must be an id (a UUID)',
  url: 'Must be a web address',
  datetime: 'Must be a date and time such as 2026-03-01T09:00:00Z',
  date: 'Must be a date such as 2026-03-01',
  time: 'Must be a time such as 09:00',
};

const KINDS: Record<string, string> = {
  string: 'text',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object',
};

function characters(n: unknown): string {
  return n === 1 ? '1 character' : `${String(n)} characters`;
}

function bound(issue: Issue & { origin?: string }, which: 'least' | 'most', limit: unknown): string | undefined {
  switch (issue.origin) {
    case 'string':
      return which === 'least' && limit === 1 ? 'Must not be empty' : `Must be at ${which} ${characters(limit)}`;
    case 'number':
    case 'int':
    case 'bigint':
      return `Must be at ${which} ${String(limit)}`;
    case 'array':
    case 'set':
      return which === 'least' && limit === 1 ? 'Must list at least one item' : `Must list at ${which} ${String(limit)} items`;
    default:
      return undefined;
  }
}

/** The sentence for one of zod's default issues, or undefined to keep zod's message. */
export function issueMessage(issue: Issue): string | undefined {
  const i = issue as Issue & Record<string, unknown>;
  switch (issue.code) {
    case 'too_small':
      return bound(i, 'least', i.minimum);
    case 'too_big':
      return bound(i, 'most', i.maximum);
    case 'invalid_type': {
      if (i.received === 'NaN' || (typeof i.input === 'number' && Number.isNaN(i.input))) return 'Must be a number';
      const kind = KINDS[String(i.expected)];
      return kind ? `Must be ${kind}` : undefined;
    }
    case 'invalid_format':
      return FORMATS[String(i.format)] ?? (i.format === 'regex' ? 'Is not in the expected form' : undefined);
    case 'invalid_value': {
      const values = (i.values as unknown[] | undefined) ?? [];
      return values.length > 0 && values.length <= 12 ? `Must be one of: ${values.map(String).join(', ')}` : undefined;
    }
    case 'unrecognized_keys':
      return `Unknown field${(i.keys as string[]).length > 1 ? 's' : ''}: ${(i.keys as string[]).join(', ')}`;
    default:
      return undefined;
  }
}
