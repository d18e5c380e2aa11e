import pg from 'pg';
import { revokeBiCredential, type BiCredential } from '../../src/bi/credentials.js';
import { freshDatabase } from '../helpers/database.js';
import { buildTenant, dbFor } from '../helpers/factories.js';
import { buildFixture } from '../cube/fixture.js';

/** A fresh database with tenants A and B, each holding the cube fixture; `admin` is the application's pool. */
export async function twoFixtureTenants(): Promise<{ databaseUrl: string; admin: pg.Pool; tenantA: string; tenantB: string }> {
  const databaseUrl = await freshDatabase();
  const admin = dbFor(databaseUrl).pool;
  const tenantA = (await buildTenant(databaseUrl)).tenantId;
  const tenantB = (await buildTenant(databaseUrl)).tenantId;
  await buildFixture(admin, tenantA);
  await buildFixture(admin, tenantB);
  return { databaseUrl, admin, tenantA, tenantB };
}

/** Connects pg clients (ignoring errors after the connect) and ends every connected one in closeAll. */
export function pgClients() {
  const opened: pg.Client[] = [];
  return {
    async connect(url: string): Promise<pg.Client> {
      const client = new pg.Client({ connectionString: url });
      client.on('error', () => {});
      await client.connect();
      opened.push(client);
      return client;
    },
    closeAll: () => Promise.all(opened.map((c) => c.end().catch(() => {}))),
  };
}

/** Revokes these credentials, ignoring those already gone (for after()). */
export async function revokeAll(admin: pg.Pool, credentials: BiCredential[]): Promise<void> {
  for (const cred of credentials) await revokeBiCredential(admin, cred.tenantId, cred.id).catch(() => {});
}
