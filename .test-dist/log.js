import { pino } from "pino";
import { serializeError } from "./db/errors.js";
const REDACT = [
  "req.headers.authorization",
  "req.headers.cookie",
  'req.headers["x-admin-secret"]',
  'res.headers["set-cookie"]',
  "*.password",
  "*.secret",
  "*.apiKey",
  "*.token"
];
function createLogger(level, destination) {
  const options = {
    level,
    redact: { paths: REDACT, censor: "[redacted]" },
    base: { pid: process.pid },
    serializers: { err: (error) => serializeError(error, pino.stdSerializers.err) }
  };
  return destination ? pino(options, destination) : pino(options);
}
export {
  createLogger
};
