/**
 * Value schemas every surface shares. Kept to zod alone: the web app may import this file.
 */
import { z } from 'zod';

/**
 * A UUID as RFC 9562 writes it (either case; the nil UUID too). Every id we issue is one, and
 * PostgreSQL's `uuid` reads every string that passes, so a malformed id is a 400 or a 404, never a 500.
 */
export const Uuid = z.uuid();
export type Uuid = z.infer<typeof Uuid>;

/** For code outside a zod schema (form fields, CLI options, Cube filter values). */
export const isUuid = (value: string): boolean => Uuid.safeParse(value).success;

/** A calendar month `YYYY-MM` from 1970-01 to 9999-12 (the range PostgreSQL dates hold here, INPUT_LIMITS). */
export const MONTH_PATTERN = /^(19[7-9]\d|[2-9]\d{3})-(0[1-9]|1[0-2])$/;
export const Month = z.string().regex(MONTH_PATTERN, 'Must be a month YYYY-MM');
export type Month = z.infer<typeof Month>;

/** A project key `<owner>/<repo>`, as the code host and the webhook API name a repository. */
export const PROJECT_KEY = /^[^/\s]{1,100}\/[^/\s]{1,100}$/;
