/** Shared by the configuration tests: a minimal valid environment and ways to read problems. */
import { ConfigError, loadConfig, type Env } from '../../src/config/index.js';
import { Reader } from '../../src/config/reader.js';

/** The three required variables, nothing else. */
export const VALID: Env = {
  APP_URL: 'https://analytics.example.com',
  OAUTH_ENCRYPTION_KEY: 'k'.repeat(32),
  DATABASE_URL: 'postgresql://app:secret@db.internal:5432/analytics',
};

/** The problems loadConfig lists for `env` (none: an empty list). */
export function problems(env: Env): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

/** One group's parse function on `env` alone: what it read and the problems it found. */
export function parse<T>(env: Env, group: (r: Reader) => T): { value: T; problems: string[] } {
  const r = new Reader(env);
  const value = group(r);
  return { value, problems: r.problems };
}
