/**
 * Prints the `bi` schema's views as `migrate` creates them from the Cube models in schema/ (issue
 * 21, src/bi/generated.ts): one view per cube over the relation the cube reads, its dimensions under
 * the cube's names, and for every measure the flag or value a BI tool aggregates to get the same
 * number; then `bi.team_month`, the team-baseline export's rows, from the SQL Cube's planner writes
 * for the export's queries. `migrate` recreates them itself when the models or a view file changed
 * (docs/sql-source.md "Generated views"), so no migration copies them any more; this prints them for
 * reading: `npx tsx tools/bi/generate.ts [--replace]` (`--replace` drops the existing views first).
 */
import { generatedBiViews } from '../../src/bi/generated.js';

const { schema, views, statements } = await generatedBiViews();
const drops = process.argv.includes('--replace') ? views.map((name) => `DROP VIEW IF EXISTS "${schema}"."${name}";\n--> statement-breakpoint\n`).join('') : '';
process.stdout.write(`${drops}${statements.join('\n--> statement-breakpoint\n')}\n`);
