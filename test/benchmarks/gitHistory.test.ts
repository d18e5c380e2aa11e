/**
 * The corpus measured from git history (tools/benchmarks/gitHistory.ts): a tiny repository built
 * here with fixed dates (a merge commit, squash commits, a bot's commit, a revert, release tags,
 * a pre-release tag) gives the hand-worked rows; the snapshot it makes is the same bytes twice.
 */
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repositoryKey } from '../../src/benchmarks/measures.js';
import { measureRepository, releaseTag } from '../../tools/benchmarks/gitHistory.js';
import { measuredSnapshot, parseMeasureArgs, provenanceModule, REPOSITORIES_FILE, snapshotText, PROVENANCE_MODULE, type MeasuredRepositories } from '../../tools/benchmarks/measure.js';
import { SNAPSHOT_FILE } from '../../src/benchmarks/store.js';
import { readFileSync } from 'node:fs';

const DAY = 86_400;

describe('benchmark corpus measured from git history', () => {
  let clones: string;
  let work: string;
  let revertOf = '';

  function run(args: string[], when: string, who: [string, string] = ['Ann', 'ann@example.com']): string {
    const env = {
      ...process.env, GIT_AUTHOR_DATE: when, GIT_COMMITTER_DATE: when, GIT_AUTHOR_NAME: who[0], GIT_AUTHOR_EMAIL: who[1],
      GIT_COMMITTER_NAME: 'Ann', GIT_COMMITTER_EMAIL: 'ann@example.com', GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1',
    };
    return execFileSync('git', ['-C', work, ...args], { env, encoding: 'utf8' }).trim();
  }
  const commit = (subject: string, when: string, who?: [string, string], body?: string) =>
    run(['commit', '--allow-empty', '-q', '-m', subject, ...(body ? ['-m', body] : [])], when, who);

  before(() => {
    clones = mkdtempSync(join(tmpdir(), 'da-git-history-'));
    work = join(clones, 'example+tiny');
    execFileSync('git', ['init', '-q', '-b', 'main', work]);
    const bob: [string, string] = ['Bob', 'bob@example.com'];
    const cy: [string, string] = ['Cy', 'cy@example.com'];
    commit('initial', '2024-12-20T00:00:00Z');
    run(['tag', 'v1.0.0'], '2024-12-20T00:00:00Z');
    run(['checkout', '-q', '-b', 'feature'], '2025-01-01T00:00:00Z');
    commit('add feature', '2025-01-02T00:00:00Z', bob);
    commit('finish feature', '2025-01-03T00:00:00Z', bob);
    run(['checkout', '-q', 'main'], '2025-01-04T00:00:00Z');
    run(['merge', '-q', '--no-ff', 'feature', '-m', 'Merge pull request #7 from bob/feature', '-m', 'Add feature'], '2025-01-05T00:00:00Z');
    commit('Fix parser (#12)', '2025-01-10T00:00:00Z', cy);
    revertOf = run(['rev-parse', 'HEAD'], '2025-01-10T00:00:00Z');
    commit('Bump lodash (#13)', '2025-01-11T00:00:00Z', ['dependabot[bot]', '49699333+dependabot[bot]@users.noreply.github.com']);
    run(['tag', '-a', 'v1.1.0', '-m', 'v1.1.0'], '2025-01-15T00:00:00Z');
    commit('Revert "Fix parser (#12)"', '2025-01-18T00:00:00Z', cy, `This reverts commit ${revertOf}.`);
    run(['tag', 'v1.1.1'], '2025-01-18T00:00:00Z');
    commit('docs', '2025-02-03T00:00:00Z');
    commit('Add x (#14)', '2025-02-10T00:00:00Z', bob);
    run(['tag', 'v1.2.0-rc.1'], '2025-02-10T00:00:00Z');
    run(['tag', '-a', 'v1.2.0', '-m', 'v1.2.0'], '2025-02-20T00:00:00Z');
  });
  after(() => rmSync(clones, { recursive: true, force: true }));

  it('counts PRs, authors, branch cycle time, releases, reverts and fix releases, and lead time per month', () => {
    const key = repositoryKey('example/tiny');
    expect(measureRepository(join(work, '.git'), 'example/tiny', 'HEAD', '2025-01-01', '2025-02-01')).to.deep.equal([
      {
        // Human first-parent changes: the merge of #7, #12 and the revert (the bot's #13 left out).
        // PRs: #7 (Bob opened the branch: 2 Jan → merge 5 Jan = 3 days) and #12 (squash, no branch in history).
        // Releases: v1.1.0 (15 Jan, annotated) and v1.1.1 (18 Jan), a fix of v1.1.0 within 7 days.
        // Reverts and fix releases: the revert and v1.1.1 (2). Change failure per release: v1.1.0 is
        // followed within 7 days by the patch release v1.1.1 and the revert; v1.1.1 by nothing (the
        // revert is the commit it tags, not after it): 1 of 2 releases. Lead time: v1.1.0 releases
        // the commits of 2, 3, 10 and 11 Jan (13, 12, 5 and 4 days), v1.1.1 the revert (0): median 5 days.
        repository_key: key, month: '2025-01-01', prs_merged: 2, active_authors: 2, pr_cycle_time_p50_seconds: 3 * DAY, prs_merged_per_active_author: 1,
        releases: 2, revert_or_hotfix_prs: 2, change_failure_proxy: 1 / 2, lead_time_p50_seconds: 5 * DAY,
      },
      {
        // "docs" (no PR) and #14 (squash: no cycle time); v1.2.0 (the release candidate is no release)
        // releases the commits of 3 and 10 Feb on 20 Feb: 17 and 10 days, median 13.5; nothing follows it (0 of 1 failed).
        repository_key: key, month: '2025-02-01', prs_merged: 1, active_authors: 1, pr_cycle_time_p50_seconds: null, prs_merged_per_active_author: 1,
        releases: 1, revert_or_hotfix_prs: 0, change_failure_proxy: 0, lead_time_p50_seconds: 13.5 * DAY,
      },
    ]);
  });

  it('lead time: each commit counts once, at the first release holding it (two tags of one instant: the first by name)', () => {
    const ties = join(clones, 'example+ties');
    execFileSync('git', ['init', '-q', '-b', 'main', ties]);
    const at = (args: string[], when: string) => execFileSync('git', ['-C', ties, ...args], {
      env: { ...process.env, GIT_AUTHOR_DATE: when, GIT_COMMITTER_DATE: when, GIT_AUTHOR_NAME: 'Ann', GIT_AUTHOR_EMAIL: 'ann@example.com', GIT_COMMITTER_NAME: 'Ann', GIT_COMMITTER_EMAIL: 'ann@example.com', GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' },
      encoding: 'utf8',
    });
    const change = (subject: string, when: string) => at(['commit', '--allow-empty', '-q', '-m', subject], when);
    change('a', '2025-02-20T00:00:00Z');
    at(['tag', 'v1.0.0'], '2025-02-20T00:00:00Z');
    change('b', '2025-03-02T00:00:00Z');
    change('c', '2025-03-03T00:00:00Z');
    change('d', '2025-03-05T00:00:00Z');
    // Two lightweight tags of d: both dated 5 Mar (d's committer date), both releases.
    at(['tag', 'v1.1.0'], '2025-03-05T00:00:00Z');
    at(['tag', 'ties-1.1.0'], '2025-03-05T00:00:00Z');
    change('e', '2025-03-20T00:00:00Z');
    at(['tag', '-a', 'v1.2.0', '-m', 'v1.2.0'], '2025-03-21T00:00:00Z');
    const [march] = measureRepository(join(ties, '.git'), 'example/ties', 'HEAD', '2025-03-01', '2025-03-01');
    // ties-1.1.0 (first by name) releases b, c and d: 3, 2 and 0 days; v1.1.0 nothing more; v1.2.0 e: 1 day.
    // Median of 0, 1, 2, 3 days: 1.5 (counting b, c and d again for v1.1.0 would make it 2).
    expect(march).to.deep.include({ month: '2025-03-01', releases: 3, lead_time_p50_seconds: 1.5 * DAY });
  });

  it("a merged branch's first commit is the earliest instant, not the earliest text, across time zones", () => {
    const zones = join(clones, 'example+zones');
    execFileSync('git', ['init', '-q', '-b', 'main', zones]);
    const at = (args: string[], when: string, who: [string, string] = ['Ann', 'ann@example.com']) => execFileSync('git', ['-C', zones, ...args], {
      env: { ...process.env, GIT_AUTHOR_DATE: when, GIT_COMMITTER_DATE: when, GIT_AUTHOR_NAME: who[0], GIT_AUTHOR_EMAIL: who[1], GIT_COMMITTER_NAME: 'Ann', GIT_COMMITTER_EMAIL: 'ann@example.com', GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' },
      encoding: 'utf8',
    });
    at(['commit', '--allow-empty', '-q', '-m', 'initial'], '2026-01-20T00:00:00+00:00');
    at(['checkout', '-q', '-b', 'fix'], '2026-01-20T00:00:00+00:00');
    // Bob's commit at 08:00 UTC, written in his +02:00; the bot's at 09:00 UTC. As text the bot's
    // "…T09:00:00+00:00" sorts before Bob's "…T10:00:00+02:00": the PR would be the bot's, and left out.
    at(['commit', '--allow-empty', '-q', '-m', 'fix the parser'], '2026-02-03T10:00:00+02:00', ['Bob', 'bob@example.com']);
    at(['commit', '--allow-empty', '-q', '-m', 'style fixes'], '2026-02-03T09:00:00+00:00', ['pre-commit-ci[bot]', '66853113+pre-commit-ci[bot]@users.noreply.github.com']);
    // And Cy's, 07:00 UTC on the 4th, written in −05:00: later than both, though "…T02:00" sorts first.
    at(['commit', '--allow-empty', '-q', '-m', 'review'], '2026-02-04T02:00:00-05:00', ['Cy', 'cy@example.com']);
    at(['checkout', '-q', 'main'], '2026-02-05T00:00:00+00:00');
    at(['merge', '-q', '--no-ff', 'fix', '-m', 'Merge pull request #21 from bob/fix', '-m', 'Fix the parser'], '2026-02-05T08:00:00+00:00');
    const [february] = measureRepository(join(zones, '.git'), 'example/zones', 'HEAD', '2026-02-01', '2026-02-01');
    // Bob opened it: one PR by one author, 08:00 UTC on the 3rd → 08:00 UTC on the 5th.
    expect(february).to.deep.include({ prs_merged: 1, active_authors: 1, pr_cycle_time_p50_seconds: 2 * DAY });
  });

  it('writes the same snapshot bytes from the same clones, with the repositories and commits read', () => {
    const head = run(['rev-parse', 'HEAD'], '2025-03-01T00:00:00Z');
    const list = { about: 'test', readOn: '2025-03-01', windowFrom: '2025-01-01', windowTo: '2025-02-01', repositories: [{ repository: 'example/tiny', commit: head }] };
    const first = snapshotText(measuredSnapshot(list, clones));
    expect(snapshotText(measuredSnapshot(list, clones))).to.equal(first);
    const parsed = JSON.parse(first);
    expect(parsed.synthetic).to.equal(false);
    expect(parsed.generatedAt).to.equal('2025-03-01T00:00:00.000Z');
    expect(parsed.provenance).to.deep.equal({ method: 'git-history', readOn: '2025-03-01', repositories: [{ repository: 'example/tiny', commit: head }], leftOut: [] });
    expect(parsed.rows.map((r: { month: string }) => r.month)).to.deep.equal(['2025-01-01', '2025-02-01']);
  });

  it('leaves out a repository with a change by a person in fewer than 3 of 4 months of the window', () => {
    const head = run(['rev-parse', 'HEAD'], '2025-05-01T00:00:00Z');
    const list = { about: 'test', readOn: '2025-05-01', windowFrom: '2025-01-01', windowTo: '2025-04-01', repositories: [{ repository: 'example/tiny', commit: head }] };
    const snapshot = measuredSnapshot(list, clones);
    expect(snapshot.rows).to.deep.equal([]);
    expect(snapshot.provenance).to.deep.equal({ method: 'git-history', readOn: '2025-05-01', repositories: [], leftOut: [{ repository: 'example/tiny', commit: head, activeMonths: 2, reason: 'not active' }] });
  });

  it('leaves out a repository with more than 60 distinct PR authors in a month (the sample rule), and keeps one with 60', () => {
    // One `git fast-import` per repository (a process per commit is slow on a busy machine).
    const crowd = (name: string, authors: number): string => {
      const dir = join(clones, `example+${name}`);
      execFileSync('git', ['init', '-q', '-b', 'main', dir]);
      const commits: [string, number, string, string][] = [['initial', Date.parse('2024-12-20T00:00:00Z'), 'Ann', 'ann@example.com']];
      for (let i = 1; i <= authors; i++) commits.push([`Change ${i} (#${i})`, Date.parse('2025-01-10T00:00:00Z') + i * 60_000, `Dev ${i}`, `dev${i}@example.com`]);
      commits.push(['Later (#999)', Date.parse('2025-02-10T00:00:00Z'), 'Ann', 'ann@example.com']);
      const stream = commits.map(([subject, ms, who, email], i) => [
        'commit refs/heads/main', `mark :${i + 1}`, `author ${who} <${email}> ${ms / 1000} +0000`, `committer Ann <ann@example.com> ${ms / 1000} +0000`,
        `data ${Buffer.byteLength(subject)}`, subject, ...(i > 0 ? [`from :${i}`] : []), '',
      ].join('\n')).join('');
      execFileSync('git', ['-C', dir, 'fast-import', '--quiet'], { input: stream });
      return execFileSync('git', ['-C', dir, 'rev-parse', 'main'], { encoding: 'utf8' }).trim();
    };
    const big = crowd('crowd', 61);
    const team = crowd('team', 60);
    const list = { about: 'test', readOn: '2025-03-01', windowFrom: '2025-01-01', windowTo: '2025-02-01', repositories: [{ repository: 'example/crowd', commit: big }, { repository: 'example/team', commit: team }] };
    const snapshot = measuredSnapshot(list, clones);
    expect(snapshot.provenance).to.deep.equal({
      method: 'git-history', readOn: '2025-03-01', repositories: [{ repository: 'example/team', commit: team }],
      leftOut: [{ repository: 'example/crowd', commit: big, activeMonths: 2, reason: 'more than 60 PR authors in a month' }],
    });
    expect(snapshot.rows.map((r) => [r.repository_key, r.month, r.active_authors])).to.deep.equal([
      [repositoryKey('example/team'), '2025-01-01', 60], [repositoryKey('example/team'), '2025-02-01', 1],
    ]);
  });

  it('--repo measures one listed repository again and keeps every other row of the snapshot as it was', () => {
    const solo = join(clones, 'example+solo');
    execFileSync('git', ['init', '-q', '-b', 'main', solo]);
    const stream = [['initial', '2024-12-20'], ['One (#1)', '2025-01-10'], ['Two (#2)', '2025-02-10']].map(([subject, day], i) => [
      'commit refs/heads/main', `mark :${i + 1}`, `author Ann <ann@example.com> ${Date.parse(`${day}T00:00:00Z`) / 1000} +0000`, `committer Ann <ann@example.com> ${Date.parse(`${day}T00:00:00Z`) / 1000} +0000`,
      `data ${subject!.length}`, subject, ...(i > 0 ? [`from :${i}`] : []), '',
    ].join('\n')).join('');
    execFileSync('git', ['-C', solo, 'fast-import', '--quiet'], { input: stream });
    const soloHead = execFileSync('git', ['-C', solo, 'rev-parse', 'main'], { encoding: 'utf8' }).trim();
    const tinyHead = run(['rev-parse', 'HEAD'], '2025-03-01T00:00:00Z');
    const list = { about: 'test', readOn: '2025-03-01', windowFrom: '2025-01-01', windowTo: '2025-02-01', repositories: [{ repository: 'example/solo', commit: soloHead }, { repository: 'example/tiny', commit: tinyHead }] };
    const full = measuredSnapshot(list, clones);
    // A base whose rows differ from what the clones give: only solo's are measured again.
    const base = { ...full, rows: full.rows.map((r) => ({ ...r, prs_merged: 999 })) };
    const lines: string[] = [];
    const one = measuredSnapshot(list, clones, (line) => lines.push(line), { repository: 'example/solo', base });
    expect(lines).to.have.length(1).and.satisfy((l: string[]) => l[0]!.startsWith('example/solo: 2 active months'));
    const soloKey = repositoryKey('example/solo');
    expect(one.rows).to.deep.equal(full.rows.map((r) => (r.repository_key === soloKey ? r : { ...r, prs_merged: 999 })));
    expect(one.rows.filter((r) => r.repository_key === soloKey).map((r) => r.prs_merged)).to.deep.equal([1, 1]);
    expect(one.provenance).to.deep.equal(full.provenance);
    expect(snapshotText(one)).to.equal(snapshotText({ ...full, rows: one.rows }));
    expect(() => measuredSnapshot(list, clones, () => {}, { repository: 'example/unlisted', base })).to.throw('example/unlisted is not listed in corpus/measured-repositories.json');
    expect(() => measuredSnapshot({ ...list, windowTo: '2025-03-01' }, clones, () => {}, { repository: 'example/solo', base })).to.throw('measure every repository');
  });

  it('corpus:measure takes --repo owner/name beside --clones and --record', () => {
    expect(parseMeasureArgs(['--clones', '/clones', '--repo', 'pytest-dev/pytest'])).to.deep.equal({ clones: '/clones', record: false, repository: 'pytest-dev/pytest' });
    expect(parseMeasureArgs(['--record', '--clones', '/clones'])).to.deep.equal({ clones: '/clones', record: true, repository: null });
    expect(() => parseMeasureArgs(['--clones', '/clones', '--repo'])).to.throw('--repo needs a value');
    expect(() => parseMeasureArgs(['--clones', '/clones', '--repo', 'pytest'])).to.throw('--repo takes owner/name');
    expect(() => parseMeasureArgs(['--clones', '/clones', '--repository', 'a/b'])).to.throw('unknown argument --repository');
    expect(() => parseMeasureArgs(['--repo', 'a/b'])).to.throw('usage: npm run corpus:measure');
  });

  it('takes X.Y.Z tags, bare, with v, or after the repository\'s own name or parent, as releases', () => {
    const tags = ['v1.2.3', '1.2.3', 'svelte@5.1.0', 'tokio-1.47.0', 'axum-v0.8.4', 'parent-5.1.0', 'v1.2.3-rc.1', 'axum-extra-v0.12.0', '@scope/pkg@1.0.0', 'nightly'];
    expect(tags.filter((t) => releaseTag('svelte').test(t) || releaseTag('tokio').test(t) || releaseTag('axum').test(t))).to.deep.equal(['v1.2.3', '1.2.3', 'svelte@5.1.0', 'tokio-1.47.0', 'axum-v0.8.4', 'parent-5.1.0']);
  });

  it('the shipped snapshot is rebuilt byte for byte from corpus/measured-repositories.json and the clones (BENCHMARK_CLONES)', function () {
    const clonesDir = process.env.BENCHMARK_CLONES;
    if (!clonesDir) {
      // Skipped, and said: the clones (about 4 GB) stay out of the repository.
      console.log('      skipped: set BENCHMARK_CLONES to a directory holding the clones listed in corpus/measured-repositories.json');
      this.skip();
    }
    // Reading 35 histories takes minutes, more under load (13 min at load 13): no time limit, the bytes are what is checked.
    this.timeout(0);
    const list = JSON.parse(readFileSync(REPOSITORIES_FILE, 'utf8')) as MeasuredRepositories;
    const snapshot = measuredSnapshot(list, clonesDir!);
    expect(snapshotText(snapshot)).to.equal(readFileSync(SNAPSHOT_FILE, 'utf8'));
    expect(provenanceModule(snapshot)).to.equal(readFileSync(PROVENANCE_MODULE, 'utf8'));
  });
});
