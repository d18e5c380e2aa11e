import type { Command } from '../cli/commands.js';
import { withDatabase } from '../cli/commands.js';
import { requireOption, UsageError } from '../cli/args.js';
import { systemActor } from '../auth/principal.js';

const print = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`);

/**
 * Operators link installations themselves when tenant owners should not claim them (the API trusts
 * an owner's claim of an installation id; see docs/activity.md).
 */
export const codehostCommands: Record<string, Command> = {
  'codehost:link': {
    summary: 'Link a code-host installation to a tenant; prints the installation.',
    usage: 'codehost:link --tenant=<id> --installation=<id>',
    run: (options, env) => {
      const tenantId = requireOption(options, 'tenant');
      if (!/^[0-9a-f-]{36}$/i.test(tenantId)) throw new UsageError('--tenant must be a tenant id (UUID)');
      const installation = requireOption(options, 'installation');
      if (!/^[1-9]\d{0,15}$/.test(installation)) throw new UsageError('--installation must be a positive whole number');
      return withDatabase(env, async ({ db, pool }) => {
        const [{ eq }, { tenants }, { claimInstallation }, { presentInstallation }] = await Promise.all([
          import('drizzle-orm'),
          import('../db/schema/index.js'),
          import('./installations.js'),
          import('./presenters.js'),
        ]);
        const [{ codehostInstallationBackfill }, { createJobQueue }] = await Promise.all([import('./backfill.js'), import('../jobs/index.js')]);
        const [tenant] = await db.select({ id: tenants.id }).from(tenants).where(eq(tenants.id, tenantId));
        if (!tenant) throw new Error(`no tenant ${tenantId}`);
        const { row, created } = await claimInstallation(db, systemActor(tenantId, 'cli'), Number(installation));
        // The worker reads the installation's repositories and their last 90 days of deployments (docs/codehost-deployments.md).
        // A queue that knows this one job: the whole catalog (jobCatalog.ts) would import every capability.
        if (created) await createJobQueue(pool, [codehostInstallationBackfill]).send(codehostInstallationBackfill, { tenantId, installationId: row.installationId });
        print(presentInstallation(row));
      });
    },
  },
};
