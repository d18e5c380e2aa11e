/**
 * One repository month of the corpus from the facts read for it, computed as the cubes define the
 * matching team measures (docs/benchmarks.md "Measures"). The facts (titles, logins) live only in
 * this function's arguments: the row it returns holds counts and ratios, nothing else.
 */
import { createHash } from 'node:crypto';

export interface PullFact {
  createdAt: string;
  mergedAt: string;
  title: string;
  /** The branch it was merged into; absent in recordings made before issue 46. */
  baseRefName?: string;
  author: { __typename: string; login: string } | null;
  labels: string[];
}

export interface ReleaseFact {
  /** The release's tag (X.Y.Z gives its series and patch); absent in recordings made before issue 46. */
  tagName?: string;
  publishedAt: string | null;
  createdAt: string;
  isDraft: boolean;
  isPrerelease: boolean;
}

export interface CorpusRow {
  repositoryKey: string;
  /** YYYY-MM-01 */
  month: string;
  prsMerged: number;
  activeAuthors: number;
  prCycleTimeP50Seconds: number | null;
  prsMergedPerActiveAuthor: number | null;
  releases: number;
  revertOrHotfixPrs: number;
  changeFailureProxy: number | null;
}

/** The opaque key a repository is stored under: no owner or repository name reaches the table. */
export function repositoryKey(nameWithOwner: string): string {
  return createHash('sha256').update(nameWithOwner.toLowerCase()).digest('hex').slice(0, 16);
}

/** Apps (`Bot`) and the usual bot accounts (`…[bot]`, `…-bot`, `…bot` service users). */
export function isBot(author: PullFact['author']): boolean {
  if (!author) return false;
  return author.__typename === 'Bot' || /\[bot\]$|[-_]bot$|^bot[-_]/i.test(author.login);
}

/** A revert (GitHub's revert button titles it `Revert "…"`) or a hotfix by label. */
export function isRevertOrHotfix(pull: PullFact): boolean {
  return isRevertPull(pull) || pull.labels.some((l) => /hotfix/i.test(l));
}

/** A revert: GitHub's revert button titles it `Revert "…"`. */
export function isRevertPull(pull: PullFact): boolean {
  return /^revert\b/i.test(pull.title.trim());
}

/**
 * The change failure proxy (docs/benchmarks-corpus.md "Change failure per release"), one definition for
 * both measuring paths: a release R **failed** when, within this many days after it (later than R,
 * at most 7 × 24 h), a patch release of the same series (package and major.minor, higher patch) is
 * published, or a revert lands on the default branch. A repository month's value is the share of
 * its releases (by R's month) that failed; a month without a release has none.
 */
export const FAILED_RELEASE_DAYS = 7;

export interface DatedRelease {
  /** When it was published (epoch ms). */
  at: number;
  /** Its package and major.minor (`svelte@|5.1`), null when its tag is no X.Y.Z version: no patch release can follow it. */
  series: string | null;
  patch: number | null;
}

/** A tag's series and patch: X.Y.Z at the end, after an optional prefix (the package) and `v`; no pre-release or build suffix. */
export function releaseVersion(tag: string | undefined): Pick<DatedRelease, 'series' | 'patch'> {
  // Read from the end by scanning, not by a backtracking pattern (a tag is the code host's text).
  const none = { series: null, patch: null };
  const parts = (tag ?? '').split('.');
  if (parts.length < 3) return none;
  const [minor, patch] = parts.slice(-2) as [string, string];
  const head = parts.slice(0, -2).join('.');
  const digits = (s: string) => s !== '' && [...s].every((c) => c >= '0' && c <= '9');
  let start = head.length;
  while (start > 0 && digits(head[start - 1] as string)) start -= 1;
  const major = head.slice(start);
  if (!digits(major) || !digits(minor) || !digits(patch)) return none;
  const prefix = /[vV]$/.test(head.slice(0, start)) ? head.slice(0, start - 1) : head.slice(0, start);
  return { series: `${prefix.toLowerCase()}|${Number(major)}.${Number(minor)}`, patch: Number(patch) };
}

/** Whether each release failed: a patch release of its series or a revert (epoch ms) within FAILED_RELEASE_DAYS after it. */
export function failedReleases(releases: readonly DatedRelease[], reverts: readonly number[]): boolean[] {
  const within = (r: DatedRelease, at: number) => at > r.at && at - r.at <= FAILED_RELEASE_DAYS * 86_400_000;
  return releases.map(
    (r) =>
      reverts.some((at) => within(r, at)) ||
      (r.series !== null && releases.some((p) => p.series === r.series && p.patch !== null && r.patch !== null && p.patch > r.patch && within(r, p.at))),
  );
}

/** The change failure proxy of each month (YYYY-MM-01) with a release: failed releases ÷ releases of the month. */
export function changeFailureByMonth(releases: readonly DatedRelease[], reverts: readonly number[]): Map<string, number> {
  const failed = failedReleases(releases, reverts);
  const counts = new Map<string, [number, number]>();
  releases.forEach((r, i) => {
    const month = monthOf(new Date(r.at).toISOString());
    const [n, f] = counts.get(month) ?? [0, 0];
    counts.set(month, [n + 1, f + (failed[i] ? 1 : 0)]);
  });
  return new Map([...counts].map(([month, [n, f]]) => [month, f / n]));
}


/** PostgreSQL's percentile_cont(0.5): the middle value, or the mean of the two middle ones. */
export function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

export const monthOf = (iso: string) => `${iso.slice(0, 7)}-01`;

/** The releases that count (drafts and pre-releases left out), dated by publication, with their version. */
export function datedReleases(releases: ReleaseFact[]): DatedRelease[] {
  return releases.flatMap((r) => (r.isDraft || r.isPrerelease || !r.publishedAt ? [] : [{ at: Date.parse(r.publishedAt), ...releaseVersion(r.tagName) }]));
}

/**
 * The month's aggregates of one repository: bots' PRs are left out of every measure. The change
 * failure proxy is the month's share of failed releases (`changeFailure`, from changeFailureByMonth
 * once the reverts after the month are known too); null without a release.
 */
export function monthRow(key: string, month: string, pulls: PullFact[], releases: number, changeFailure: number | null): CorpusRow {
  const human = pulls.filter((p) => !isBot(p.author) && monthOf(new Date(p.mergedAt).toISOString()) === month);
  const authors = new Set(human.flatMap((p) => (p.author ? [p.author.login.toLowerCase()] : [])));
  const reverts = human.filter(isRevertOrHotfix).length;
  const prsMerged = human.length;
  return {
    repositoryKey: key,
    month,
    prsMerged,
    activeAuthors: authors.size,
    prCycleTimeP50Seconds: median(human.map((p) => (Date.parse(p.mergedAt) - Date.parse(p.createdAt)) / 1000)),
    prsMergedPerActiveAuthor: authors.size === 0 ? null : prsMerged / authors.size,
    releases,
    revertOrHotfixPrs: reverts,
    changeFailureProxy: releases === 0 ? null : changeFailure,
  };
}
