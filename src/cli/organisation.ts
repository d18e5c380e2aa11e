/**
 * Offline equivalents of the organisation endpoints. They call the same services as the routes;
 * the export writes exactly the endpoint's bytes (no trailing newline is added).
 */
import { readFile, writeFile } from 'node:fs/promises';
import type { Db } from '../db/client.js';
import { AppError } from '../errors.js';
import type { presentImport } from '../organisation/presenters.js';
import { systemActor, type Actor } from '../auth/principal.js';
import { requireOption, UsageError, type Options } from './args.js';
import type { Command } from './commands.js';
import { withDatabase } from './commands.js';
import { exportOverHttp, wantsRemote } from './remoteExport.js';
import { isUuid, PROJECT_KEY } from '../shared/schemas.js';

const print = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`);

function tenantOption(options: Options): string {
  const tenantId = requireOption(options, 'tenant');
  if (!isUuid(tenantId)) throw new UsageError('--tenant must be a tenant id (UUID)');
  return tenantId;
}

// The services are imported when a command runs, not with the command table: `whoami` or an export
// with --url must not load the server's modules (seconds of start-up for every CLI call).
async function requireTenant(db: Db, tenantId: string): Promise<void> {
  const [{ eq }, { tenants }] = await Promise.all([import('drizzle-orm'), import('../db/schema/index.js')]);
  const [found] = await db.select({ id: tenants.id }).from(tenants).where(eq(tenants.id, tenantId));
  if (!found) throw new Error(`tenant ${tenantId} not found`);
}

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
        const { presentImport: present } = await import('../organisation/presenters.js');
        return reportingProblems(async () => {
          print(present(await importer(db, systemActor(tenantId, 'cli'), text)));
        });
      });
    },
  };
}

export const organisationCommands: Record<string, Command> = {
  'register:import': csvImportCommand('register:import', 'Import an organisation register CSV (all-or-nothing); prints the import record.', async (...args) => (await import('../organisation/registerImport.js')).importRegister(...args)),
  'seats:import': csvImportCommand('seats:import', 'Import an AI-seat CSV (all-or-nothing); prints the import record.', async (...args) => (await import('../organisation/seats.js')).importSeats(...args)),
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
        const { assignProject } = await import('../organisation/teams.js');
        print(await assignProject(db, systemActor(tenantId, 'cli'), project, team));
      });
    },
  },
  'export:team-roster': {
    summary: 'Write the team roster exactly as GET /api/exports/team-roster does.',
    usage: 'export:team-roster (--tenant=<id> | --url=<APP_URL>) [--as-of=YYYY-MM-DD] [--format=csv|json] [--out=<file>]',
    run: async (options, env) => {
      const { exportTeamRoster } = await import('../exports/teamRoster.js');
      const { RosterQuery } = await import('../exports/schemas.js');
      const remote = wantsRemote(options);
      const tenantId = remote ? '' : tenantOption(options);
      const flag = (name: string) => (typeof options[name] === 'string' ? (options[name] as string) : options[name] === true ? '' : undefined);
      const parsed = RosterQuery.safeParse({ asOf: flag('as-of'), format: flag('format') });
      if (!parsed.success) {
        const names: Record<string, string> = { asOf: '--as-of', format: '--format' };
        throw new UsageError(parsed.error.issues.map((i) => `${names[String(i.path[0])] ?? i.path.join('.')}: ${i.message}`).join('; '));
      }
      if (remote) return exportOverHttp(options, env, '/api/exports/team-roster', { asOf: flag('as-of'), format: flag('format') });
      return withDatabase(env, async ({ db }) => {
        await requireTenant(db, tenantId);
        const out = await exportTeamRoster(db, tenantId, parsed.data);
        if (typeof options.out === 'string' && options.out !== '') await writeFile(options.out, out.body);
        else await new Promise<void>((resolve, reject) => process.stdout.write(out.body, (e) => (e ? reject(e) : resolve())));
      });
    },
  },
};
