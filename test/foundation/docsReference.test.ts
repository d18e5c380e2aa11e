/**
 * Docs as checked reference: the tables a reader looks things up in name everything the code has
 * (issue 44, point 5; issue 46, point 8). The policy table is checked by test/auth/policies.test.ts.
 * - docs/jobs.md names the catalogue's file and every job kind and schedule of it;
 * - docs/mcp.md lists every MCP tool the server registers;
 * - docs/configuration.md names every environment variable src/config reads.
 */
import { expect } from 'chai';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { readSqlFiles } from '../../src/db/sqlSource.js';
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

/** A page's text without fenced blocks and code spans, where `[x](y)` is not a link. */
function prose(text: string): string[] {
  let fenced = false;
  return text.split('\n').map((line) => {
    if (line.startsWith('```')) fenced = !fenced;
    return fenced || line.startsWith('```') ? '' : line.split('`').filter((_, i) => i % 2 === 0).join('');
  });
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, each space a hyphen; repeats get -1, -2. */
export function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of text.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    if (fenced || !line.startsWith('#')) continue;
    const title = line.replace(/^#{1,6} /, '');
    if (title === line) continue;
    const slug = [...title.replaceAll('`', '').trim().toLowerCase()].filter((c) => /[\p{L}\p{N}_ -]/u.test(c)).join('').replaceAll(' ', '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return anchors;
}

/** `[label](target)` targets of a page's prose that are relative (no scheme). */
export function relativeLinks(text: string): string[] {
  return prose(text).flatMap((line) => [...line.matchAll(/\]\(([^()\s]+)\)/g)].map((m) => m[1]!)).filter((t) => !/^[a-z]+:/.test(t));
}

const DOCS = join(ROOT, 'docs');
const pages = ['README.md', ...readdirSync(DOCS, { recursive: true }).map(String).filter((f) => f.endsWith('.md')).map((f) => join('docs', f))];
const PAGE_LIMIT = 20 * 1024;

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

  it('docs/cube-views.md names only views that have a file', () => {
    const filed = new Set(readSqlFiles().map((f) => f.name));
    const named = doc('cube-views.md').split('\n').filter((line) => line.startsWith('| `')).flatMap((line) => [...line.split(' | ')[0]!.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]!));
    expect(named).to.include.members(['cube_deployments', 'cube_incidents', 'survey_team_months']);
    expect(named.filter((name) => !filed.has(name))).to.deep.equal([]);
  });

  it('every docs page is under 20 KB; dated measurements are docs/benchmarks/<yyyy-mm-dd>-<topic>.md', () => {
    const topics = pages.filter((p) => p.startsWith('docs') && !p.startsWith(join('docs', 'benchmarks')));
    expect(topics.length).to.be.greaterThan(40);
    expect(topics.filter((p) => statSync(join(ROOT, p)).size >= PAGE_LIMIT).map((p) => `${p}: ${statSync(join(ROOT, p)).size} bytes`)).to.deep.equal([]);
    const diaries = readdirSync(join(DOCS, 'benchmarks'));
    expect(diaries.length).to.be.greaterThan(5);
    expect(diaries.filter((f) => !/^\d{4}-\d{2}-\d{2}-[a-z0-9-]+\.md$/.test(f))).to.deep.equal([]);
  });

  it('docs/README.md lists every topic page', () => {
    const index = doc('README.md');
    const topics = readdirSync(DOCS).filter((f) => f.endsWith('.md') && f !== 'README.md');
    expect(topics.filter((f) => !index.includes(`](${f})`))).to.deep.equal([]);
  });

  it('every relative link in docs/ and README.md reaches a file, and the heading it names', () => {
    const broken: string[] = [];
    let links = 0;
    for (const page of pages) {
      for (const target of relativeLinks(readFileSync(join(ROOT, page), 'utf8'))) {
        links += 1;
        const [path, anchor] = target.split('#') as [string, string | undefined];
        const file = path === '' ? join(ROOT, page) : resolve(dirname(join(ROOT, page)), decodeURIComponent(path));
        if (!existsSync(file)) broken.push(`${page}: ${target} (no ${relative(ROOT, file)})`);
        else if (anchor !== undefined && file.endsWith('.md') && !anchorsOf(readFileSync(file, 'utf8')).has(anchor)) broken.push(`${page}: ${target} (no such heading)`);
      }
    }
    expect(links).to.be.greaterThan(150);
    expect(broken).to.deep.equal([]);
  });

  it('the checks catch what is missing', () => {
    expect([...anchorsOf('# A `b` (c)\n## Installation → tenant\n```\n# not a heading\n```\n## A b c\n')]).to.deep.equal(['a-b-c', 'installation--tenant', 'a-b-c-1']);
    expect(relativeLinks('[a](b.md#c) [x](https://e.org) `[.f](Z|±HH)` [d](../e.md)\n```\n[g](h.md)\n```')).to.deep.equal(['b.md#c', '../e.md']);
    expect(registeredTools('x.ts', "server.registerTool('a_tool', {}, f); server.registerTool(NAME, {}, g);")).to.deep.equal(['a_tool', '<not a literal at x.ts>']);
    expect(documented('| `A_B` | x |', 'A_B')).to.equal(true);
    expect(documented('`A_B=true` turns it on', 'A_B')).to.equal(true);
    expect(documented('A_B without backticks', 'A_B')).to.equal(false);
  });
});
