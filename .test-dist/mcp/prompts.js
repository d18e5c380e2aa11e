import { completable } from "@modelcontextprotocol/sdk/server/completable.js";
import { z } from "zod";
import { Month } from "../shared/schemas.js";
function previousMonth(now) {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString().slice(0, 7);
}
const ask = (text) => ({ messages: [{ role: "user", content: { type: "text", text } }] });
function registerPrompts(server, { tenantId, service, log }, now) {
  const teamSlugs = async (typed) => {
    try {
      return (await service.dimensionValues(tenantId, "teams.slug", { ...typed ? { match: typed, prefix: true } : {}, limit: 100 })).values;
    } catch (error) {
      log?.error({ err: error }, "MCP completion failed");
      return [];
    }
  };
  const recentMonths = (typed) => Array.from({ length: 12 }, (_, i) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - i - 1, 1)).toISOString().slice(0, 7)).filter((m) => m.startsWith(typed ?? ""));
  const team = z.string().min(1).max(100).describe("The team's slug");
  const month = Month.describe("A month, YYYY-MM (default: the previous month)");
  const Team = completable(team, teamSlugs);
  const OptionalTeam = completable(team.optional(), teamSlugs);
  const OptionalMonth = completable(month.optional(), recentMonths);
  server.registerPrompt(
    "monthly_delivery_review",
    {
      title: "Monthly delivery review of a team",
      description: "Reviews one team's month: throughput, speed, stability (DORA) and AI adoption, against the team's previous months and the median of all teams, with n beside every median.",
      argsSchema: { team: Team, month: OptionalMonth }
    },
    ({ team: team2, month: month2 }) => {
      const m = month2 ?? previousMonth(now);
      return ask(
        [
          `Write the monthly delivery review of team "${team2}" for ${m} (a calendar month, UTC).`,
          `1. Call team_benchmark with team "${team2}", from three months before ${m}, to ${m}: the team's values beside the median of all enabled teams and the DORA 2023 bands.`,
          "2. Where a number moved, explain it with cube_query (for example deployments by deployments.status or environment, issues by issues.type), filtered on teams.slug.",
          "3. Report: throughput (PRs merged, issues closed, production deployments), speed (PR cycle time, lead time for changes), stability (change failure rate, failed deployment recovery time, time to restore) and AI adoption; for each, the month, the trend over the previous months, the org median and the DORA band where there is one.",
          'Give n beside every median and ratio, say "no data" for an empty value (never 0), and end with three questions worth asking the team.'
        ].join("\n")
      );
    }
  );
  server.registerPrompt(
    "change_failure_rate_rise",
    {
      title: "Where did change failure rate rise?",
      description: "Finds the teams and months where change failure rate rose, and what failed (statuses, rollbacks, incidents).",
      argsSchema: { from: OptionalMonth, to: OptionalMonth, team: OptionalTeam }
    },
    ({ from, to, team: team2 }) => {
      const last = to ?? previousMonth(now);
      const first = from ?? previousMonth(new Date(Date.UTC(Number(last.slice(0, 4)), Number(last.slice(5, 7)) - 5, 1)));
      const scope = team2 ? `team "${team2}"` : "every team";
      return ask(
        [
          `Find where change failure rate rose for ${scope} between ${first} and ${last} (calendar months, UTC).`,
          `1. cube_query: measures deployments.change_failure_rate, deployments.failed_production_deploys and deployments.finished_production_deploys, dimension teams.slug, time dimension deployments.created_at by month with dateRange ["${first}-01", the last day of ${last}]${team2 ? `, filter teams.slug equals "${team2}"` : ""}.`,
          "2. List the team-months where the rate rose against the month before, with failed \xF7 finished (the n). A rise on a handful of deployments is noise: say so.",
          "3. For those, break the failures down: deployments.status, deployments.rolled_back and incidents.incidents_opened by incidents.caused_by_deployment_id, and the projects involved (projects.project_key).",
          "4. Compare with team_benchmark (org median and DORA band) and say which rises stand out."
        ].join("\n")
      );
    }
  );
}
export {
  previousMonth,
  registerPrompts
};
