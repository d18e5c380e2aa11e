/**
 * Reading the environment: one Reader per parse collects every problem (never the value, only
 * the variable's name), so a failed start lists all of them at once. Each group of variables has
 * its own file in this folder; src/config/index.ts puts them together.
 */
import { trimEnd } from '../shared/text.js';
export type Env = Record<string, string | undefined>;

/** A credential group's variables by name, once the group is complete. */
export type Credentials = Readonly<Record<string, string>>;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n${problems.join('\n')}`);
  }
}

export class Reader {
  readonly problems: string[] = [];
  constructor(private readonly env: Env) {}

  /** A set variable's trimmed value; blank counts as unset. */
  get(name: string): string | null {
    const value = this.env[name];
    if (value === undefined) return null;
    const trimmed = value.trim();
    return trimmed === '' ? null : trimmed;
  }

  required(name: string): string | null {
    const value = this.get(name);
    if (value === null) this.problems.push(`${name} is required`);
    return value;
  }

  integer(name: string, fallback: number, min: number, max: number): number {
    const raw = this.get(name);
    if (raw === null) return fallback;
    if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
      this.problems.push(`${name} must be a whole number from ${min} to ${max}`);
      return fallback;
    }
    return Number(raw);
  }

  boolean(name: string, fallback: boolean): boolean {
    const raw = this.get(name);
    if (raw === null) return fallback;
    const lower = raw.toLowerCase();
    if (['true', '1', 'yes', 'on'].includes(lower)) return true;
    if (['false', '0', 'no', 'off'].includes(lower)) return false;
    this.problems.push(`${name} must be true or false`);
    return fallback;
  }

  /** All-or-nothing group: returns the values when complete, null when absent, null + problem when partial. */
  group(label: string, names: readonly string[], optional: readonly string[] = []): Record<string, string> | null {
    const present = [...names, ...optional].filter((n) => this.get(n) !== null);
    if (present.length === 0) return null;
    const missing = names.filter((n) => this.get(n) === null);
    if (missing.length > 0) {
      this.problems.push(`${label} is partially configured: missing ${missing.join(', ')} (set: ${present.join(', ')})`);
      return null;
    }
    return Object.fromEntries(names.map((n) => [n, this.get(n) as string]));
  }

  /** A group switched on by a flag: every variable is required once the flag is on. */
  enabledGroup(label: string, names: readonly string[]): Record<string, string> | null {
    const missing = names.filter((n) => this.get(n) === null);
    if (missing.length > 0) {
      this.problems.push(`${label} is partially configured: missing ${missing.join(', ')}`);
      return null;
    }
    return Object.fromEntries(names.map((n) => [n, this.get(n) as string]));
  }

  /** Throws the collected problems, if any. */
  check(): void {
    if (this.problems.length > 0) throw new ConfigError(this.problems);
  }
}

export function parseHttpUrl(r: Reader, name: string, value: string | null): URL | null {
  if (value === null) return null;
  try {
    const url = new URL(value);
    if (url.protocol === 'http:' || url.protocol === 'https:') return url;
  } catch {
    /* reported below */
  }
  r.problems.push(`${name} must be an http(s) URL`);
  return null;
}

/** An endpoint as configured: its origin and path without trailing slashes. */
export const withoutTrailingSlash = (url: URL): string => url.origin + trimEnd(url.pathname, '/');

/**
 * An optional endpoint override: the fallback when unset; production refuses plain http (tokens
 * and codes would cross the network in clear).
 */
export function endpointOverride(r: Reader, name: string, production: boolean, fallback: string): string {
  const parsed = parseHttpUrl(r, name, r.get(name));
  if (parsed && production && parsed.protocol !== 'https:') r.problems.push(`${name} must use https when NODE_ENV is production`);
  return parsed ? withoutTrailingSlash(parsed) : fallback;
}
