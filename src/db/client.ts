import pg from 'pg';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import { drizzle, type NodePgQueryResultHKT } from 'drizzle-orm/node-postgres';
import type { PgDatabase } from 'drizzle-orm/pg-core';
import * as schema from './schema/index.js';
import { currentScope, type SystemReason, type TenantScope } from './tenancy.js';

/** The pool's database or a transaction on it: every domain function takes either. */
export type Db = PgDatabase<NodePgQueryResultHKT, typeof schema, ExtractTablesWithRelations<typeof schema>>;

export interface Database {
  pool: pg.Pool;
  db: Db;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  max?: number;
  /**
   * Connections kept open however long they idle (pg-pool closes idle ones above this after 10 s).
   * A new connection is a new PostgreSQL backend whose first statements load its caches and plan
   * (≈70 ms of CPU for the OTLP intake's): a server keeps its whole pool.
   */
  min?: number;
  applicationName?: string;
  /**
   * What a connection taken outside any `withTenant`/`asSystem` works as. Default: no tenant (it
   * sees no tenant rows), so forgetting the scope fails closed. A pool that exists only for work
   * spanning tenants (the job queue's own tables, test fixtures) names its reason here instead.
   */
  unscoped?: SystemReason;
}

// Timestamps and bigint counts come back as strings by default; counts beyond 2^53 do not occur here.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

const NO_TENANT = '';
const APPLIED = Symbol('tenant scope applied to this connection');
type ScopedClient = pg.PoolClient & { [APPLIED]?: string };

/** Role and tenant setting of a scope: tenant work as `app_tenant`, system work as the connecting user. */
function settingsOf(scope: TenantScope | undefined, unscoped: SystemReason | undefined): [role: string, tenant: string] {
  if (scope?.kind === 'tenant') return ['app_tenant', scope.tenantId];
  if (scope?.kind === 'system' || unscoped) return ['none', NO_TENANT];
  return ['app_tenant', NO_TENANT];
}

/**
 * A pool whose connections work as the tenant of the unit of work that takes them (row-level
 * security, docs/tenancy.md). The role and `app.tenant_id` are session settings, applied at
 * checkout only when they differ from what the connection last had, so a run of work for one
 * tenant pays nothing after the first query.
 */
class TenantPool extends pg.Pool {
  constructor(
    config: pg.PoolConfig,
    private readonly unscoped: SystemReason | undefined,
  ) {
    super(config);
  }

  override connect(): Promise<pg.PoolClient>;
  override connect(callback: (err: Error | undefined, client: pg.PoolClient | undefined, done: (release?: any) => void) => void): void;
  override connect(callback?: (err: Error | undefined, client: pg.PoolClient | undefined, done: (release?: any) => void) => void): Promise<pg.PoolClient> | void {
    const [role, tenant] = settingsOf(currentScope(), this.unscoped);
    const key = `${role}/${tenant}`;
    const ready = super.connect().then(async (client: ScopedClient) => {
      if (client[APPLIED] === key) return client;
      try {
        await client.query("select set_config('role', $1, false), set_config('app.tenant_id', $2, false)", [role, tenant]);
      } catch (error) {
        client.release(error as Error);
        throw error;
      }
      client[APPLIED] = key;
      return client;
    });
    if (!callback) return ready;
    ready.then(
      (client) => callback(undefined, client, client.release.bind(client)),
      (error: Error) => callback(error, undefined, () => {}),
    );
  }
}

export function openDatabase(url: string, options: DatabaseOptions = {}): Database {
  const pool = new TenantPool(
    {
      connectionString: url,
      max: options.max ?? 10,
      min: options.min ?? 0,
      application_name: options.applicationName ?? 'delivery-analytics',
      connectionTimeoutMillis: 5000,
    },
    options.unscoped,
  );
  // An idle client losing its connection (database restart) must not crash the process.
  pool.on('error', () => {});
  // Nor a checked-out one: between queries its holder has no error listener (pg-pool listens only
  // while a pool.query runs, and only once), and PostgreSQL sends a terminated session's FATAL
  // message then closes the socket: two 'error' events. Each query on that client still fails,
  // and releasing it with the error removes it from the pool.
  pool.on('connect', (client) => client.on('error', () => {}));
  return { pool, db: drizzle(pool, { schema }), close: () => pool.end() };
}
