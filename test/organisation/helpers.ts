import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { dbFor } from '../helpers/factories.js';

export const EXAMPLE_REGISTER_PATH = fileURLToPath(new URL('../../docs/examples/register.csv', import.meta.url));
export const EXAMPLE_REGISTER = readFileSync(EXAMPLE_REGISTER_PATH, 'utf8');
export const EXAMPLE_SEATS_PATH = fileURLToPath(new URL('../../docs/examples/seats.csv', import.meta.url));
export const EXAMPLE_SEATS = readFileSync(EXAMPLE_SEATS_PATH, 'utf8');

export const REGISTER_HEADER = 'external_ref,email,display_name,employment_type,supplier_name,cost_centre_code,location_country,team_slug,team_name,team_external_ref,team_cost_centre_code,org_unit_slug';

/** A register of the twelve required columns from compact rows. */
export function register(...rows: string[]): string {
  return `${REGISTER_HEADER}\n${rows.join('\n')}\n`;
}

export const CSV = { 'content-type': 'text/csv' };

/** Every organisation row of a tenant, for "nothing changed" comparisons (timestamps included). */
export async function snapshot(databaseUrl: string, tenantId: string): Promise<Record<string, unknown[]>> {
  const { db } = dbFor(databaseUrl);
  const out: Record<string, unknown[]> = {};
  for (const table of ['org_units', 'teams', 'people', 'person_identities', 'team_memberships', 'register_imports', 'seats', 'seat_imports', 'projects']) {
    const result = await db.execute(sql`select * from ${sql.identifier(table)} where tenant_id = ${tenantId}::uuid order by 1, 2, 3`);
    out[table] = result.rows;
  }
  return out;
}

export const todayUtc = () => new Date().toISOString().slice(0, 10);

/** stderr without runtime notices printed by dependencies at start-up (not ours to assert on). */
export const ownStderr = (stderr: string): string => stderr.split('\n').filter((l) => !l.startsWith('oidc-provider WARNING')).join('\n');
