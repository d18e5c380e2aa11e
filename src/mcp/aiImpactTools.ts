/** compare_ai_assisted: "AI against not" for a team or the organisation (docs/ai-impact.md). */
import { z } from 'zod';
import { guarded, type ToolContext, type ToolRegistry } from './toolKit.js';

const Month = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'YYYY-MM');
const Side = z.object({ value: z.number().nullable(), n: z.number().int() });
const Difference = z.union([
  z.object({ status: z.literal('ok'), value: z.number(), low: z.number(), high: z.number(), level: z.number(), method: z.enum(['bootstrap', 'normal']), intervalSample: z.number().int().optional() }),
  z.object({ status: z.literal('not_enough_data'), minimum: z.number().int() }),
]);
const Measure = z.object({
  key: z.string(), title: z.string(), kind: z.enum(['median', 'share']), unit: z.enum(['seconds', 'lines', 'ratio']),
  measure: z.string().nullable(), counts: z.object({ n: z.string(), successes: z.string().nullable() }), drill: z.string(), drillSplits: z.boolean(),
  cube: z.enum(['pull_requests', 'change_lead_times']),
  difference: Difference, sides: z.record(z.string(), Side),
  levels: z.object({ high: Side, medium: Side, low: Side, none: Side }).optional(),
});
const Window = z.object({ from: z.string(), to: z.string() });

const tools = {
  compare_ai_assisted: {
    title: 'Compare AI-assisted pull requests with the others',
    description: 'Answers "what does AI-assisted coding change for this team?": for a team (or the organisation) and a window of months, PR cycle time and its four phases (coding, pickup, review, deploy; medians in seconds), PR size (median lines), the share merged without review, the share reverted within 30 days and the change failure rate of the deployments that shipped the PRs (n = those deployments), each over the merged AI-assisted PRs (attribution level high or medium: sides.ai) and the others (low or none: sides.other) with both n, and for each attribution level (levels.high, .medium, .low, .none: value and n, no interval), and the difference ai − other with its 90 % interval (bootstrap for medians, normal for shares); under 20 PRs on either side the difference is not_enough_data; a median\'s difference over a side of more than 2,000 merged PRs has its interval bootstrapped on a random 2,000-PR sample of that side, scaled to the full n (difference.intervalSample says so), its value still the cube\'s. For a team also before/after: its adoption month (the first month with AI active users ÷ register headcount ≥ 0.5) and the same measures over equal windows before and after it (sides.after, sides.before; difference after − before). Values are the cube\'s (the same as cube_query on the measure\'s `cube` filtered by its ai_attribution); `drill` names the measure whose list_facts rows a value comes from. Never ranks people.',
    inputSchema: z.strictObject({
      team: z.string().min(1).max(200).optional().describe('A team slug or id; the organisation when absent'),
      from: Month.optional().describe('First month, YYYY-MM (default: twelve months before to)'),
      to: Month.optional().describe('Last month, YYYY-MM (default: the current month, UTC)'),
    }),
    outputSchema: z.object({
      team: z.object({ id: z.string(), slug: z.string(), name: z.string() }).nullable(),
      window: Window,
      split: z.object({ member: z.string(), ai: z.array(z.string()), other: z.array(z.string()), levels: z.array(z.enum(['high', 'medium', 'low', 'none'])) }),
      measures: z.array(Measure),
      beforeAfter: z.object({ status: z.enum(['organisation', 'no_adoption_month', 'ok']) }).passthrough(),
    }),
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
};

export function registerAiImpactTools(server: ToolRegistry, { tenantId, service, log }: ToolContext): void {
  server.registerTool('compare_ai_assisted', tools.compare_ai_assisted, (input) =>
    guarded(async () => (await service.aiImpact(tenantId, { team: input.team, from: input.from, to: input.to })) as unknown as Record<string, unknown>, log));
}
