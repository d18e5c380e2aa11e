import { readFileSync } from "node:fs";
const REPOSITORIES_FILE = new URL("../../corpus/repositories.json", import.meta.url);
const NAME_WITH_OWNER = /^[A-Za-z0-9][A-Za-z0-9-]{0,38}\/[A-Za-z0-9._-]{1,100}$/;
function sampledRepositories() {
  const { repositories } = JSON.parse(readFileSync(REPOSITORIES_FILE, "utf8"));
  return repositories;
}
const CRITERIA = {
  /** Pushed to within this many days of the window's end: the repository is alive. */
  pushedWithinDays: 90,
  /** Merged human PRs over the 12 months, at least: enough to have monthly measures. */
  minMergedPrs: 24,
  /** Repository size (GitHub's diskUsage, KB), at most: no monorepos of whole companies. */
  maxDiskUsageKb: 2e6,
  /** Distinct human PR authors in any one month, at most: team-sized contributor groups. */
  maxMonthlyAuthors: 60
};
function exclusionBefore(repo, windowEnd) {
  if (!repo) return "not found";
  if (repo.isPrivate) return "not public";
  if (repo.isArchived) return "archived";
  if (repo.isFork || repo.isMirror) return "a fork or mirror";
  if (repo.owner.__typename !== "Organization") return "not owned by an organisation";
  if (!repo.pushedAt || windowEnd.getTime() - Date.parse(repo.pushedAt) > CRITERIA.pushedWithinDays * 864e5) return "inactive";
  if ((repo.diskUsage ?? 0) > CRITERIA.maxDiskUsageKb) return "too large";
  return null;
}
function exclusionAfter(months) {
  if (months.reduce((n, m) => n + m.prsMerged, 0) < CRITERIA.minMergedPrs) return "too few merged pull requests";
  if (months.some((m) => m.activeAuthors > CRITERIA.maxMonthlyAuthors)) return "more authors than a team";
  return null;
}
export {
  CRITERIA,
  NAME_WITH_OWNER,
  REPOSITORIES_FILE,
  exclusionAfter,
  exclusionBefore,
  sampledRepositories
};
