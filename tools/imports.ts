/**
 * The import graph of src/ and its floors (docs/architecture.md). Lists every import of every
 * file: static `import`, `export … from`, `import type`, `typeof import('…')`, `import x = require()`
 * and `import('…')`; resolves relative specifiers to the folder they land in; reports each import of
 * an infrastructure file that reaches above its floor, and the cycles between folders.
 * test/foundation/layers.test.ts holds the rule; `npx tsx tools/imports.ts` prints the figures
 * (`--list` adds every upward import, `--edges` every folder-to-folder import, `--src <dir>` reads
 * another tree, e.g. an older commit's: `git archive <commit> src | tar -x -C /tmp/old`).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, posix, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const SRC = join(ROOT, 'src');

/** The ground floor: imports only itself (and packages, Node's own modules). */
export const INFRASTRUCTURE_FOLDERS = ['auth', 'config', 'db', 'http', 'jobs', 'live', 'mail', 'shared', 'storage'] as const;
/** Root files that count as infrastructure (each imports at most config/ and the others here). */
export const INFRASTRUCTURE_FILES = ['context.ts', 'errors.ts', 'log.ts', 'version.ts', 'webBuild.ts'] as const;
/** Entry points and composition roots: the files that may know every capability. */
export const ROOT_FILES = ['app.ts', 'dev.ts', 'jobCatalog.ts', 'main.ts', 'server.ts'] as const;

/**
 * Vendor SDKs that most instances never call: src/ imports them only through `import()` where first
 * used, or for their types (docs/architecture.md, "Vendor SDKs load when first used").
 * test/foundation/layers.test.ts checks it; bench/startCost.ts loads them eagerly as its reference.
 */
export const LOADED_WHEN_USED = [
  '@paddle/paddle-node-sdk',
  'jira.js',
  '@linear/sdk',
  '@aws-sdk/client-s3',
  '@langfuse/otel',
  '@opentelemetry/context-async-hooks',
  '@opentelemetry/sdk-trace-base',
  '@ai-sdk/openai',
  '@ai-sdk/anthropic',
  '@ai-sdk/google',
  '@ai-sdk/openai-compatible',
] as const;

export type ImportKind = 'static' | 'type' | 'dynamic';

export interface ImportRecord {
  /** Path under src/, with forward slashes ("http/route.ts"). */
  file: string;
  line: number;
  specifier: string;
  kind: ImportKind;
  /** True for a dynamic `import()` whose argument is not a string literal. */
  computed: boolean;
}

export interface Violation {
  file: string;
  line: number;
  /** The folder (or root file) imported, or the import's text when it cannot be resolved. */
  target: string;
  kind: ImportKind;
  message: string;
}

