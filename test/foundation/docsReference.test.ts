/**
 * Docs as checked reference: the tables a reader looks things up in name everything the code has
 * (issue 44, point 5; issue 46, point 8). The policy table is checked by test/auth/policies.test.ts.
 * - docs/jobs.md names the catalogue's file and every job kind and schedule of it;
 * - docs/mcp.md lists every MCP tool the server registers;
 * - docs/configuration.md names every environment variable src/config reads.
 */
import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { jobCatalog, scheduleCatalog } from '../../src/jobCatalog.js';

const ROOT = join(import.meta.dirname, '..', '..');
const doc = (name: string) => readFileSync(join(ROOT, 'docs', name), 'utf8');
const sources = (dir: string) => readdirSync(join(ROOT, dir), { recursive: true }).map(String).filter((f) => f.endsWith('.ts')).map((f) => join(ROOT, dir, f));
/** `name` in backticks, alone or as `name=value`. */
const documented = (text: string, name: string) => text.includes(`\`${name}\``) || text.includes(`\`${name}=`);

/** Every call `<x>.registerTool('<name>', …)` of a source text; a name that is not a literal is reported as such. */
export function registeredTools(fileName: string, source: string): string[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true);
  const names: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && node.expression.name.text === 'registerTool') {
      const first = node.arguments[0];
      names.push(first && ts.isStringLiteralLike(first) ? first.text : `<not a literal at ${fileName}>`);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return names;
}

describe('docs as checked reference', () => {
  it('docs/jobs.md names src/jobCatalog.ts and every job kind and schedule', () => {
    const text = doc('jobs.md');
    expect(text).to.include('`src/jobCatalog.ts`');
    const jobs = jobCatalog.map((j) => j.name).filter((name) => !name.startsWith('test.'));
    const schedules = scheduleCatalog.map((s) => s.name);
    expect(jobs.length).to.be.greaterThan(20);
    expect(jobs.filter((name) => !documented(text, name))).to.deep.equal([]);
    expect(schedules.filter((name) => !documented(text, name))).to.deep.equal([]);
  });

  it('docs/mcp.md lists every MCP tool', () => {
    const tools = sources('src/mcp').flatMap((f) => registeredTools(f, readFileSync(f, 'utf8')));
    expect(tools).to.include.members(['cube_query', 'list_facts']);
    const table = doc('mcp.md').split('\n').filter((line) => line.startsWith('| `'));
    expect(tools.filter((name) => !table.some((row) => row.startsWith(`| \`${name}\` |`)))).to.deep.equal([]);
  });

  it('docs/configuration.md names every variable src/config reads', () => {
    const names = new Set<string>();
    for (const f of sources('src/config')) {
      for (const m of readFileSync(f, 'utf8').matchAll(/'([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[A-Z]{4,})'/g)) names.add(m[1]!);
    }
    expect(names.size).to.be.greaterThan(60);
    const text = doc('configuration.md');
    expect([...names].filter((name) => !documented(text, name)).sort()).to.deep.equal([]);
  });

  it('the checks catch what is missing', () => {
    expect(registeredTools('x.ts', "server.registerTool('a_tool', {}, f); server.registerTool(NAME, {}, g);")).to.deep.equal(['a_tool', '<not a literal at x.ts>']);
    expect(documented('| `A_B` | x |', 'A_B')).to.equal(true);
    expect(documented('`A_B=true` turns it on', 'A_B')).to.equal(true);
    expect(documented('A_B without backticks', 'A_B')).to.equal(false);
  });
});
