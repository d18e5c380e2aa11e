/**
 * Writes corpus/snapshot.json measured from the public git history of the repositories listed in
 * corpus/measured-repositories.json, each read at its recorded commit, over the window recorded
 * there (docs/benchmarks-corpus.md "Measured from git history"). Offline: it reads local clones with git.
 *
 *   npm run corpus:measure -- --clones <dir>            measure; same clones, same bytes
 *   npm run corpus:measure -- --clones <dir> --record   first record each clone's HEAD as the commit read
 *   npm run corpus:measure -- --clones <dir> --repo owner/name [--record]
 *                                                       measure that one listed repository again (at its
 *                                                       recorded commit, or its clone's HEAD with --record),
 *                                                       keeping the snapshot's other rows as they are
 *
 * A clone of owner/name is looked for at <dir>/owner+name/repo, <dir>/owner+name, <dir>/owner/name.git
 * or <dir>/owner/name (bare or not). A repository whose clone lacks the recorded commit stops the run.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repositoryKey } from '../../src/benchmarks/measures.js';
import { CRITERIA, NAME_WITH_OWNER } from '../../src/benchmarks/sample.js';
import { readSnapshot, SNAPSHOT_FILE, type Snapshot, type StoredRow } from '../../src/benchmarks/store.js';
import { git, measureRepositoryMonths } from './gitHistory.js';

export const REPOSITORIES_FILE = new URL('../../corpus/measured-repositories.json', import.meta.url);
/** The shipped corpus's provenance for the web app's help page and the MCP tool (written beside the snapshot). */
export const PROVENANCE_MODULE = new URL('../../src/shared/measuredCorpus.ts', import.meta.url);

export function provenanceModule(snapshot: Snapshot): string {
  const p = snapshot.provenance;
  if (!p) throw new Error('not a snapshot measured from git history');
  return `/** Written by tools/benchmarks/measure.ts with corpus/snapshot.json: where the shipped corpus was measured from. No imports: the web build compiles this file too. */
export const MEASURED_CORPUS = ${JSON.stringify({ readOn: p.readOn, windowFrom: snapshot.windowFrom, windowTo: snapshot.windowTo, repositories: p.repositories.map((r) => r.repository), leftOut: p.leftOut.map((r) => ({ repository: r.repository, reason: r.reason })) }, null, 2)} as const;
`;
}

export interface MeasuredRepositories {
  about: string;
  /** YYYY-MM-DD: the day the clones were read. */
  readOn: string;
  /** YYYY-MM-DD, first days of the first and last of the 12 complete months measured. */
  windowFrom: string;
  windowTo: string;
  repositories: { repository: string; commit: string }[];
}

export function gitDirOf(clones: string, repository: string): string {
  const [owner, name] = repository.split('/') as [string, string];
  for (const dir of [join(clones, `${owner}+${name}`, 'repo'), join(clones, `${owner}+${name}`), join(clones, owner, `${name}.git`), join(clones, owner, name)]) {
    if (existsSync(join(dir, 'HEAD')) && existsSync(join(dir, 'objects'))) return dir;
    if (existsSync(join(dir, '.git', 'HEAD'))) return join(dir, '.git');
  }
  throw new Error(`no clone of ${repository} under ${clones}`);
}

export function snapshotText(snapshot: Snapshot): string {
  return `${JSON.stringify({ ...snapshot, rows: undefined }, null, 2).replace(/\n}$/, ',\n  "rows": [\n')}${snapshot.rows.map((r) => `    ${JSON.stringify(r)}`).join(',\n')}\n  ]\n}\n`;
}

/** A repository is active, and in the corpus, when its default branch has a change by a person in at least this share of the window's months (9 of 12). */
export const ACTIVE_SHARE = 3 / 4;

/** Why a repository read is left out of the corpus (docs/benchmarks.md "Sample" and "Active"). */
export type LeftOutReason = 'not active' | 'more than 60 PR authors in a month';

/**
 * Why a measured repository is left out, or null when it is in: fewer active months than
 * ACTIVE_SHARE of the window, or more distinct PR authors in a month than a team
 * (CRITERIA.maxMonthlyAuthors, the rule the live path applies too).
 */
export function leftOutReason(rows: StoredRow[], activeMonths: number): LeftOutReason | null {
  if (activeMonths < Math.ceil(ACTIVE_SHARE * rows.length)) return 'not active';
  if (rows.some((r) => Number(r.active_authors) > CRITERIA.maxMonthlyAuthors)) return 'more than 60 PR authors in a month';
  return null;
}

/** The snapshot's `about`: what it is, from how many repositories, read when. */
export function aboutText(readOn: string, repositories: number, leftOut: number): string {
  return (
    `Open-source benchmark corpus measured from the public git history of ${repositories} repositories (corpus/measured-repositories.json: each read at a recorded commit on ${readOn}; ${leftOut} more read but left out: not active, or more than 60 PR authors in a month), ` +
    'by tools/benchmarks/measure.ts (docs/benchmarks-corpus.md "Measured from git history"). Every measure is a proxy: git holds no deployment and no incident. ' +
    'A deployment with CODEHOST_PUBLIC_TOKEN re-measures the corpus from the code host (the first completed run of benchmarks.corpus replaces this one). Aggregates per repository and month only.'
  );
}

type LeftOut = NonNullable<Snapshot['provenance']>['leftOut'][number];

