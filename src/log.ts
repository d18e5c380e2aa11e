import { pino, type DestinationStream, type Logger } from 'pino';
import { serializeError } from './db/errors.js';

/**
 * Every log line goes through pino with these paths redacted, so a header or config object logged
 * by mistake never prints a secret; an error from the database is logged as its code and
 * constraint, never the values of the query (src/db/errors.ts).
 */
const REDACT = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-admin-secret"]',
  'res.headers["set-cookie"]',
  '*.password',
  '*.secret',
  '*.apiKey',
  '*.token',
];

/** `destination`: where lines go (default stdout); tests pass a stream to read what was logged. */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = {
    level,
    redact: { paths: REDACT, censor: '[redacted]' },
    base: { pid: process.pid },
    serializers: { err: (error: unknown) => serializeError(error, pino.stdSerializers.err as (e: Error) => Record<string, unknown>) },
  };
  return destination ? pino(options, destination) : pino(options);
}

export type { Logger };
