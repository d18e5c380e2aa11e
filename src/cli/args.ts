import type { ZodError } from 'zod';
import { isUuid } from '../shared/schemas.js';

/** `--name=value` and `--flag` options of a CLI command. */
export type Options = Record<string, string | true>;

export function parseOptions(argv: string[]): Options {
  const options: Options = {};
  for (const arg of argv) {
    const match = /^--([a-zA-Z][\w-]*)(?:=(.*))?$/s.exec(arg);
    if (!match) throw new UsageError(`unexpected argument "${arg}"`);
    options[match[1] as string] = match[2] ?? true;
  }
  return options;
}

export class UsageError extends Error {}

export function requireOption(options: Options, name: string): string {
  const value = options[name];
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${name}=<value> is required`);
  return value;
}

export function tenantOption(options: Options): string {
  const tenantId = requireOption(options, 'tenant');
  if (!isUuid(tenantId)) throw new UsageError('--tenant must be a tenant id (UUID)');
  return tenantId;
}

/** A string option as a query parameter reads it: `--x=v` is "v", a bare `--x` is "", absent is undefined. */
export function flag(options: Options, name: string): string | undefined {
  const value = options[name];
  return typeof value === 'string' ? value : value === true ? '' : undefined;
}

/** A request schema's refusal, said in the command's own option names (`asOf` → `--as-of`). */
export function usageFromSchema(error: ZodError, optionNames: Record<string, string>): UsageError {
  return new UsageError(error.issues.map((i) => `${optionNames[String(i.path[0])] ?? i.path.join('.')}: ${i.message}`).join('; '));
}
