/**
 * The `bi` views as `migrate` creates them (docs/sql-source.md "Generated views"): one per tenant
 * cube (views.ts) and `bi.team_month` (teamMonth.ts), from the models this release ships. Handed to
 * src/db/migrations.ts by the composition root (src/jobCatalog.ts); tools/bi/generate.ts prints the
 * same statements.
 */
import type { GeneratedViews } from '../db/sqlSource.js';
import { loadCube } from '../cube/compiler.js';
import { renderTeamMonth } from './teamMonth.js';
import { biViews, biViewStatements } from './views.js';

export const BI_SCHEMA = 'bi';

export async function generatedBiViews(): Promise<GeneratedViews> {
  const views = biViews();
  return {
    schema: BI_SCHEMA,
    views: [...views.map((v) => v.cube), 'team_month'],
    statements: [...biViewStatements(views), ...renderTeamMonth(await loadCube())],
  };
}
