/** Offline equivalent of GET /api/exports/team-baseline: the same service, the same bytes. */
import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { requireOption, UsageError, type Options } from './args.js';
import type { Command } from './commands.js';
import { withDatabase } from './commands.js';
import { exportOverHttp, wantsRemote } from './remoteExport.js';
import { isUuid } from '../shared/schemas.js';


function flag(options: Options, name: string): string | undefined {
  const value = options[name];
  return typeof value === 'string' ? value : value === true ? '' : undefined;
}

export const baselineCommands: Record<string, Command> = {
  'export:team-baseline': {
    summary: 'Write the team baseline exactly as GET /api/exports/team-baseline does.',
    usage: 'export:team-baseline (--tenant=<id> | --url=<APP_URL>) [--from=YYYY-MM] [--to=YYYY-MM] [--format=csv|json] [--out=<file>] [--generated-at=<ISO 8601>]',
    run: async (options, env) => {
      const { exportTeamBaseline } = await import('../exports/baseline.js');
      const { BaselineQuery } = await import('../exports/schemas.js');
      const remote = wantsRemote(options);
      const tenantId = remote ? '' : requireOption(options, 'tenant');
      if (!remote && !isUuid(tenantId)) throw new UsageError('--tenant must be a tenant id (UUID)');
      const parsed = BaselineQuery.safeParse({ from: flag(options, 'from'), to: flag(options, 'to'), format: flag(options, 'format') });
      if (!parsed.success) {
        const names: Record<string, string> = { from: '--from', to: '--to', format: '--format' };
        throw new UsageError(parsed.error.issues.map((i) => `${names[String(i.path[0])] ?? i.path.join('.')}: ${i.message}`).join('; '));
      }
      const generatedAt = flag(options, 'generated-at');
      if (remote) {
        if (generatedAt !== undefined) throw new UsageError('--generated-at does not go with --url: the server stamps its own answer');
        return exportOverHttp(options, env, '/api/exports/team-baseline', { from: flag(options, 'from'), to: flag(options, 'to'), format: flag(options, 'format') });
      }
      if (generatedAt !== undefined && Number.isNaN(Date.parse(generatedAt))) throw new UsageError('--generated-at must be an ISO 8601 timestamp');
      return withDatabase(env, async ({ pool }) => {
        const found = await pool.query('select 1 from tenants where id = $1', [tenantId]);
        if (found.rowCount === 0) throw new Error(`tenant ${tenantId} not found`);
        const out = await exportTeamBaseline(pool, tenantId, parsed.data, { generatedAt: generatedAt ? new Date(generatedAt).toISOString() : undefined });
        const source = typeof out.body === 'string' ? Readable.from([out.body]) : out.body;
        const out_ = flag(options, 'out');
        if (out_) await pipeline(source, createWriteStream(out_));
        else await pipeline(source, process.stdout, { end: false });
      });
    },
  },
};
