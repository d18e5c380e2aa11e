/**
 * Value schemas every surface shares. Kept to zod alone: the web app may import this file.
 */
import { z } from 'zod';

/**
 * A UUID as PostgreSQL's `uuid` reads it: 8-4-4-4-12 hex digits, either case (the nil UUID too), so a
 * malformed id is a 400 or a 404, never a 500. Version and variant bits are not checked: an id
 * stored by other means than gen_random_uuid() (a generated bench tenant, a restored dump) is still
 * an id the server must be able to name again, e.g. in the drill-through's own filters.
 */
export const Uuid = z.guid({ error: 'Invalid UUID' });
export type Uuid = z.infer<typeof Uuid>;

/** For code outside a zod schema (form fields, CLI options, Cube filter values). */
export const isUuid = (value: string): boolean => Uuid.safeParse(value).success;

/** A calendar month `YYYY-MM` from 1970-01 to 9999-12 (the range PostgreSQL dates hold here, INPUT_LIMITS). */
export const MONTH_PATTERN = /^(19[7-9]\d|[2-9]\d{3})-(0[1-9]|1[0-2])$/;
export const Month = z.string().regex(MONTH_PATTERN, 'Must be a month YYYY-MM');
export type Month = z.infer<typeof Month>;

/** A project key `<owner>/<repo>`, as the code host and the webhook API name a repository. */
export const PROJECT_KEY = /^[^/\s]{1,100}\/[^/\s]{1,100}$/;
