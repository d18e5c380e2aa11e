/**
 * What may be said about a failed query. A PostgreSQL error's message and detail can quote the
 * values of a row ("Key (email)=(…) already exists"), and drizzle's wrapper carries the query's
 * parameters (every row of an import); logs and answers get the SQLSTATE and the names of the
 * constraint, table and column, never a value.
 */

export interface DbErrorSummary {
  /** SQLSTATE, e.g. 23505. */
  code: string;
  constraint?: string;
  table?: string;
  column?: string;
}

const SQLSTATE = /^[0-9A-Z]{5}$/;

/** The PostgreSQL error in `error` or its causes (drizzle wraps it), summarised; null when none. */
export function databaseError(error: unknown): DbErrorSummary | null {
  let current = error as { code?: unknown; severity?: unknown; cause?: unknown } | null | undefined;
  for (let hops = 0; current && typeof current === 'object' && hops < 5; hops += 1) {
    if (typeof current.code === 'string' && SQLSTATE.test(current.code) && typeof current.severity === 'string') {
      const { code, constraint, table, column } = current as { code: string; constraint?: string; table?: string; column?: string };
      return { code, ...(constraint ? { constraint } : {}), ...(table ? { table } : {}), ...(column ? { column } : {}) };
    }
    current = current.cause as typeof current;
  }
  return null;
}

/** A drizzle query error: its message and `params` hold the query's values. */
const isQueryWrapper = (error: unknown): boolean =>
  error instanceof Error && (error.name === 'DrizzleQueryError' || Object.prototype.hasOwnProperty.call(error, 'params'));

/**
 * SQLSTATE class 22 (data exception): a value the database cannot hold (out of range, NUL,
 * an impossible date). Validation should have refused it; when it did not, the request is still
 * the caller's mistake, a 400.
 */
export const isDataException = (summary: DbErrorSummary | null): boolean => summary !== null && summary.code.startsWith('22');

/** One line for a log or a job's failure: the database's code and names, or the message of any other error. */
export function describeError(error: unknown): string {
  const db = databaseError(error);
  if (db) return `database error ${db.code}${db.constraint ? ` on ${db.constraint}` : db.table ? ` on ${db.table}` : ''}`;
  if (isQueryWrapper(error)) return 'database query failed';
  return error instanceof Error ? error.message : String(error);
}

/**
 * The pino serializer of `err`: database errors as their summary and stack frames (the first
 * line of a stack is the message), anything else as pino's standard serializer has it.
 */
export function serializeError(error: unknown, standard: (e: Error) => Record<string, unknown>): unknown {
  if (!(error instanceof Error)) return error;
  const db = databaseError(error);
  if (!db && !isQueryWrapper(error)) return standard(error);
  const frames = (error.stack ?? '').split('\n').filter((line) => line.startsWith('    at ')).join('\n');
  return { type: error.name, message: describeError(error), ...(db ? { db } : {}), stack: frames };
}

/**
 * The database lacks migrations this server needs. Here rather than in migrations.ts (drizzle's
 * migrator) so that the CLI's entry point can recognise it without loading the database modules.
 */
export class SchemaBehindError extends Error {
  constructor(readonly missing: string[]) {
    super(`database schema is behind this server: expected migration ${missing[0]} (run "delivery-analytics migrate")`);
  }
}
