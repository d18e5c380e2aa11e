import { pino, type Logger } from 'pino';

/**
 * Every log line goes through pino with these paths redacted, so a header or config object logged
 * by mistake never prints a secret.
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

export function createLogger(level: string): Logger {
  return pino({ level, redact: { paths: REDACT, censor: '[redacted]' }, base: { pid: process.pid } });
}

export type { Logger };
