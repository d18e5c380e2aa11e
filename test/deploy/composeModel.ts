/**
 * What `docker compose` would run, worked out without a container engine: the compose files are
 * parsed (YAML merge keys included), merged in order, interpolated the way compose does
 * (`${VAR}`, `${VAR:-default}`, `${VAR-default}`, `${VAR:?error}`, `${VAR:+alternative}`, nested
 * values, `$$`), services outside the active profiles are dropped, and dependencies on them are
 * dropped when `required: false` (an error otherwise, as compose reports it).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export type Env = Record<string, string | undefined>;
type Node = unknown;

export function readYaml(path: string): any {
  return parse(readFileSync(new URL(path, `file://${ROOT}`), 'utf8'), { merge: true });
}

/** The end of the `${…}` that opens at `start` (the index of `$`), honouring nested braces. */
function closingBrace(text: string, start: number): number {
  let depth = 0;
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '{') depth++;
    else if (text[i] === '}' && --depth === 0) return i;
  }
  throw new Error(`unclosed \${ in ${JSON.stringify(text)}`);
}

export function interpolate(text: string, env: Env): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch !== '$') {
      out += ch;
      continue;
    }
    const next = text[i + 1];
    if (next === '$') {
      out += '$';
      i++;
    } else if (next === '{') {
      const end = closingBrace(text, i);
      out += substitute(text.slice(i + 2, end), env);
      i = end;
    } else {
      const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(i + 1))?.[0];
      if (!name) throw new Error(`invalid interpolation in ${JSON.stringify(text)}`);
      out += env[name] ?? '';
      i += name.length;
    }
  }
  return out;
}

function substitute(inner: string, env: Env): string {
  const match = /^([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?+])([\s\S]*))?$/.exec(inner);
  if (!match) throw new Error(`invalid interpolation \${${inner}}`);
  const [, name, operator, word = ''] = match as unknown as [string, string, string | undefined, string | undefined];
  const value = env[name];
  const colon = operator?.startsWith(':') ?? false;
  const present = colon ? value !== undefined && value !== '' : value !== undefined;
  switch (operator?.replace(':', '')) {
    case undefined:
      return value ?? '';
    case '-':
      return present ? (value as string) : interpolate(word, env);
    case '+':
      return present ? interpolate(word, env) : '';
    case '?':
      if (!present) throw new Error(`required variable ${name} is missing a value: ${interpolate(word, env)}`);
      return value as string;
    default:
      throw new Error(`invalid interpolation \${${inner}}`);
  }
}

function interpolateTree(node: Node, env: Env): Node {
  if (typeof node === 'string') return interpolate(node, env);
  if (Array.isArray(node)) return node.map((item) => interpolateTree(item, env));
  if (node && typeof node === 'object') {
    return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, interpolateTree(value, env)]));
  }
  return node;
}

/** Sequences compose appends across files instead of replacing (its merge rules). */
const APPENDED = new Set(['ports', 'expose', 'dns', 'dns_search', 'tmpfs', 'external_links']);

/**
 * Compose's merge of a later file into an earlier one, for what our files use: maps merge, the
 * sequences of APPENDED are appended, the rest is replaced.
 */
function mergeInto(base: Node, override: Node, key = ''): Node {
  if (APPENDED.has(key) && Array.isArray(base) && Array.isArray(override)) return [...base, ...override.filter((v) => !base.includes(v))];
  if (base && override && typeof base === 'object' && typeof override === 'object' && !Array.isArray(base) && !Array.isArray(override)) {
    const out: Record<string, Node> = { ...(base as Record<string, Node>) };
    for (const [key, value] of Object.entries(override)) out[key] = key in out ? mergeInto(out[key], value, key) : value;
    return out;
  }
  return override;
}

export interface DependsOn {
  condition: string;
  required: boolean;
}

export interface Service {
  [key: string]: any;
  dependsOn: Record<string, DependsOn>;
}

export interface Model {
  services: Record<string, Service>;
  volumes: Record<string, unknown>;
  networks: Record<string, any>;
}

/** The project compose would run from these files (relative to the repository root) and this environment. */
export function composeModel(files: string[], env: Env, activeProfiles: string[] = []): Model {
  const merged = files.map((file) => readYaml(file)).reduce((base, next) => mergeInto(base, next)) as Record<string, any>;
  const project = interpolateTree(merged, env) as Record<string, any>;
  const all = project.services as Record<string, any>;
  const enabled = Object.entries(all).filter(([, s]) => !s.profiles || s.profiles.some((p: string) => activeProfiles.includes(p)));
  const names = new Set(enabled.map(([name]) => name));

  const services: Record<string, Service> = {};
  for (const [name, service] of enabled) {
    const dependsOn: Record<string, DependsOn> = {};
    const raw = service.depends_on ?? {};
    const entries: [string, any][] = Array.isArray(raw) ? raw.map((n: string) => [n, {}]) : Object.entries(raw);
    for (const [target, spec] of entries) {
      const required = spec.required ?? true;
      if (!(target in all)) throw new Error(`service "${name}" depends on undefined service "${target}"`);
      if (!names.has(target)) {
        if (required) throw new Error(`service ${target} is required by ${name} but is disabled`);
        continue;
      }
      dependsOn[target] = { condition: spec.condition ?? 'service_started', required };
    }
    services[name] = { ...service, dependsOn };
  }
  return { services, volumes: project.volumes ?? {}, networks: project.networks ?? {} };
}
