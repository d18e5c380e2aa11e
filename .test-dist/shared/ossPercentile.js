const OSS_LABEL = "open-source proxy";
const CORPUS_SOURCES = ["shipped_example", "measured"];
const EXAMPLE_CORPUS_LABEL = "example corpus (synthetic)";
const EXAMPLE_CORPUS_NOTE = "Example corpus shipped with the server (synthetic repositories): its percentiles are illustrative, not measured. Set CODEHOST_PUBLIC_TOKEN to measure real open-source repositories.";
function measuredCorpusLabel(repositories, readOn) {
  return `measured from the public history of ${repositories} ${repositories === 1 ? "repository" : "repositories"}, read on ${readOn}`;
}
function corpusLabelOf(row) {
  const source = corpusSourceOf(row);
  if (source === "shipped_example") return EXAMPLE_CORPUS_LABEL;
  const repositories = Number(row?.["benchmarks.corpus_repositories"]);
  const readOn = row?.["benchmarks.corpus_read_on"];
  return source === "measured" && Number.isFinite(repositories) && typeof readOn === "string" ? measuredCorpusLabel(repositories, readOn) : null;
}
function corpusSourceOf(row) {
  const value = row?.["benchmarks.corpus_source"];
  return CORPUS_SOURCES.includes(value) ? value : null;
}
const OSS_MEASURES = [
  { key: "pr_cycle_time", title: "PR cycle time p50", corpus: "benchmarks.pr_cycle_time_p50_seconds", team: { measure: "pull_requests.pr_cycle_time_p50_seconds" }, lowerIsBetter: true, dora: null, unit: "seconds" },
  {
    key: "prs_per_author",
    title: "PRs merged per active author",
    corpus: "benchmarks.prs_merged_per_active_author",
    team: { numerator: "pull_requests.prs_merged", denominator: "author_activity.active_authors" },
    lowerIsBetter: false,
    dora: null,
    unit: "ratio"
  },
  { key: "release_frequency", title: "Release frequency (production deployments a month)", corpus: "benchmarks.releases", team: { measure: "deployments.production_deploys" }, lowerIsBetter: false, dora: "deployments.production_deploys", unit: "count" },
  { key: "change_failure", title: "Change failure rate (revert or hotfix share)", corpus: "benchmarks.change_failure_proxy", team: { measure: "deployments.change_failure_rate" }, lowerIsBetter: true, dora: "deployments.change_failure_rate", unit: "ratio" }
];
const OSS_CORPUS_QUERY = {
  measures: ["benchmarks.repository_months"],
  dimensions: [...OSS_MEASURES.map((m) => m.corpus), "benchmarks.corpus_source", "benchmarks.corpus_repositories", "benchmarks.corpus_read_on"],
  limit: 5e4
};
function distributionOf(rows, dimension, countMeasure = "benchmarks.repository_months") {
  const out = [];
  for (const row of rows) {
    const value = row[dimension];
    const count = Number(row[countMeasure]);
    if (value === null || value === void 0 || value === "" || !Number.isFinite(Number(value)) || !(count > 0)) continue;
    out.push([Number(value), count]);
  }
  return out;
}
function corpusSize(distribution) {
  return distribution.reduce((n, [, count]) => n + count, 0);
}
function ossPercentile(value, distribution, lowerIsBetter) {
  if (value === null || !Number.isFinite(value)) return null;
  let total = 0;
  let worse = 0;
  let equal = 0;
  for (const [v, count] of distribution) {
    total += count;
    if (v === value) equal += count;
    else if (lowerIsBetter ? v > value : v < value) worse += count;
  }
  if (total === 0) return null;
  return 100 * (worse + equal / 2) / total;
}
function teamValue(measure, row) {
  const read = (key) => {
    const v = row?.[key];
    return v === null || v === void 0 || !Number.isFinite(Number(v)) ? null : Number(v);
  };
  if ("measure" in measure.team) return read(measure.team.measure);
  const numerator = read(measure.team.numerator);
  const denominator = read(measure.team.denominator);
  return numerator === null || denominator === null || denominator === 0 ? null : numerator / denominator;
}
function percentileText(percentile) {
  const n = Math.round(percentile);
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? "th" : n % 10 === 1 ? "st" : n % 10 === 2 ? "nd" : n % 10 === 3 ? "rd" : "th";
  return `${n}${suffix} percentile`;
}
export {
  CORPUS_SOURCES,
  EXAMPLE_CORPUS_LABEL,
  EXAMPLE_CORPUS_NOTE,
  OSS_CORPUS_QUERY,
  OSS_LABEL,
  OSS_MEASURES,
  corpusLabelOf,
  corpusSize,
  corpusSourceOf,
  distributionOf,
  measuredCorpusLabel,
  ossPercentile,
  percentileText,
  teamValue
};