/** One listed repository measured at its recorded commit: its rows when in the corpus, else why not. */
function measureListed(list: MeasuredRepositories, clones: string, { repository, commit }: MeasuredRepositories['repositories'][number], log: (line: string) => void): { rows: StoredRow[] } | { leftOut: LeftOut } {
  const dir = gitDirOf(clones, repository);
  git(dir, ['cat-file', '-e', `${commit}^{commit}`]);
  const { rows: measured, changes } = measureRepositoryMonths(dir, repository, commit, list.windowFrom, list.windowTo);
  const activeMonths = changes.filter((n) => n > 0).length;
  const reason = leftOutReason(measured, activeMonths);
  log(`${repository}: ${activeMonths} active months${reason ? ` (left out: ${reason})` : ''}, ${measured.reduce((n, r) => n + Number(r.prs_merged), 0)} PRs, ${measured.reduce((n, r) => n + Number(r.releases), 0)} releases\n`);
  return reason ? { leftOut: { repository, commit, activeMonths, reason } } : { rows: measured };
}

/**
 * The snapshot of every repository of `list`, or, with `only`, the snapshot `only.base` with one
 * repository measured again (its rows and provenance replaced, every other row kept as it was):
 * the base must be a git-history snapshot of the same window and read date, and the repository one
 * of the list's.
 */
export function measuredSnapshot(list: MeasuredRepositories, clones: string, log: (line: string) => void = () => {}, only?: { repository: string; base: Snapshot }): Snapshot {
  const rows: StoredRow[] = [];
  const repositories: MeasuredRepositories['repositories'] = [];
  const leftOut: LeftOut[] = [];
  const byName = (a: { repository: string }, b: { repository: string }) => a.repository.localeCompare(b.repository);
  let listed = [...list.repositories].sort(byName);
  if (only) {
    const { repository, base } = only;
    const entry = list.repositories.find((r) => r.repository.toLowerCase() === repository.toLowerCase());
    if (!entry) throw new Error(`${repository} is not listed in corpus/measured-repositories.json`);
    const p = base.provenance;
    if (!p || base.windowFrom !== list.windowFrom || base.windowTo !== list.windowTo || p.readOn !== list.readOn) {
      throw new Error('the snapshot was not measured over the listed window and read date: measure every repository');
    }
    const key = repositoryKey(entry.repository);
    rows.push(...base.rows.filter((r) => r.repository_key !== key));
    repositories.push(...p.repositories.filter((r) => r.repository !== entry.repository));
    leftOut.push(...p.leftOut.filter((r) => r.repository !== entry.repository));
    listed = [entry];
  }
  for (const entry of listed) {
    const measured = measureListed(list, clones, entry, log);
    if ('leftOut' in measured) {
      leftOut.push(measured.leftOut);
      continue;
    }
    repositories.push(entry);
    rows.push(...measured.rows);
  }
  repositories.sort(byName);
  leftOut.sort(byName);
  rows.sort((a, b) => String(a.repository_key).localeCompare(String(b.repository_key)) || String(a.month).localeCompare(String(b.month)));
  return {
    about: aboutText(list.readOn, repositories.length, leftOut.length),
    synthetic: false,
    generatedAt: `${list.readOn}T00:00:00.000Z`,
    windowFrom: list.windowFrom,
    windowTo: list.windowTo,
    provenance: { method: 'git-history', readOn: list.readOn, repositories, leftOut },
    rows,
  };
}

export interface MeasureArgs {
  clones: string;
  record: boolean;
  /** owner/name: measure this repository only, keeping the shipped snapshot's other rows. */
  repository: string | null;
}

const USAGE = 'usage: npm run corpus:measure -- --clones <dir> [--repo owner/name] [--record]';

export function parseMeasureArgs(args: string[]): MeasureArgs {
  const value = (flag: string): string | null => {
    const at = args.indexOf(flag);
    if (at < 0) return null;
    const v = args[at + 1];
    if (!v || v.startsWith('--')) throw new Error(`${flag} needs a value; ${USAGE}`);
    return v;
  };
  const known = new Set(['--clones', '--repo', '--record']);
  const unknown = args.find((a, i) => a.startsWith('--') ? !known.has(a) : !['--clones', '--repo'].includes(args[i - 1] ?? ''));
  if (unknown !== undefined) throw new Error(`unknown argument ${unknown}; ${USAGE}`);
  const clones = value('--clones');
  if (!clones) throw new Error(USAGE);
  const repository = value('--repo');
  if (repository !== null && !NAME_WITH_OWNER.test(repository)) throw new Error(`--repo takes owner/name, not ${repository}`);
  return { clones, record: args.includes('--record'), repository };
}

if (process.argv[1] && new URL(`file://${process.argv[1]}`).pathname.endsWith('tools/benchmarks/measure.ts')) {
  const { clones, record, repository } = parseMeasureArgs(process.argv.slice(2));
  const list = JSON.parse(readFileSync(REPOSITORIES_FILE, 'utf8')) as MeasuredRepositories;
  if (record) {
    // With --repo, only that repository's commit is recorded anew.
    list.repositories = list.repositories
      .map((r) => (repository === null || r.repository.toLowerCase() === repository.toLowerCase() ? { repository: r.repository, commit: git(gitDirOf(clones, r.repository), ['rev-parse', 'HEAD^{commit}']).trim() } : r))
      .sort((a, b) => a.repository.localeCompare(b.repository));
    writeFileSync(REPOSITORIES_FILE, `${JSON.stringify(list, null, 2)}\n`);
  }
  const log = (line: string) => process.stdout.write(line);
  const snapshot = repository === null ? measuredSnapshot(list, clones, log) : measuredSnapshot(list, clones, log, { repository, base: readSnapshot() });
  writeFileSync(SNAPSHOT_FILE, snapshotText(snapshot));
  writeFileSync(PROVENANCE_MODULE, provenanceModule(snapshot));
  process.stdout.write(`wrote ${SNAPSHOT_FILE.pathname}: ${snapshot.rows.length} repository months, ${snapshot.provenance?.repositories.length} repositories\n`);
}
