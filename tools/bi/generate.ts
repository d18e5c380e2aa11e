/**
 * Writes the `bi` schema's views from the Cube models in schema/ (issue 21): one view per cube over
 * the relation the cube reads, its dimensions under the cube's names, and for every measure the
 * flag or value a BI tool aggregates to get the same number; then `bi.team_month`, the
 * team-baseline export's rows, from the SQL Cube's planner writes for the export's queries. Run once
 * per migration that changes the models: `npx tsx tools/bi/generate.ts [--replace] > migrations/NNNN_bi_….sql`
 * (`--replace` drops the existing views first). Migrations are not edited after they land;
 * test/bi/access.test.ts fails when a model gains a member the views lack.
 */
import { loadCube } from '../../src/cube/compiler.js';
import { renderTeamMonth } from '../../src/bi/teamMonth.js';
import { biViews, renderBiViews } from '../../src/bi/views.js';

const views = biViews();
const drops = process.argv.includes('--replace')
  ? [...views.map((v) => v.cube), 'team_month'].map((name) => `DROP VIEW IF EXISTS "bi"."${name}";\n--> statement-breakpoint\n`).join('')
  : '';
const teamMonth = renderTeamMonth(await loadCube()).join('\n--> statement-breakpoint\n');
process.stdout.write(`${drops}${renderBiViews(views)}--> statement-breakpoint\n${teamMonth}\n`);
