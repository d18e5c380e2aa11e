/**
 * No text from a request, a payload or a setting runs in super-linear time (issue 43, point 1;
 * docs/input-limits.md "Patterns and regular expressions"):
 * - every regular expression literal in src/ is proven free of super-linear backtracking by
 *   recheck (a ReDoS checker), and no expression is built from text (`new RegExp`);
 * - an owner's `*` workflow pattern is matched by a linear algorithm; the pathological pattern of
 *   the outside test answers, with the right result, and the instance keeps answering.
 * The inputs below took seconds to minutes with the former expressions (the suite's per-test
 * timeout fails them); the results are asserted exactly.
 */
import { expect } from 'chai';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { check } from 'recheck';
import { globMatches, EMAIL, trimBoth, trimEnd } from '../../src/shared/text.js';
import { workflowMatches } from '../../src/codehost/deployments.js';
import { aiToolOf, readTrailers } from '../../src/codehost/aiTrailers.js';
import { nextLink } from '../../src/codehost/restClient.js';
import { buildTenant } from '../helpers/factories.js';
import { testServer, type TestServer } from '../helpers/server.js';
import { announceInstallation, codehostEnv, deliver, FIXTURE_INSTALLATION } from '../activity/helpers.js';

const ROOT = join(import.meta.dirname, '..', '..');

interface Found { where: string; text: string }

