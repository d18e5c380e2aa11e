/**
 * The open-source corpus measured from public git history (docs/benchmarks-corpus.md "Measured from git
 * history"): one repository's months read from a local clone with `git` (child_process, no
 * network), at a recorded commit. Every measure is a proxy: git holds no deployment and no
 * incident. The facts read here (names, e-mails, subjects) stay in this process: a row holds
 * counts, ratios and medians only.
 */
import { execFileSync } from 'node:child_process';
import { changeFailureByMonth, median, monthOf, repositoryKey } from '../../src/benchmarks/measures.js';
import type { StoredRow } from '../../src/benchmarks/store.js';

/**
 * A release tag of repository `name`: `X.Y.Z` or `vX.Y.Z`, optionally after the repository's own
 * name or `parent` (Maven) and `-`, `@` or `/` (`svelte@5.1.0`, `tokio-1.47.0`, `axum-v0.8.4`,
 * `parent-5.1.0`). No pre-release or build suffix; another package's tags (`axum-extra-v0.12.0`,
 * `@scope/pkg@1.0.0`) are left out, so a monorepo counts its main package's releases.
 */
export function releaseTag(name: string): RegExp {
  const own = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^(?:(?:${own}|parent)[-@/])?v?(\\d+)\\.(\\d+)\\.(\\d+)$`, 'i');
}
/** A patch release tagged within this many days of the release it patches counts as a fix of a release. */
export const FIX_RELEASE_DAYS = 7;
const MERGE_PR = /^Merge pull request #(\d+)\b/;
const SQUASH_PR = /\(#(\d+)\)$/;
const REVERT_SUBJECT = /^Revert "/;
const REVERTS_COMMIT = /This reverts commit [0-9a-f]{7,40}/;

export function git(gitDir: string, args: string[]): string {
  return execFileSync('git', ['--git-dir', gitDir, ...args], { encoding: 'utf8', maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Bot accounts by name or e-mail: `…[bot]`, `…-bot`, `bot-…`, GitHub's bot no-reply addresses. */
export function isBotIdentity(name: string, email: string): boolean {
  return /\[bot\]|[-_]bot$|^bot[-_]/i.test(name) || /\[bot\]@|^[^@]*[-_]bot@|^bot[-_][^@]*@/i.test(email);
}

export interface Change {
  sha: string;
  parents: string[];
  authorName: string;
  authorEmail: string;
  authorDate: string;
  committerDate: string;
  subject: string;
  body: string;
}

const FS = '\x1f';
const RS = '\x1e';

function parseLog(out: string): Change[] {
  return out
    .split(RS)
    .map((r) => r.replace(/^\n/, ''))
    .filter((r) => r.length > 0)
    .map((r) => {
      const [sha, parents, authorName, authorEmail, authorDate, committerDate, subject, body] = r.split(FS);
      return {
        sha: sha!, parents: parents ? parents.split(' ') : [], authorName: authorName!, authorEmail: authorEmail!.toLowerCase(),
        authorDate: authorDate!, committerDate: committerDate!, subject: subject!.trim(), body: (body ?? '').trim(),
      };
    });
}

const LOG_FORMAT = ['%H', '%P', '%an', '%ae', '%aI', '%cI', '%s', '%b'].join(FS) + RS;

/** The first-parent history of `commit` (the default branch as read), committed since `since`. */
export function firstParentChanges(gitDir: string, commit: string, since: string): Change[] {
  return parseLog(git(gitDir, ['log', '--first-parent', `--since=${since}`, `--format=${LOG_FORMAT}`, commit]));
}

export interface Release {
  name: string;
  /** The tagger date of an annotated tag, else the tagged commit's committer date. */
  date: string;
  major: number;
  minor: number;
  patch: number;
}

export function releaseTags(gitDir: string, name: string): Release[] {
  const pattern = releaseTag(name);
  const out = git(gitDir, ['for-each-ref', 'refs/tags', `--format=%(refname:short)${FS}%(taggerdate:iso-strict)${FS}%(*committerdate:iso-strict)${FS}%(committerdate:iso-strict)`]);
  const releases: Release[] = [];
  for (const line of out.split('\n')) {
    if (!line) continue;
    const [name, tagger, peeled, direct] = line.split(FS) as [string, string, string, string];
    const m = pattern.exec(name);
    const date = tagger || peeled || direct;
    if (!m || !date) continue;
    releases.push({ name, date: new Date(date).toISOString(), major: Number(m[1]), minor: Number(m[2]), patch: Number(m[3]) });
  }
  return releases.sort((x, y) => x.date.localeCompare(y.date) || x.name.localeCompare(y.name));
}

/** A patch release tagged within FIX_RELEASE_DAYS after the release it patches (same major.minor, patch − 1). */
export function isFixRelease(release: Release, all: Release[]): boolean {
  if (release.patch === 0) return false;
  const patched = all.find((r) => r.major === release.major && r.minor === release.minor && r.patch === release.patch - 1);
  if (!patched) return false;
  const days = (Date.parse(release.date) - Date.parse(patched.date)) / 86_400_000;
  return days >= 0 && days <= FIX_RELEASE_DAYS;
}

export interface MergedPr {
  number: number;
  mergedAt: string;
  authorName: string;
  authorEmail: string;
  /** First commit of the merged branch → merge, seconds; null for a squash merge (history does not hold it). */
  cycleSeconds: number | null;
}

/**
 * Whether `c` was authored before `a`, as instants: git prints author dates with the author's own
 * offset, so as text `…T09:00:00+00:00` sorts before `…T10:00:00+02:00` (08:00 UTC). Ties: by sha.
 */
function earlier(c: Change, a: Change): boolean {
  const [tc, ta] = [Date.parse(c.authorDate), Date.parse(a.authorDate)];
  return tc < ta || (tc === ta && c.sha < a.sha);
}

/** The pull request a first-parent change merged, if any: a merge commit "Merge pull request #N" or a squash commit ending "(#N)". */
export function mergedPr(gitDir: string, change: Change): MergedPr | null {
  const merge = MERGE_PR.exec(change.subject);
  if (merge && change.parents.length >= 2) {
    // The merged branch: commits reachable from the second parent and not the first.
    const branch = parseLog(git(gitDir, ['log', `--format=${LOG_FORMAT}`, `${change.parents[0]}..${change.parents[1]}`]));
    const first = branch.reduce<Change | null>((a, c) => (a === null || earlier(c, a) ? c : a), null);
    const opener = first ?? change;
    return {
      number: Number(merge[1]),
      mergedAt: change.committerDate,
      authorName: opener.authorName,
      authorEmail: opener.authorEmail,
      cycleSeconds: first ? Math.max(0, (Date.parse(change.committerDate) - Date.parse(first.authorDate)) / 1000) : null,
    };
  }
  const squash = SQUASH_PR.exec(change.subject);
  if (squash && change.parents.length === 1) {
    return { number: Number(squash[1]), mergedAt: change.committerDate, authorName: change.authorName, authorEmail: change.authorEmail, cycleSeconds: null };
  }
  return null;
}

/** A revert: subject `Revert "…"` (for a PR merge commit, the PR title on the body's first line) or a body saying "This reverts commit <sha>". */
export function isRevert(change: Change): boolean {
  const title = MERGE_PR.test(change.subject) ? (change.body.split('\n')[0] ?? '') : change.subject;
  return REVERT_SUBJECT.test(title.trim()) || REVERT_SUBJECT.test(change.subject) || REVERTS_COMMIT.test(change.body);
}

/**
 * Lead time for changes of each release in [from, to] (months YYYY-MM-01), DORA's with a release
 * tag standing for production: each commit (merges left out) counts once, at the first release
 * holding it, its committer date → that release's date in seconds (never below 0). A release's
 * commits are those its tag holds and no release before it holds; `releases` is in (date, name)
 * order, so of two releases of the same instant holding a commit the first by name has it.
 */
export function leadTimes(gitDir: string, releases: Release[], from: string, to: string): Map<string, number[]> {
  const byMonth = new Map<string, number[]>();
  releases.forEach((release, i) => {
    const month = monthOf(release.date);
    if (month < from || month > to) return;
    const earlier = releases.slice(0, i).map((r) => `refs/tags/${r.name}`);
    const out = git(gitDir, ['log', '--no-merges', '--format=%cI', `refs/tags/${release.name}`, ...(earlier.length ? ['--not', ...earlier] : [])]);
    const seconds = out.split('\n').filter(Boolean).map((d) => Math.max(0, (Date.parse(release.date) - Date.parse(d)) / 1000));
    byMonth.set(month, [...(byMonth.get(month) ?? []), ...seconds]);
  });
  return byMonth;
}

/** The months YYYY-MM-01 from `from` to `to`, both included. */
export function monthsBetween(from: string, to: string): string[] {
  const out: string[] = [];
  for (let d = new Date(`${from}T00:00:00Z`); d.toISOString().slice(0, 10) <= to; d.setUTCMonth(d.getUTCMonth() + 1)) out.push(d.toISOString().slice(0, 10));
  return out;
}

/** A repository month as stored (the columns of benchmark_corpus, lead_time_p50_seconds included). */
export function measureRepository(gitDir: string, nameWithOwner: string, commit: string, from: string, to: string): StoredRow[] {
  return measureRepositoryMonths(gitDir, nameWithOwner, commit, from, to).rows;
}

/**
 * The repository's months, and how many changes by a person each has (the activity rule of
 * tools/benchmarks/measure.ts). The change failure proxy is per release (src/benchmarks/measures.ts,
 * changeFailureByMonth): its reverts are the first-parent changes by a person that revert, when they
 * landed (committer date), up to the commit read, so a release late in the window's last month
 * sees the 7 days after it.
 */
export function measureRepositoryMonths(gitDir: string, nameWithOwner: string, commit: string, from: string, to: string): { rows: StoredRow[]; changes: number[] } {
  const months = monthsBetween(from, to);
  const since = new Date(Date.parse(`${from}T00:00:00Z`) - 31 * 86_400_000).toISOString();
  const history = firstParentChanges(gitDir, commit, since);
  const changes = history.filter((c) => months.includes(monthOf(new Date(c.committerDate).toISOString())));
  const releases = releaseTags(gitDir, nameWithOwner.split('/')[1] ?? nameWithOwner);
  const leads = leadTimes(gitDir, releases, from, to);
  const reverts = history.filter((c) => !isBotIdentity(c.authorName, c.authorEmail) && isRevert(c)).map((c) => Date.parse(c.committerDate));
  // releaseTag() takes the repository's own package only, so major.minor is the series.
  const failure = changeFailureByMonth(releases.map((r) => ({ at: Date.parse(r.date), series: `${r.major}.${r.minor}`, patch: r.patch })), reverts);
  const key = repositoryKey(nameWithOwner);
  const humanOf = (month: string) => changes.filter((c) => monthOf(new Date(c.committerDate).toISOString()) === month && !isBotIdentity(c.authorName, c.authorEmail));
  const rows = months.map((month) => {
    const human = humanOf(month);
    const prs = human.map((c) => mergedPr(gitDir, c)).filter((p): p is MergedPr => p !== null && !isBotIdentity(p.authorName, p.authorEmail));
    const authors = new Set(prs.map((p) => p.authorEmail));
    const monthReleases = releases.filter((r) => monthOf(r.date) === month);
    const failures = human.filter(isRevert).length + monthReleases.filter((r) => isFixRelease(r, releases)).length;
    const cycles = prs.flatMap((p) => (p.cycleSeconds === null ? [] : [p.cycleSeconds]));
    return {
      repository_key: key,
      month,
      prs_merged: prs.length,
      active_authors: authors.size,
      pr_cycle_time_p50_seconds: median(cycles),
      prs_merged_per_active_author: authors.size === 0 ? null : prs.length / authors.size,
      releases: monthReleases.length,
      revert_or_hotfix_prs: failures,
      change_failure_proxy: failure.get(month) ?? null,
      lead_time_p50_seconds: median(leads.get(month) ?? []),
    };
  });
  return { rows, changes: months.map((month) => humanOf(month).length) };
}
