/**
 * Cube's schema compiler, in-process: the YAML models of `schema/` are compiled once per process
 * (about a second) and shared by every request, command and MCP tool.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { prepareCompiler, type Compiler } from '@cubejs-backend/schema-compiler';

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

/** Compiles the models of `dir`; throws with Cube's own error text when a model is invalid. */
export async function compileCube(dir = SCHEMA_DIR): Promise<CompiledCube> {
  const files = schemaFiles(dir);
  const repo = { localPath: () => dir, dataSchemaFiles: async () => files };
  const compiler = prepareCompiler(repo as never, { nativeInstance: nativeInstance as never, standalone: true });
  await compiler.compiler.compile();
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
    compiled = compileCube();
    // A failed compilation is retried by the next caller instead of failing forever.
    compiled.catch(() => {
      compiled = null;
    });
  }
  return compiled;
}
