/**
 * Cube's schema compiler, in-process: the YAML models of `schema/` are compiled once per process
 * (about a second) and shared by every request, command and MCP tool.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { prepareCompiler, type Compiler } from '@cubejs-backend/schema-compiler';
import { cubeSettings } from './settings.js';

export const SCHEMA_DIR = fileURLToPath(new URL('../../schema', import.meta.url));

/** One member of the compiled meta, as `/v1/meta` shows it. */
export interface MetaMember {
  name: string;
  title?: string;
  shortTitle?: string;
  description?: string;
  type: string;
  [key: string]: unknown;
}

export interface MetaCube {
  name: string;
  title?: string;
  description?: string;
  measures: MetaMember[];
  dimensions: MetaMember[];
  segments: MetaMember[];
  [key: string]: unknown;
}

export type MemberKind = 'measure' | 'dimension' | 'segment';

/** The compiled models plus lookup tables built from them (null-prototype: no inherited keys). */
export interface CompiledCube {
  compiler: Compiler;
  meta: MetaCube[];
  /** `format` is `id` for a uuid column (the model's `meta: {uuid: true}`), else the dimension's Cube format when it is a name. */
  members: Record<string, { kind: MemberKind; cube: string; type: string; format?: string; window?: true }>;
}

function refuse(): never {
  // Jinja and Python models could run arbitrary code at compile time; our models are plain YAML.
  throw new Error('Jinja and Python data models are not supported');
}

const nativeInstance = {
  newJinjaEngine: () => ({ loadTemplate: refuse, renderTemplate: refuse }),
  loadPythonContext: refuse,
};

function schemaFiles(dir: string): { fileName: string; content: string }[] {
  return readdirSync(dir)
    .filter((name) => /\.ya?ml$/.test(name))
    .sort()
    .map((fileName) => ({ fileName, content: readFileSync(`${dir}/${fileName}`, 'utf8') }));
}

/**
 * What kind of value a member holds, for validation and for assistants: `id` for a uuid column
 * (the model says `meta: {uuid: true}`; Cube's own `format: id` is a numeric format, which its
 * client would print as NaN for a UUID), else the name of its Cube format.
 */
export function memberFormat(member: { [key: string]: unknown }): string | undefined {
  if ((member.meta as { uuid?: unknown } | undefined)?.uuid === true) return 'id';
  return formatName(member.format);
}

/**
 * The name a model gave as a member's `format`. The meta shows a standard name as is, but a name
 * Cube also knows as a numeric format (`id` among them, in 1.7) as `{type: 'custom-numeric', alias}`.
 */
export function formatName(format: unknown): string | undefined {
  if (typeof format === 'string') return format;
  const alias = (format as { alias?: unknown } | null | undefined)?.alias;
  return typeof alias === 'string' ? alias : undefined;
}

const COMPILER_VERSION = (createRequire(import.meta.url)('@cubejs-backend/schema-compiler/package.json') as { version: string }).version;

/**
 * Cube's transpiled YAML of one set of model files, kept in `cacheDir` between processes. The
 * YAML step (antlr and babel in a worker thread) is more than half of a compile's CPU: 1.7 s of
 * 3.1 s here, paid by every start of every instance, command and test server. Cube caches it in
 * memory per file content (its `compiledYamlCache`); on disk it is one file per set, named by the
 * compiler's version and every file's name and content, so a changed model or release never reads
 * another's. Written only after a compile that succeeded (Cube does not cache a file's errors), in
 * one rename; unreadable or unwritable, the compile just transpiles. What it holds runs as model
 * code: the directory must be writable by the service alone.
 */
function yamlCache(cacheDir: string, files: { fileName: string; content: string }[]) {
  const key = createHash('sha256').update(COMPILER_VERSION);
  for (const f of files) key.update('\0').update(f.fileName).update('\0').update(f.content);
  const path = join(cacheDir, `cube-yaml-${key.digest('hex').slice(0, 32)}.json`);
  let stored: Map<string, string> | null = null;
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
    if (Object.values(parsed).every((v) => typeof v === 'string')) stored = new Map(Object.entries(parsed) as [string, string][]);
  } catch {
    // Not there yet, or unreadable: transpile (and replace it).
  }
  const entries = stored ?? new Map<string, string>();
  return {
    entries,
    /** After a successful compile: store what was transpiled, unless it came from the file. */
    keep(): void {
      if (stored || entries.size === 0) return;
      const temporary = `${path}.${randomBytes(4).toString('hex')}.tmp`;
      try {
        mkdirSync(cacheDir, { recursive: true });
        writeFileSync(temporary, JSON.stringify(Object.fromEntries(entries)), { mode: 0o600 });
        renameSync(temporary, path);
      } catch {
        rmSync(temporary, { force: true });
      }
    },
  };
}

/**
 * Compiles the models of `dir`; throws with Cube's own error text when a model is invalid. With a
 * `cacheDir`, the transpiled YAML is read from and kept there (yamlCache).
 */
export async function compileCube(dir = SCHEMA_DIR, cacheDir: string | null = null): Promise<CompiledCube> {
  const files = schemaFiles(dir);
  const repo = { localPath: () => dir, dataSchemaFiles: async () => files };
  const cache = cacheDir ? yamlCache(cacheDir, files) : null;
  const compiler = prepareCompiler(repo as never, { nativeInstance: nativeInstance as never, standalone: true, ...(cache ? { compiledYamlCache: cache.entries as never } : {}) });
  await compiler.compiler.compile();
  cache?.keep();
  // Cube `views` (schema/team_months.yml) are for a real Cube, which cannot join two fact cubes:
  // this server answers such queries on the cubes themselves, so its surfaces list cubes only.
  const meta = (compiler.metaTransformer.cubes as unknown as { config: MetaCube & { type?: string } }[]).map((c) => c.config).filter((c) => c.type !== 'view');
  const members: CompiledCube['members'] = Object.create(null);
  for (const cube of meta) {
    // `meta.window`: a measure over the query's whole date range (a rate's denominator), which a
    // granularity would not split: checkQuery refuses the two together.
    for (const m of cube.measures) {
      const window = (m.meta as { window?: unknown } | undefined)?.window === true;
      members[m.name] = { kind: 'measure', cube: cube.name, type: m.type, ...(window ? { window: true as const } : {}) };
    }
    for (const d of cube.dimensions) {
      const format = memberFormat(d);
      members[d.name] = { kind: 'dimension', cube: cube.name, type: d.type, ...(format ? { format } : {}) };
    }
    for (const s of cube.segments) members[s.name] = { kind: 'segment', cube: cube.name, type: 'segment' };
  }
  return Object.freeze({ compiler, meta, members });
}

let compiled: Promise<CompiledCube> | null = null;

/** The process-wide compiled models; the first caller starts the compilation. */
export function loadCube(): Promise<CompiledCube> {
  if (!compiled) {
    compiled = compileCube(SCHEMA_DIR, cubeSettings().compileCacheDir);
    // A failed compilation is retried by the next caller instead of failing forever.
    compiled.catch(() => {
      compiled = null;
    });
  }
  return compiled;
}
