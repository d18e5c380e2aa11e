/**
 * Writes the `bi` schema's views from the Cube models in schema/ (issue 21): one view per cube over
 * the relation the cube reads, its dimensions under the cube's names, and for every measure the
 * flag or value a BI tool aggregates to get the same number. Run once per migration that changes
 * the models: `npx tsx tools/bi/generate.ts > migrations/NNNN_bi_….sql` (migrations are not edited
 * after they land; test/bi/schema.test.ts fails when a model gains a member the views lack).
 */
import { biViews, renderBiViews } from '../../src/bi/views.js';

process.stdout.write(renderBiViews(biViews()));
