/**
 * Prompts for the questions analysts ask most: each one is a plan of tool calls in words, with its
 * arguments completed from the tenant's own teams.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { completable } from '@modelcontextprotocol/sdk/server/completable.js';
import type { GetPromptResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { ToolContext } from './toolKit.js';
import { Month } from '../shared/schemas.js';
import { closedMonth, currentMonth, monthIndex, monthOf } from '../shared/monthWindow.js';


const ask = (text: string): GetPromptResult => ({ messages: [{ role: 'user', content: { type: 'text', text } }] });

export function registerPrompts(server: McpServer, { tenantId, service, log }: ToolContext, now: Date): void {
  const teamSlugs = async (typed: string | undefined) => {
    try {
      return (await service.dimensionValues(tenantId, 'teams.slug', { ...(typed ? { match: typed, prefix: true } : {}), limit: 100 })).values;
    } catch (error) {
      log?.error({ err: error }, 'MCP completion failed');
      return [];
    }
  };
  const recentMonths = (typed: string | undefined) =>
    Array.from({ length: 12 }, (_, i) => monthOf(monthIndex(currentMonth(now)) - i - 1)).filter((m) => m.startsWith(typed ?? ''));
  // The SDK finds a completer only on the argument's own schema, so optional() goes inside.
  const team = z.string().min(1).max(100).describe('The team\'s slug');
  const month = Month.describe('A month, YYYY-MM (default: the previous month)');
  const Team = completable(team, teamSlugs);
  const OptionalTeam = completable(team.optional(), teamSlugs);
  const OptionalMonth = completable(month.optional(), recentMonths);

  server.registerPrompt(
    'monthly_delivery_review',
    {
      title: 'Monthly delivery review of a team',
      description: 'Reviews one team\'s month: throughput, speed, stability (DORA) and AI adoption, against the team\'s previous months and the median of all teams, with n beside every median.',
      argsSchema: { team: Team, month: OptionalMonth },
    },
    ({ team, month }) => {
      const m = month ?? closedMonth(now);
      return ask(
        [
          `Write the monthly delivery review of team "${team}" for ${m} (a calendar month, UTC).`,
          `1. Call team_benchmark with team "${team}", from three months before ${m}, to ${m}: the team's values beside the median of all enabled teams and the DORA 2023 bands.`,
          '2. Where a number moved, explain it with cube_query (for example deployments by deployments.status or environment, issues by issues.type), filtered on teams.slug.',
          '3. Report: throughput (PRs merged, issues closed, production deployments), speed (PR cycle time, lead time for changes), stability (change failure rate, failed deployment recovery time, time to restore) and AI adoption; for each, the month, the trend over the previous months, the org median and the DORA band where there is one.',
          'Give n beside every median and ratio, say "no data" for an empty value (never 0), and end with three questions worth asking the team.',
        ].join('\n'),
      );
    },
  );

  server.registerPrompt(
    'change_failure_rate_rise',
    {
      title: 'Where did change failure rate rise?',
      description: 'Finds the teams and months where change failure rate rose, and what failed (statuses, rollbacks, incidents).',
      argsSchema: { from: OptionalMonth, to: OptionalMonth, team: OptionalTeam },
    },
    ({ from, to, team }) => {
      const last = to ?? closedMonth(now);
      const first = from ?? monthOf(monthIndex(last) - 5);
      const scope = team ? `team "${team}"` : 'every team';
      return ask(
        [
          `Find where change failure rate rose for ${scope} between ${first} and ${last} (calendar months, UTC).`,
          `1. cube_query: measures deployments.change_failure_rate, deployments.failed_production_deploys and deployments.finished_production_deploys, dimension teams.slug, time dimension deployments.created_at by month with dateRange ["${first}-01", the last day of ${last}]${team ? `, filter teams.slug equals "${team}"` : ''}.`,
          '2. List the team-months where the rate rose against the month before, with failed ÷ finished (the n). A rise on a handful of deployments is noise: say so.',
          '3. For those, break the failures down: deployments.status, deployments.rolled_back and incidents.incidents_opened by incidents.caused_by_deployment_id, and the projects involved (projects.project_key).',
          '4. Compare with team_benchmark (org median and DORA band) and say which rises stand out.',
        ].join('\n'),
      );
    },
  );
}
