/**
 * The server's `instructions`: what an assistant must know before its first call (today's date,
 * how months, medians and n work, the order of the tools). Written per request: the date moves.
 */
export function serverInstructions(now: Date): string {
  const today = now.toISOString().slice(0, 10);
  const month = today.slice(0, 7);
  return [
    `Delivery analytics of one organisation: issues, pull requests, commits, deployments, incidents, AI coding sessions and seats, surveys, teams and people. Today is ${today} (UTC); the current month ${month} is not over, so its counts are partial.`,
    'Find names step by step, never guess them: list_measures (search words) → list_dimensions (for a measure) → list_dimension_values (e.g. teams.slug, deployments.environment) → cube_query. cube_sql shows how a number is computed.',
    'Months are calendar months in UTC. A fact counts in the month of its measure\'s time dimension (list_measures gives it: a deployment in the month it was created, an issue or incident in the month it closed, a PR in the month it merged). "Last month" is the previous calendar month, not the last 30 days.',
    'Medians (…_p50_seconds) are percentile_cont(0.5) over the facts of the period, in seconds. Each median and ratio has an n measure (list_measures: n): ask for it in the same query and report it beside the value; a median over a handful of facts is weak evidence. Medians cannot be averaged or added across months or teams: query the longer period or the whole organisation instead.',
    'Ratios (change_failure_rate, shares, rates) are 0–1. null means no denominator (nothing to measure), never zero. A team without any deployment source has no change failure rate at all.',
    'Attribution: facts of a repository count for the team owning the project; facts of a person (AI sessions, seats, survey answers) count for every enabled team the person is on.',
    'Comparisons: team_benchmark puts a team beside the median of all enabled teams (the org benchmark) and the DORA 2023 bands, month by month; team_baseline is the monthly export of every team.',
    'team_open_source_benchmark gives a team\'s percentile among open-source repositories for PR cycle time, PRs per author, release frequency, lead time for changes and change failure: an open-source proxy, say so when you cite it.',
    'Which ones, and why: list_facts lists the deployments, pull requests, changes, issues, incidents, AI sessions, AI users or seat holders (by id) behind a measure, or a survey measure\'s counts per team and month (never a response) for a window and team (the measure\'s n, a rate\'s numerator marked, each failed deployment with the rule that made it fail), 50 a page.',
    'What AI changes: compare_ai_assisted gives a team\'s (or the organisation\'s) PR cycle time, its phases, PR size, merged without review and reverted shares for AI-assisted PRs against the others, with both n and the difference\'s 90 % interval (not_enough_data under 20 PRs a side), and before/after the team\'s adoption month. Cite n and the interval; an interval that spans 0 is no evidence of a difference.',
    'Resources: analytics://definitions/metrics (every measure\'s definition), analytics://models/<cube> (the data models), analytics://benchmarks/dora-2023 (the bands). Prompts: monthly_delivery_review, change_failure_rate_rise.',
  ].join('\n\n');
}
