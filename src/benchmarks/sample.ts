/**
 * The sampled repositories (corpus/repositories.json, chosen by the criteria of
 * docs/benchmarks.md "Sample") and the criteria the workflow re-checks on every run.
 */
import { readFileSync } from 'node:fs';

export const REPOSITORIES_FILE = new URL('../../corpus/repositories.json', import.meta.url);

export const NAME_WITH_OWNER = /^[A-Za-z0-9][A-Za-z0-9-]{0,38}\/[A-Za-z0-9._-]{1,100}$/;

/** The checked-in list: `{"repositories": ["owner/name", …]}`. */
export function sampledRepositories(): string[] {
  const { repositories } = JSON.parse(readFileSync(REPOSITORIES_FILE, 'utf8')) as { repositories: string[] };
  return repositories;
}

export const CRITERIA = {
  /** Pushed to within this many days of the window's end: the repository is alive. */
  pushedWithinDays: 90,
  /** Merged human PRs over the 12 months, at least: enough to have monthly measures. */
  minMergedPrs: 24,
  /** Repository size (GitHub's diskUsage, KB), at most: no monorepos of whole companies. */
  maxDiskUsageKb: 2_000_000,
  /** Distinct human PR authors in any one month, at most: team-sized contributor groups. */
  maxMonthlyAuthors: 60,
} as const;

export interface RepositoryFacts {
  isPrivate: boolean;
  isArchived: boolean;
  isFork: boolean;
  isMirror: boolean;
  pushedAt: string | null;
  diskUsage: number | null;
  owner: { __typename: string };
}

/** Why a repository is left out before its facts are read, or null when it qualifies. */
export function exclusionBefore(repo: RepositoryFacts | null, windowEnd: Date): string | null {
  if (!repo) return 'not found';
  if (repo.isPrivate) return 'not public';
  if (repo.isArchived) return 'archived';
  if (repo.isFork || repo.isMirror) return 'a fork or mirror';
  // Organisation-owned only: a personal account's repository would tie the corpus to a person.
  if (repo.owner.__typename !== 'Organization') return 'not owned by an organisation';
  if (!repo.pushedAt || windowEnd.getTime() - Date.parse(repo.pushedAt) > CRITERIA.pushedWithinDays * 86_400_000) return 'inactive';
  if ((repo.diskUsage ?? 0) > CRITERIA.maxDiskUsageKb) return 'too large';
  return null;
}

/** Why a repository is left out once its months are computed, or null when it qualifies. */
export function exclusionAfter(months: { prsMerged: number; activeAuthors: number }[]): string | null {
  if (months.reduce((n, m) => n + m.prsMerged, 0) < CRITERIA.minMergedPrs) return 'too few merged pull requests';
  if (months.some((m) => m.activeAuthors > CRITERIA.maxMonthlyAuthors)) return 'more authors than a team';
  return null;
}
