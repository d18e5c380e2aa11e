import { createHash } from "node:crypto";
function repositoryKey(nameWithOwner) {
  return createHash("sha256").update(nameWithOwner.toLowerCase()).digest("hex").slice(0, 16);
}
function isBot(author) {
  if (!author) return false;
  return author.__typename === "Bot" || /\[bot\]$|[-_]bot$|^bot[-_]/i.test(author.login);
}
function isRevertOrHotfix(pull) {
  return /^revert\b/i.test(pull.title.trim()) || pull.labels.some((l) => /hotfix/i.test(l));
}
function median(values) {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}
const monthOf = (iso) => `${iso.slice(0, 7)}-01`;
function releasesByMonth(releases) {
  const out = {};
  for (const r of releases) {
    if (r.isDraft || r.isPrerelease || !r.publishedAt) continue;
    const month = monthOf(new Date(r.publishedAt).toISOString());
    out[month] = (out[month] ?? 0) + 1;
  }
  return out;
}
function monthRow(key, month, pulls, releases) {
  const human = pulls.filter((p) => !isBot(p.author) && monthOf(new Date(p.mergedAt).toISOString()) === month);
  const authors = new Set(human.flatMap((p) => p.author ? [p.author.login.toLowerCase()] : []));
  const reverts = human.filter(isRevertOrHotfix).length;
  const prsMerged = human.length;
  return {
    repositoryKey: key,
    month,
    prsMerged,
    activeAuthors: authors.size,
    prCycleTimeP50Seconds: median(human.map((p) => (Date.parse(p.mergedAt) - Date.parse(p.createdAt)) / 1e3)),
    prsMergedPerActiveAuthor: authors.size === 0 ? null : prsMerged / authors.size,
    releases,
    revertOrHotfixPrs: reverts,
    changeFailureProxy: prsMerged === 0 ? null : reverts / prsMerged
  };
}
export {
  isBot,
  isRevertOrHotfix,
  median,
  monthOf,
  monthRow,
  releasesByMonth,
  repositoryKey
};
