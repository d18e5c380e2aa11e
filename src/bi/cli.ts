import type { Command } from '../cli/commands.js';
import { withDatabase } from '../cli/commands.js';
import { requireOption, tenantOption, UsageError, type Options } from '../cli/args.js';
import { loadBiCommandConfig, type Env } from '../config/index.js';
import type { Pool } from 'pg';
import type { BiCredential } from './credentials.js';

const print = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`);

type BiCommandConfig = ReturnType<typeof loadBiCommandConfig>;

/**
 * What every bi: command does first: its tenant and credential name checked, the BI variables read,
 * then the database opened for `body` with the replica options the credential functions take.
 */
function onCredential(options: Options, env: Env, body: (pool: Pool, tenantId: string, name: string, config: BiCommandConfig) => Promise<unknown>): Promise<void> {
  const tenantId = tenantOption(options);
  const name = requireOption(options, 'name').trim();
  if (name.length < 1 || name.length > 100) throw new UsageError('--name must be 1 to 100 characters');
  const config = loadBiCommandConfig(env);
  return withDatabase(env, async ({ pool }) => {
    print(await body(pool, tenantId, name, config));
  });
}

const replica = (config: BiCommandConfig) => ({ replicaUrl: config.bi.databaseUrl, database: config.bi.database });

async function connection(config: BiCommandConfig, credential: BiCredential, password: string) {
  const { biEndpoint, presentBiConnection } = await import('./presenters.js');
  const c = presentBiConnection(biEndpoint(config.databaseUrl, config.bi), credential, password);
  return { name: c.name, user: c.user, password: c.password, host: c.host, port: c.port, database: c.database, url: c.url };
}

export const biCommands: Record<string, Command> = {
  'bi:grant': {
    summary: "Create a BI credential (a read-only PostgreSQL role on the BI database's tables of the tenant's rows); prints {name, user, password, host, port, database, url}.",
    usage: 'bi:grant --tenant=<id> --name=<name>',
    run: (options, env) =>
      onCredential(options, env, async (pool, tenantId, name, config) => {
        const { grantBiCredential } = await import('./credentials.js');
        const { credential, password } = await grantBiCredential(pool, { tenantId, name }, undefined, replica(config));
        return connection(config, credential, password);
      }),
  },
  'bi:rotate': {
    summary: "Give a BI credential a new password: the old one (or one its role set itself) stops working and the role's open sessions end; prints {name, user, password, host, port, database, url}.",
    usage: 'bi:rotate --tenant=<id> --name=<name>',
    run: (options, env) =>
      onCredential(options, env, async (pool, tenantId, name, config) => {
        const { rotateBiCredentialByName } = await import('./credentials.js');
        const { credential, password } = await rotateBiCredentialByName(pool, tenantId, name, replica(config));
        return connection(config, credential, password);
      }),
  },
  'bi:revoke': {
    summary: 'Drop a BI credential: its role goes and its open sessions end; prints {name, user, revoked: true}.',
    usage: 'bi:revoke --tenant=<id> --name=<name>',
    run: (options, env) =>
      onCredential(options, env, async (pool, tenantId, name, config) => {
        const { revokeBiCredentialByName } = await import('./credentials.js');
        const credential = await revokeBiCredentialByName(pool, tenantId, name, replica(config));
        return { name: credential.name, user: credential.user, revoked: true };
      }),
  },
};
