/**
 * The team-roster export, built once for both the endpoint and `export:team-roster`, so the two
 * are byte-identical: one row per (person, enabled team) of current membership, ordered by
 * team_slug then external_ref (byte order), every value text (absent → empty string).
 */
import { stringify } from 'csv-stringify/sync';
import { SAFE_CSV } from '../shared/csv.js';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { todayUtc } from '../organisation/csvImport.js';
import type { RosterQuery } from './schemas.js';

export const ROSTER_COLUMNS = [
  'external_ref', 'email', 'display_name', 'employment_type', 'supplier_name', 'cost_centre_code', 'location_country',
  'team_slug', 'team_name', 'team_external_ref', 'team_cost_centre_code', 'org_unit_slug', 'membership_source', 'as_of',
] as const;
export type RosterRow = Record<(typeof ROSTER_COLUMNS)[number], string>;

export interface RosterExport {
  contentType: string;
  filename: string;
  body: string;
}

/** Rows of the roster for a tenant; `asOf` is the validated request date. */
export async function rosterRows(db: Db, tenantId: string, asOf: string): Promise<RosterRow[]> {
  const result = await db.execute(sql`
    select p.external_ref, coalesce(p.email, '') as email, coalesce(p.display_name, '') as display_name, p.employment_type,
      coalesce(p.supplier_name, '') as supplier_name, coalesce(p.cost_centre_code, '') as cost_centre_code,
      coalesce(p.location_country, '') as location_country, t.slug as team_slug, t.name as team_name,
      coalesce(t.external_ref, '') as team_external_ref, coalesce(t.cost_centre_code, '') as team_cost_centre_code,
      coalesce(o.slug, '') as org_unit_slug, m.membership_source, ${asOf}::text as as_of
    from team_memberships m
    join teams t on t.id = m.team_id and t.tenant_id = ${tenantId}::uuid and t.enabled
    join people p on p.id = m.person_id and p.tenant_id = ${tenantId}::uuid
    left join org_units o on o.id = t.org_unit_id and o.tenant_id = ${tenantId}::uuid
    where m.tenant_id = ${tenantId}::uuid
    order by t.slug collate "C", p.external_ref collate "C"`);
  // Column order of the spec, whatever order the driver returns keys in.
  return (result.rows as Record<string, string>[]).map((r) => Object.fromEntries(ROSTER_COLUMNS.map((c) => [c, String(r[c] ?? '')])) as RosterRow);
}

/**
 * The exact response body. CSV: header row always, then the rows, RFC 4180 quoting by
 * csv-stringify, `\n` line ends. JSON: `{"asOf": …, "rows": [...]}` with no generation time, so
 * the offline command can reproduce it byte for byte.
 */
export async function exportTeamRoster(db: Db, tenantId: string, query: RosterQuery, now = new Date()): Promise<RosterExport> {
  const asOf = query.asOf ?? todayUtc(now);
  const rows = await rosterRows(db, tenantId, asOf);
  if (query.format === 'json') {
    return { contentType: 'application/json; charset=utf-8', filename: `team-roster-${asOf}.json`, body: JSON.stringify({ asOf, rows }) };
  }
  const body = stringify(rows.map((r) => ROSTER_COLUMNS.map((c) => r[c])), { ...SAFE_CSV, header: true, columns: [...ROSTER_COLUMNS] });
  return { contentType: 'text/csv; charset=utf-8', filename: `team-roster-${asOf}.csv`, body };
}