/** Every import of one file's text. */
export function listImports(file: string, text: string): ImportRecord[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const found: ImportRecord[] = [];
  const add = (node: ts.Node, specifier: string, kind: ImportKind, computed = false) => {
    const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
    found.push({ file, line, specifier, kind, computed });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      add(node, node.moduleSpecifier.text, node.importClause?.isTypeOnly ? 'type' : 'static');
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      add(node, node.moduleSpecifier.text, node.isTypeOnly ? 'type' : 'static');
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      const expression = node.moduleReference.expression;
      if (ts.isStringLiteral(expression)) add(node, expression.text, node.isTypeOnly ? 'type' : 'static');
    } else if (ts.isImportTypeNode(node)) {
      const argument = node.argument;
      if (ts.isLiteralTypeNode(argument) && ts.isStringLiteral(argument.literal)) add(node, argument.literal.text, 'type');
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const argument = node.arguments[0];
      if (argument && ts.isStringLiteralLike(argument)) add(node, argument.text, 'dynamic');
      else add(node, argument ? argument.getText(source) : '', 'dynamic', true);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/**
 * The unit of the floors an import lands in: the first folder under src/ ("identity"), or the root
 * file ("errors.ts"); integrations/ counts each of its subfolders ("integrations/slack"), as they
 * are separate capabilities. Null for packages, Node's modules and paths outside src/.
 */
export function unitOf(pathUnderSrc: string): string | null {
  if (pathUnderSrc.startsWith('../') || pathUnderSrc === '..') return null;
  const parts = pathUnderSrc.split('/');
  if (parts.length === 1) return parts[0]!.replace(/\.js$/, '.ts');
  if (parts[0] === 'integrations' && parts.length > 2) return `integrations/${parts[1]}`;
  return parts[0]!;
}

/** The unit a relative specifier in `file` (under src/) reaches, or null for a package. */
export function targetOf(file: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  return unitOf(posix.normalize(posix.join(posix.dirname(file), specifier)));
}

export function isInfrastructure(unit: string): boolean {
  return (INFRASTRUCTURE_FOLDERS as readonly string[]).includes(unit) || (INFRASTRUCTURE_FILES as readonly string[]).includes(unit);
}

/** The imports in `records` that break the floor rule. */
export function violations(records: ImportRecord[]): Violation[] {
  const out: Violation[] = [];
  for (const record of records) {
    const from = unitOf(record.file);
    if (from === null || !isInfrastructure(from)) continue;
    const where = { file: record.file, line: record.line, kind: record.kind };
    if (record.computed) {
      out.push({ ...where, target: record.specifier, message: `${record.file}:${record.line} → import(${record.specifier}): a dynamic import with a computed specifier (the floors cannot be checked)` });
      continue;
    }
    const target = targetOf(record.file, record.specifier);
    if (target === null || isInfrastructure(target)) continue;
    out.push({ ...where, target, message: `${record.file}:${record.line} → ${target} (${record.specifier}, ${record.kind})` });
  }
  return out;
}

/** Every .ts file under src/, as paths under src/. */
export function sourceFiles(dir = SRC): string[] {
  return (readdirSync(dir, { recursive: true }) as string[])
    .map((name) => name.split('\\').join('/'))
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.d.ts'))
    .sort();
}

/** Every import of every file under src/. */
export function listAllImports(dir = SRC): ImportRecord[] {
  return sourceFiles(dir).flatMap((file) => listImports(file, readFileSync(join(dir, file), 'utf8')));
}

/** Folder-to-folder edges (a unit importing another), with the imports behind each. */
export function unitGraph(records: ImportRecord[]): Map<string, Map<string, ImportRecord[]>> {
  const graph = new Map<string, Map<string, ImportRecord[]>>();
  for (const record of records) {
    const from = unitOf(record.file);
    const to = record.computed ? null : targetOf(record.file, record.specifier);
    if (from === null) continue;
    if (!graph.has(from)) graph.set(from, new Map());
    if (to === null || to === from) continue;
    const edges = graph.get(from)!;
    edges.set(to, [...(edges.get(to) ?? []), record]);
    if (!graph.has(to)) graph.set(to, new Map());
  }
  return graph;
}

/** The strongly connected groups of more than one unit (Tarjan's algorithm), largest first. */
export function cycles(graph: Map<string, Map<string, unknown>>): string[][] {
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const connect = (node: string): void => {
    indices.set(node, index);
    low.set(node, index);
    index++;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node)?.keys() ?? []) {
      if (!indices.has(next)) {
        connect(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, indices.get(next)!));
      }
    }
    if (low.get(node) === indices.get(node)) {
      const group: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        group.push(member);
      } while (member !== node);
      if (group.length > 1) groups.push(group.sort());
    }
  };
  for (const node of [...graph.keys()].sort()) if (!indices.has(node)) connect(node);
  return groups.sort((a, b) => b.length - a.length || a[0]!.localeCompare(b[0]!));
}

/** The figures docs/architecture.md records. */
export function summary(records = listAllImports()) {
  const upward = violations(records);
  const graph = unitGraph(records);
  const groups = cycles(graph);
  return {
    files: new Set(records.map((r) => r.file)).size,
    imports: records.length,
    upward: upward.length,
    upwardByKind: {
      static: upward.filter((v) => v.kind === 'static').length,
      type: upward.filter((v) => v.kind === 'type').length,
      dynamic: upward.filter((v) => v.kind === 'dynamic').length,
    },
    violations: upward,
    cycles: groups,
    graph,
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const at = process.argv.indexOf('--src');
  const figures = summary(listAllImports(at > 0 && process.argv[at + 1] ? resolve(process.argv[at + 1]!) : SRC));
  const { static: s, type: t, dynamic: d } = figures.upwardByKind;
  console.log(`${figures.files} files, ${figures.imports} imports`);
  console.log(`upward imports from infrastructure: ${figures.upward} (static ${s}, type-only ${t}, dynamic ${d})`);
  console.log(`cycles between folders: ${figures.cycles.length}`);
  for (const group of figures.cycles) console.log(`  ${group.length}: ${group.join(' ')}`);
  if (process.argv.includes('--list')) for (const v of figures.violations) console.log(`  ${v.message}`);
  if (process.argv.includes('--edges')) {
    for (const [from, edges] of [...figures.graph].sort()) {
      for (const [to, records] of [...edges].sort()) {
        console.log(`  ${from} → ${to}: ${records.map((r) => `${relative('.', r.file)}:${r.line}`).join(', ')}`);
      }
    }
  }
}