/** Every regular expression literal and every `RegExp(…)` / `new RegExp(…)` of a source text. */
export function regexesOf(fileName: string, source: string): { literals: Found[]; constructed: Found[] } {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true);
  const literals: Found[] = [];
  const constructed: Found[] = [];
  const where = (node: ts.Node) => `${fileName}:${file.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
  const visit = (node: ts.Node): void => {
    if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) literals.push({ where: where(node), text: node.getText() });
    if ((ts.isNewExpression(node) || ts.isCallExpression(node)) && node.expression.getText().replace(/^globalThis\./, '') === 'RegExp') {
      constructed.push({ where: where(node), text: node.getText().slice(0, 80) });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return { literals, constructed };
}

/**
 * recheck's verdict on a literal `/source/flags`. Its fuzzing checker is seeded, so a verdict is
 * the same on every run, and has no time limit: a busy machine makes a check slower, never
 * `timeout` (a wall-clock limit would make the verdict depend on the load). The asynchronous
 * `check` talks to recheck's own checker process; `checkSync` goes through synckit 0.9, whose
 * main-thread wait can wake without the answer under load (un-ts/synckit#217) and failed a CI run.
 */
async function verdict(literal: string): Promise<string> {
  const end = literal.lastIndexOf('/');
  const result = await check(literal.slice(1, end), literal.slice(end + 1), { timeout: null, randomSeed: 0 });
  return result.status === 'vulnerable' ? `vulnerable (${result.complexity.type}), e.g. ${JSON.stringify(result.attack.pattern).slice(0, 60)}` : result.status;
}

describe('patterns and regular expressions run in linear time', function () {
  this.timeout(120_000);

  it('every regular expression in src/ is safe by construction, and none is built from text', async () => {
    const files = readdirSync(join(ROOT, 'src'), { recursive: true }).map(String).filter((f) => f.endsWith('.ts'));
    const unsafe: string[] = [];
    const constructed: string[] = [];
    let count = 0;
    for (const f of files) {
      const found = regexesOf(`src/${f}`, readFileSync(join(ROOT, 'src', f), 'utf8'));
      count += found.literals.length;
      for (const r of found.literals) {
        const status = await verdict(r.text);
        if (status !== 'safe') unsafe.push(`${r.where} ${r.text} → ${status}`);
      }
      constructed.push(...found.constructed.map((c) => `${c.where} ${c.text}`));
    }
    expect(count, 'literals found').to.be.greaterThan(100);
    expect(unsafe).to.deep.equal([]);
    expect(constructed).to.deep.equal([]);
  });

  it('the checks themselves catch a backtracking expression and a constructed one', async () => {
    const found = regexesOf('x.ts', 'const a = /^(a+)+$/; const b = /^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$/; const c = new RegExp(user); const d = RegExp(`^${p}$`, "i");');
    const verdicts = await Promise.all(found.literals.map((l) => verdict(l.text)));
    expect(verdicts.map((v) => v.split(' ')[0])).to.deep.equal(['vulnerable', 'vulnerable']);
    expect(found.constructed.map((c) => c.where)).to.deep.equal(['x.ts:1', 'x.ts:1']);
  });

  it('`*` patterns: the outside test\'s pattern and others, exact results', () => {
    const evil = '*a*a*a*a*a*a*a*a*a*a*b.yml';
    expect(globMatches(evil, `${'a'.repeat(40)}.yml`)).to.equal(false);
    expect(globMatches(evil, `${'a'.repeat(100_000)}.yml`)).to.equal(false);
    expect(globMatches(evil, `${'a'.repeat(10)}b.yml`)).to.equal(true);
    expect(globMatches(evil, `${'a'.repeat(9)}b.yml`)).to.equal(false);
    expect(globMatches(`${'*'.repeat(200)}x`, `${'y'.repeat(100_000)}`)).to.equal(false);
    expect(globMatches('deploy*.yml', 'Deploy-Prod.YML')).to.equal(true);
    expect(globMatches('deploy*.yml', 'deploy.yml')).to.equal(true);
    expect(globMatches('deploy*.yml', 'deploy.yaml')).to.equal(false);
    expect(globMatches('deploy.yml', 'deploy.yml')).to.equal(true);
    expect(globMatches('deploy.yml', 'xdeploy.yml')).to.equal(false);
    expect(globMatches('*', '')).to.equal(true);
    expect(globMatches('a*a', 'a')).to.equal(false);
    expect(globMatches('a*a', 'aa')).to.equal(true);
    expect(globMatches('*ab*ab*', 'xabyab')).to.equal(true);
    expect(globMatches('*ab*ab*', 'xaby')).to.equal(false);
    // Characters that meant something to the former expression are themselves.
    expect(globMatches('d.(p)+?.yml', 'd.(p)+?.yml')).to.equal(true);
    expect(globMatches('d.(p)+?.yml', 'dx(p)pp.yml')).to.equal(false);
    expect(globMatches('a'.repeat(256), 'a'.repeat(256))).to.equal(false);
    expect(workflowMatches('.github/workflows/deploy*.yml', '.github/workflows/deploy-eu.yml')).to.equal(true);
  });

  it('commit trailers, Link headers and e-mail addresses of hostile length answer exactly', () => {
    const spaces = ' '.repeat(300_000);
    expect(readTrailers(`Fix\n\nCo-authored-by: x${spaces}y\nco-authored-by:  Claude Code <noreply@anthropic.com>  \r\nCo-authored-by:${spaces}`)).to.deep.equal({
      coauthors: [`x${spaces}y`, 'Claude Code <noreply@anthropic.com>'],
      aiCoauthors: ['claude'],
      aiTrailers: ['Co-authored-by: Claude Code <noreply@anthropic.com>'],
    });
    expect(readTrailers(`Fix\n\nMade-with:${spaces}Cursor${spaces}\n${':'.repeat(300_000)}`).aiTrailers).to.deep.equal(['Made-with: Cursor']);
    expect(aiToolOf(`a${spaces}b`)).to.equal(null);
    expect(aiToolOf(`Someone${spaces}<copilot@github.com>`)).to.equal('copilot');
    expect(aiToolOf('Claude Dupont <claude@example.fr>')).to.equal(null);
    expect(nextLink('<'.repeat(300_000))).to.equal(null);
    expect(nextLink('<https://api.example/r?page=1>; rel="prev", <https://api.example/r?page=3>; rel="next"')).to.equal('https://api.example/r?page=3');
    expect(nextLink('<https://api.example/r?page=3>;rel=next')).to.equal('https://api.example/r?page=3');
    expect(EMAIL.test(`a@${'a.'.repeat(300_000)}@`)).to.equal(false);
    expect(EMAIL.test('ana@acme.example')).to.equal(true);
    expect(EMAIL.test('ana@localhost')).to.equal(false);
    expect(trimEnd(`${'/'.repeat(300_000)}x`, '/')).to.equal(`${'/'.repeat(300_000)}x`);
    expect(trimEnd('/a///', '/')).to.equal('/a');
    expect(trimBoth('--a-b--', '-')).to.equal('a-b');
  });

  describe('an owner\'s pathological workflow pattern against deliveries', () => {
    let api: TestServer;
    before(async () => {
      api = await testServer({ env: codehostEnv() });
      await announceInstallation(api.databaseUrl, FIXTURE_INSTALLATION);
    });
    after(() => api?.close());

    it('is saved, a long file name answers "not the deployment workflow", and a matching one is stored', async () => {
      const tenant = await buildTenant(api.databaseUrl);
      const owner = api.as(tenant.owner.apiKey);
      expect((await owner.post('/api/integrations/codehost/installations', { installationId: FIXTURE_INSTALLATION })).status).to.equal(201);
      const pattern = '*a*a*a*a*a*a*a*a*a*a*b.yml';
      expect((await owner.put('/api/deployment-sources/organisation', { pattern: { workflow: pattern } })).body.data).to.deep.equal({ pattern: { workflow: pattern, branch: null } });
      const run = (id: number, file: string) => ({
        action: 'completed',
        installation: { id: FIXTURE_INSTALLATION },
        repository: { full_name: 'acme/patterns', default_branch: 'main' },
        workflow_run: {
          id, name: 'Deploy', path: `.github/workflows/${file}`, head_branch: 'main', head_sha: 'a'.repeat(40), status: 'completed', conclusion: 'success',
          run_attempt: 1, run_started_at: '2026-07-01T00:00:00Z', created_at: '2026-07-01T00:00:00Z', html_url: `https://github.com/acme/patterns/actions/runs/${id}`,
        },
      });
      const long = `${'a'.repeat(200)}.yml`;
      const miss = await deliver(api, 'workflow_run', run(801, long));
      expect(miss.status).to.equal(200);
      expect(miss.body.data).to.deep.include({ stored: false, reason: `workflow ${long} is not the deployment workflow of acme/patterns` });
      expect((await api.get('/health')).status).to.equal(200);
      const hit = await deliver(api, 'workflow_run', run(802, `${'a'.repeat(10)}b.yml`));
      expect(hit.body.data).to.deep.include({ stored: true });
    });
  });
});
