/**
 * Test data through the same service functions the CLI uses. Each test builds its own tenants,
 * so tests never clean up and never see each other.
 */
import { randomBytes } from 'node:crypto';
import { openDatabase, type Database } from '../../src/db/client.js';
import { addUser, createTenant } from '../../src/tenants/service.js';
import { createSession } from '../../src/auth/sessions.js';
import type { Role } from '../../src/auth/principal.js';

const pools = new Map<string, Database>();

/** One small pool per database URL, closed when the run ends. */
export function dbFor(databaseUrl: string): Database {
  let database = pools.get(databaseUrl);
  if (!database) pools.set(databaseUrl, (database = openDatabase(databaseUrl, { max: 4, applicationName: 'tests', unscoped: 'test-fixture' })));
  return database;
}

export async function closeFactoryPools(): Promise<void> {
  await Promise.all([...pools.values()].map((d) => d.close()));
  pools.clear();
}

const unique = () => randomBytes(4).toString('hex');

export interface BuiltUser {
  userId: string;
  email: string;
  apiKey: string;
}

export interface BuiltTenant {
  tenantId: string;
  name: string;
  owner: BuiltUser;
}

export async function buildTenant(databaseUrl: string, name = `Tenant ${unique()}`): Promise<BuiltTenant> {
  const email = `owner-${unique()}@example.com`;
  const made = await createTenant(dbFor(databaseUrl).db, { name, ownerEmail: email, apiKey: true });
  return { tenantId: made.tenantId, name, owner: { userId: made.userId, email, apiKey: made.apiKey as string } };
}

export interface TwoTenants {
  a: BuiltTenant;
  b: BuiltTenant;
}

/**
 * Tenants A and B on one database, A built first: the pair of every test that B never sees nor
 * changes what belongs to A.
 */
export async function twoTenants(databaseUrl: string, names: { a?: string; b?: string } = {}): Promise<TwoTenants> {
  const a = await buildTenant(databaseUrl, names.a);
  const b = await buildTenant(databaseUrl, names.b);
  return { a, b };
}

export async function buildMember(databaseUrl: string, tenantId: string, role: Role = 'member', email = `member-${unique()}@example.com`): Promise<BuiltUser> {
  const made = await addUser(dbFor(databaseUrl).db, { tenantId, email, role, apiKey: true });
  return { userId: made.userId, email, apiKey: made.apiKey as string };
}

/** A signed-in session of the user: returns the Cookie header value. */
export async function buildSessionCookie(databaseUrl: string, userId: string, tenantId: string | null = null): Promise<string> {
  const session = await createSession(dbFor(databaseUrl).db, userId, tenantId);
  return `sessionId=${session.token}`;
}
