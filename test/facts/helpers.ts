/**
 * The people the AI and commits drill-through tests share: Ann on team alpha, Bo on beta and alpha
 * (imported from a register, so they are people with teams), and Ann, Bo and Cy as signed-in
 * members with API keys of their own (Cy is on no team).
 */
import { expect } from 'chai';
import { buildMember, dbFor, type BuiltTenant } from '../helpers/factories.js';
import type { TestServer } from '../helpers/server.js';
import { CSV, register } from '../organisation/helpers.js';

export interface AnnBoCy {
  /** Each person's e-mail in this tenant (unique per tenant). */
  email: (name: string) => string;
  teams: Record<string, string>;
  people: Record<string, string>;
  users: Record<string, { userId: string; apiKey: string }>;
}

export async function annBoAndCy(api: TestServer, tenant: BuiltTenant): Promise<AnnBoCy> {
  const owner = api.as(tenant.owner.apiKey);
  const { pool } = dbFor(api.databaseUrl);
  const tag = tenant.tenantId.slice(0, 8);
  const email = (name: string) => `${name}-${tag}@example.com`;
  const imported = await owner.post('/api/register/imports', register(
    `ann,${email('ann')},Ann,employee,,CC-1,NL,alpha,Alpha,,,eng`,
    `bo,${email('bo')},Bo,employee,,CC-1,NL,beta,Beta,,,eng`,
  ), CSV);
  expect(imported.status, imported.text).to.be.oneOf([200, 201]);
  const teams: Record<string, string> = {};
  for (const t of (await owner.get('/api/teams?perPage=100')).body.data as { slug: string; id: string }[]) teams[t.slug] = t.id;
  const people: Record<string, string> = {};
  for (const name of ['ann', 'bo']) {
    people[name] = (await pool.query(`select person_id from person_identities where tenant_id = $1 and kind = 'email' and value = $2`, [tenant.tenantId, email(name)])).rows[0].person_id;
  }
  const joined = await owner.post(`/api/teams/${teams.alpha}/members`, { personId: people.bo });
  expect(joined.status, joined.text).to.be.oneOf([200, 201]);
  const users: Record<string, { userId: string; apiKey: string }> = {};
  for (const name of ['ann', 'bo', 'cy']) users[name] = await buildMember(api.databaseUrl, tenant.tenantId, 'member', email(name));
  return { email, teams, people, users };
}
