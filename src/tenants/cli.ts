import type { Command } from '../cli/commands.js';
import { withDatabase } from '../cli/commands.js';
import { requireOption, UsageError } from '../cli/args.js';

const print = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`);

export const tenantCommands: Record<string, Command> = {
  'tenant:create': {
    summary: 'Create a tenant and its owner; prints {tenantId, userId, apiKey?}.',
    usage: 'tenant:create --name=<name> --owner-email=<email> [--api-key]',
    run: (options, env) =>
      withDatabase(env, async ({ db }) => {
        const { createTenant } = await import('./service.js');
        print(await createTenant(db, { name: requireOption(options, 'name'), ownerEmail: requireOption(options, 'owner-email'), apiKey: options['api-key'] === true }));
      }),
  },
  'user:add': {
    summary: 'Add an owner or member to a tenant; prints {tenantId, userId, apiKey?}.',
    usage: 'user:add --tenant=<id> --email=<email> --role=owner|member [--api-key]',
    run: (options, env) => {
      const role = requireOption(options, 'role');
      if (role !== 'owner' && role !== 'member') throw new UsageError('--role must be owner or member');
      const tenantId = requireOption(options, 'tenant');
      if (!/^[0-9a-f-]{36}$/i.test(tenantId)) throw new UsageError('--tenant must be a tenant id (UUID)');
      return withDatabase(env, async ({ db }) => {
        const { addUser } = await import('./service.js');
        print(await addUser(db, { tenantId, email: requireOption(options, 'email'), role, apiKey: options['api-key'] === true }));
      });
    },
  },
};
