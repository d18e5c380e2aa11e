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
  author: { __typename: string; login: string } | null;
  labels: string[];
}

export interface ReleaseFact {
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
  return /^revert\b/i.test(pull.title.trim()) || pull.labels.some((l) => /hotfix/i.test(l));
}


/** PostgreSQL's percentile_cont(0.5): the middle value, or the mean of the two middle ones. */
export function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] as number) : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

export const monthOf = (iso: string) => `${iso.slice(0, 7)}-01`;

/** Releases published in each month (drafts and pre-releases left out), keyed YYYY-MM-01. */
export function releasesByMonth(releases: ReleaseFact[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of releases) {
    if (r.isDraft || r.isPrerelease || !r.publishedAt) continue;
    const month = monthOf(new Date(r.publishedAt).toISOString());
    out[month] = (out[month] ?? 0) + 1;
  }
  return out;
}

/** The month's aggregates of one repository: bots' PRs are left out of every measure. */
export function monthRow(key: string, month: string, pulls: PullFact[], releases: number): CorpusRow {
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
    changeFailureProxy: prsMerged === 0 ? null : reverts / prsMerged,
  };
}
