/** Offline equivalents of the organisation endpoints. They call the same services as the routes. */
import { readFile } from 'node:fs/promises';
import type { Db } from '../db/client.js';
import { AppError } from '../errors.js';
import type { presentImport } from './presenters.js';
import { systemActor, type Actor } from '../auth/principal.js';
import { requireOption, tenantOption, UsageError, type Options } from '../cli/args.js';
import type { Command } from '../cli/commands.js';
import { requireTenant, withDatabase } from '../cli/commands.js';
import { PROJECT_KEY } from '../shared/schemas.js';

const print = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`);

/** A rejected file: the summary, then one line per problem, then exit 1. */
async function reportingProblems(run: () => Promise<void>): Promise<number> {
  try {
    await run();
    return 0;
  } catch (error) {
    if (!(error instanceof AppError) || !error.details) throw error;
    process.stderr.write(`${error.message}\n${error.details.map((d) => `  ${d.path}: ${d.message}`).join('\n')}\n`);
    return 1;
  }
}

async function readInput(options: Options): Promise<string> {
  const file = requireOption(options, 'file');
  if (file === '-') {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  }
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    throw new Error(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
}

/** Both CSV imports: read the file, check the tenant, run the all-or-nothing import, print the record. */
function csvImportCommand(
  name: string,
  summary: string,
  importer: (db: Db, actor: Actor, text: string) => Promise<Parameters<typeof presentImport>[0]>,
): Command {
  return {
    summary,
    usage: `${name} --tenant=<id> --file=<path|->`,
    run: async (options, env) => {
      const tenantId = tenantOption(options);
      const text = await readInput(options);
      return withDatabase(env, async ({ db }) => {
        await requireTenant(db, tenantId);
        const { presentImport: present } = await import('./presenters.js');
        return reportingProblems(async () => {
          print(present(await importer(db, systemActor(tenantId, 'cli'), text)));
        });
      });
    },
  };
}

export const organisationCommands: Record<string, Command> = {
  'register:import': csvImportCommand('register:import', 'Import an organisation register CSV (all-or-nothing); prints the import record.', async (...args) => (await import('./registerImport.js')).importRegister(...args)),
  'seats:import': csvImportCommand('seats:import', 'Import an AI-seat CSV (all-or-nothing); prints the import record.', async (...args) => (await import('./seats.js')).importSeats(...args)),
  'project:assign': {
    summary: 'Make a team (by slug) the owner of a project, creating the project (provider manual) if needed.',
    usage: 'project:assign --tenant=<id> --project=<owner/repo> --team=<team_slug>',
    run: (options, env) => {
      const tenantId = tenantOption(options);
      const project = requireOption(options, 'project');
      if (!PROJECT_KEY.test(project)) throw new UsageError('--project must be <owner>/<repo>');
      const team = requireOption(options, 'team');
      return withDatabase(env, async ({ db }) => {
        await requireTenant(db, tenantId);
        const { assignProject } = await import('./teams.js');
        print(await assignProject(db, systemActor(tenantId, 'cli'), project, team));
      });
    },
  },
};
