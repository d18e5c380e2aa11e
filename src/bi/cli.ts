import type { Command } from '../cli/commands.js';
import { withDatabase } from '../cli/commands.js';
import { requireOption, UsageError } from '../cli/args.js';
import { loadBiCommandConfig } from '../config/index.js';
import { isUuid } from '../shared/schemas.js';

const print = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`);

function tenantOption(options: Parameters<Command['run']>[0]): string {
  const tenantId = requireOption(options, 'tenant');
  if (!isUuid(tenantId)) throw new UsageError('--tenant must be a tenant id (UUID)');
  return tenantId;
}

function nameOption(options: Parameters<Command['run']>[0]): string {
  const name = requireOption(options, 'name').trim();
  if (name.length < 1 || name.length > 100) throw new UsageError('--name must be 1 to 100 characters');
  return name;
}

export const biCommands: Record<string, Command> = {
  'bi:grant': {
    summary: "Create a BI credential (a read-only PostgreSQL role on the BI database's tables of the tenant's rows); prints {name, user, password, host, port, database, url}.",
    usage: 'bi:grant --tenant=<id> --name=<name>',
    run: (options, env) => {
      const tenantId = tenantOption(options);
      const name = nameOption(options);
      const config = loadBiCommandConfig(env);
      return withDatabase(env, async ({ pool }) => {
        const { grantBiCredential } = await import('./credentials.js');
        const { biEndpoint, presentBiConnection } = await import('./presenters.js');
        const { credential, password } = await grantBiCredential(pool, { tenantId, name }, undefined, { replicaUrl: config.bi.databaseUrl, database: config.bi.database });
        const c = presentBiConnection(biEndpoint(config.databaseUrl, config.bi), credential, password);
        print({ name: c.name, user: c.user, password: c.password, host: c.host, port: c.port, database: c.database, url: c.url });
      });
    },
  },
  'bi:rotate': {
    summary: "Give a BI credential a new password: the old one (or one its role set itself) stops working and the role's open sessions end; prints {name, user, password, host, port, database, url}.",
    usage: 'bi:rotate --tenant=<id> --name=<name>',
    run: (options, env) => {
      const tenantId = tenantOption(options);
      const name = nameOption(options);
      const config = loadBiCommandConfig(env);
      return withDatabase(env, async ({ pool }) => {
        const { rotateBiCredentialByName } = await import('./credentials.js');
        const { biEndpoint, presentBiConnection } = await import('./presenters.js');
        const { credential, password } = await rotateBiCredentialByName(pool, tenantId, name, { replicaUrl: config.bi.databaseUrl, database: config.bi.database });
        const c = presentBiConnection(biEndpoint(config.databaseUrl, config.bi), credential, password);
        print({ name: c.name, user: c.user, password: c.password, host: c.host, port: c.port, database: c.database, url: c.url });
      });
    },
  },
  'bi:revoke': {
    summary: 'Drop a BI credential: its role goes and its open sessions end; prints {name, user, revoked: true}.',
    usage: 'bi:revoke --tenant=<id> --name=<name>',
    run: (options, env) => {
      const tenantId = tenantOption(options);
      const name = nameOption(options);
      const { bi } = loadBiCommandConfig(env);
      return withDatabase(env, async ({ pool }) => {
        const { revokeBiCredentialByName } = await import('./credentials.js');
        const credential = await revokeBiCredentialByName(pool, tenantId, name, { replicaUrl: bi.databaseUrl, database: bi.database });
        print({ name: credential.name, user: credential.user, revoked: true });
      });
    },
  },
};
