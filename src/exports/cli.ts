/**
 * Offline equivalents of GET /api/exports/team-roster and /api/exports/team-baseline: the same
 * services, the same bytes (no trailing newline is added).
 */
import { createWriteStream } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { flag, tenantOption, usageFromSchema, UsageError } from '../cli/args.js';
import type { Command } from '../cli/commands.js';
import { requireTenant, withDatabase } from '../cli/commands.js';
import { exportOverHttp, wantsRemote } from './remoteExport.js';

/** The exports' commands, in the order `help` lists them. */
export const exportCommands: Record<string, Command> = {
  'export:team-roster': {
    summary: 'Write the team roster exactly as GET /api/exports/team-roster does.',
    usage: 'export:team-roster (--tenant=<id> | --url=<APP_URL>) [--as-of=YYYY-MM-DD] [--format=csv|json] [--out=<file>]',
    run: async (options, env) => {
      const { exportTeamRoster } = await import('./teamRoster.js');
      const { RosterQuery } = await import('./schemas.js');
      const remote = wantsRemote(options);
      const tenantId = remote ? '' : tenantOption(options);
      const parsed = RosterQuery.safeParse({ asOf: flag(options, 'as-of'), format: flag(options, 'format') });
      if (!parsed.success) throw usageFromSchema(parsed.error, { asOf: '--as-of', format: '--format' });
      if (remote) return exportOverHttp(options, env, '/api/exports/team-roster', { asOf: flag(options, 'as-of'), format: flag(options, 'format') });
      return withDatabase(env, async ({ db }) => {
        await requireTenant(db, tenantId);
        const out = await exportTeamRoster(db, tenantId, parsed.data);
        if (typeof options.out === 'string' && options.out !== '') await writeFile(options.out, out.body);
        else await new Promise<void>((resolve, reject) => process.stdout.write(out.body, (e) => (e ? reject(e) : resolve())));
      });
    },
  },
  'export:team-baseline': {
    summary: 'Write the team baseline exactly as GET /api/exports/team-baseline does.',
    usage: 'export:team-baseline (--tenant=<id> | --url=<APP_URL>) [--from=YYYY-MM] [--to=YYYY-MM] [--format=csv|json] [--out=<file>] [--generated-at=<ISO 8601>]',
    run: async (options, env) => {
      const { exportTeamBaseline } = await import('./baseline.js');
      const { BaselineQuery } = await import('./schemas.js');
      const remote = wantsRemote(options);
      const tenantId = remote ? '' : tenantOption(options);
      const parsed = BaselineQuery.safeParse({ from: flag(options, 'from'), to: flag(options, 'to'), format: flag(options, 'format') });
      if (!parsed.success) throw usageFromSchema(parsed.error, { from: '--from', to: '--to', format: '--format' });
      const generatedAt = flag(options, 'generated-at');
      if (remote) {
        if (generatedAt !== undefined) throw new UsageError('--generated-at does not go with --url: the server stamps its own answer');
        return exportOverHttp(options, env, '/api/exports/team-baseline', { from: flag(options, 'from'), to: flag(options, 'to'), format: flag(options, 'format') });
      }
      if (generatedAt !== undefined && Number.isNaN(Date.parse(generatedAt))) throw new UsageError('--generated-at must be an ISO 8601 timestamp');
      return withDatabase(env, async ({ db, pool }) => {
        await requireTenant(db, tenantId);
        const out = await exportTeamBaseline(pool, tenantId, parsed.data, { generatedAt: generatedAt ? new Date(generatedAt).toISOString() : undefined });
        const source = typeof out.body === 'string' ? Readable.from([out.body]) : out.body;
        const out_ = flag(options, 'out');
        if (out_) await pipeline(source, createWriteStream(out_));
        else await pipeline(source, process.stdout, { end: false });
      });
    },
  },
};
