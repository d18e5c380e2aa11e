import { daysIn } from "../cube/months.js";
import { cubeLoad } from "../cube/service.js";
import { AppError } from "../errors.js";
import { baselineRows, resolveWindow } from "../exports/baseline.js";
import { DORA_SOURCE, doraTier, isDoraMeasure } from "../shared/doraBands.js";
import { corpusSize, corpusSourceOf, distributionOf, EXAMPLE_CORPUS_LABEL, EXAMPLE_CORPUS_NOTE, measuredCorpusLabel, OSS_CORPUS_QUERY, OSS_LABEL, OSS_MEASURES, ossPercentile, teamValue } from "../shared/ossPercentile.js";
const PERCENTILE_DEFINITION = "Mid-rank percentile: among the N repository months of the open-source corpus with a value of the measure, W are worse than the team's value and E equal to it; percentile = 100 \xD7 (W + E/2) \xF7 N. Worse is higher for PR cycle time and the change failure proxy, lower for the others. 100: better than every repository month.";
const BASELINE_COLUMN = {
  "pull_requests.pr_cycle_time_p50_seconds": "pr_cycle_time_p50_seconds",
  "pull_requests.prs_merged": "prs_merged",
  "author_activity.active_authors": "active_authors",
  "deployments.production_deploys": "production_deploys",
  "deployments.change_failure_rate": "change_failure_rate"
};
const MEDIAN = {
  pr_cycle_time: "benchmarks.pr_cycle_time_p50_seconds_median",
  prs_per_author: "benchmarks.prs_merged_per_active_author_median",
  release_frequency: "benchmarks.releases_median",
  change_failure: "benchmarks.change_failure_proxy_median"
};
async function corpusDistributions(pool, tenantId) {
  const { data } = await cubeLoad(pool, { tenantId }, OSS_CORPUS_QUERY);
  return new Map(OSS_MEASURES.map((m) => [m.key, distributionOf(data, m.corpus)]));
}
async function corpusSummary(pool, tenantId) {
  const { data } = await cubeLoad(pool, { tenantId }, { measures: ["benchmarks.repositories", "benchmarks.repository_months", ...Object.values(MEDIAN)], dimensions: ["benchmarks.corpus_source"] });
  const row = data[0] ?? {};
  const kind = corpusSourceOf(row);
  const { rows } = await pool.query(`select generated_at, to_char(window_from, 'YYYY-MM') as "from", to_char(window_to, 'YYYY-MM') as "to" from benchmark_corpus_source where id = 1`);
  const source = rows[0];
  const number = (v) => typeof v === "number" ? v : null;
  return {
    summary: {
      source: kind,
      label: kind === "shipped_example" ? EXAMPLE_CORPUS_LABEL : kind === "measured" && source ? measuredCorpusLabel(number(row["benchmarks.repositories"]) ?? 0, source.generated_at.toISOString().slice(0, 10)) : null,
      note: kind === "shipped_example" ? EXAMPLE_CORPUS_NOTE : null,
      generated_at: source ? source.generated_at.toISOString() : null,
      window: source ? { from: source.from, to: source.to } : null,
      repositories: number(row["benchmarks.repositories"]) ?? 0,
      repository_months: number(row["benchmarks.repository_months"]) ?? 0
    },
    medians: Object.fromEntries(Object.entries(MEDIAN).map(([key, member]) => [key, number(row[member])]))
  };
}
async function teamOssBenchmark(pool, tenantId, teamSlug, window) {
  const resolved = resolveWindow(window);
  const rows = await baselineRows(pool, tenantId, resolved, teamSlug);
  const own = rows[0];
  if (!own) throw new AppError("not_found", `No enabled team with slug ${teamSlug} (list_dimension_values on teams.slug lists them)`);
  const [distributions, { summary, medians }] = await Promise.all([corpusDistributions(pool, tenantId), corpusSummary(pool, tenantId)]);
  const out = [];
  for (const r of rows) {
    const month = r.month;
    const members = Object.fromEntries(Object.entries(BASELINE_COLUMN).map(([member, column]) => [member, r[column]]));
    for (const m of OSS_MEASURES) {
      const value = teamValue(m, members);
      const distribution = distributions.get(m.key) ?? [];
      out.push({
        month,
        measure: m.key,
        title: m.title,
        team_value: value,
        oss_percentile: ossPercentile(value, distribution, m.lowerIsBetter),
        oss_repository_months: corpusSize(distribution),
        oss_median: medians[m.key] ?? null,
        lower_is_better: m.lowerIsBetter,
        dora_measure: m.dora,
        team_dora_band: m.dora && isDoraMeasure(m.dora) ? doraTier(m.dora, value, daysIn(month)) : null
      });
    }
  }
  return {
    team: { slug: teamSlug, name: own.team_name },
    window: resolved,
    label: OSS_LABEL,
    percentile_definition: PERCENTILE_DEFINITION,
    dora_source: DORA_SOURCE,
    corpus: summary,
    rows: out
  };
}
export {
  PERCENTILE_DEFINITION,
  corpusDistributions,
  teamOssBenchmark
};
