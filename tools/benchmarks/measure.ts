/**
 * Writes corpus/snapshot.json measured from the public git history of the repositories listed in
 * corpus/measured-repositories.json, each read at its recorded commit, over the window recorded
 * there (docs/benchmarks.md "Measured from git history"). Offline: it reads local clones with git.
 *
 *   npm run corpus:measure -- --clones <dir>            measure; same clones, same bytes
 *   npm run corpus:measure -- --clones <dir> --record   first record each clone's HEAD as the commit read
 *
 * A clone of owner/name is looked for at <dir>/owner+name/repo, <dir>/owner+name, <dir>/owner/name.git
 * or <dir>/owner/name (bare or not). A repository whose clone lacks the recorded commit stops the run.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SNAPSHOT_FILE, type Snapshot, type StoredRow } from '../../src/benchmarks/store.js';
import { CRITERIA } from '../../src/benchmarks/sample.js';
import { git, measureRepository } from './gitHistory.js';

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
    'by tools/benchmarks/measure.ts (docs/benchmarks.md "Measured from git history"). Every measure is a proxy: git holds no deployment and no incident. ' +
    'A deployment with CODEHOST_PUBLIC_TOKEN re-measures the corpus from the code host (the first completed run of benchmarks.corpus replaces this one). Aggregates per repository and month only.'
  );
}

export function measuredSnapshot(list: MeasuredRepositories, clones: string, log: (line: string) => void = () => {}): Snapshot {
  const rows: StoredRow[] = [];
  const repositories: MeasuredRepositories['repositories'] = [];
  const leftOut: NonNullable<Snapshot['provenance']>['leftOut'] = [];
  for (const { repository, commit } of [...list.repositories].sort((a, b) => a.repository.localeCompare(b.repository))) {
    const dir = gitDirOf(clones, repository);
    git(dir, ['cat-file', '-e', `${commit}^{commit}`]);
    const measured = measureRepository(dir, repository, commit, list.windowFrom, list.windowTo);
    // The change failure proxy has a value exactly in the months with a change by a person.
    const activeMonths = measured.filter((r) => r.change_failure_proxy !== null).length;
    const reason = leftOutReason(measured, activeMonths);
    log(`${repository}: ${activeMonths} active months${reason ? ` (left out: ${reason})` : ''}, ${measured.reduce((n, r) => n + Number(r.prs_merged), 0)} PRs, ${measured.reduce((n, r) => n + Number(r.releases), 0)} releases\n`);
    if (reason) {
      leftOut.push({ repository, commit, activeMonths, reason });
      continue;
    }
    repositories.push({ repository, commit });
    rows.push(...measured);
  }
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

const args = process.argv.slice(2);
if (process.argv[1] && new URL(`file://${process.argv[1]}`).pathname.endsWith('tools/benchmarks/measure.ts')) {
  const at = args.indexOf('--clones');
  const clones = at >= 0 ? args[at + 1] : undefined;
  if (!clones) throw new Error('usage: npm run corpus:measure -- --clones <dir> [--record]');
  const list = JSON.parse(readFileSync(REPOSITORIES_FILE, 'utf8')) as MeasuredRepositories;
  if (args.includes('--record')) {
    list.repositories = list.repositories
      .map(({ repository }) => ({ repository, commit: git(gitDirOf(clones, repository), ['rev-parse', 'HEAD^{commit}']).trim() }))
      .sort((a, b) => a.repository.localeCompare(b.repository));
    writeFileSync(REPOSITORIES_FILE, `${JSON.stringify(list, null, 2)}\n`);
  }
  const snapshot = measuredSnapshot(list, clones, (line) => process.stdout.write(line));
  writeFileSync(SNAPSHOT_FILE, snapshotText(snapshot));
  writeFileSync(PROVENANCE_MODULE, provenanceModule(snapshot));
  process.stdout.write(`wrote ${SNAPSHOT_FILE.pathname}: ${snapshot.rows.length} repository months, ${snapshot.provenance?.repositories.length} repositories\n`);
}
