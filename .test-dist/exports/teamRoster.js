import { stringify } from "csv-stringify/sync";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { isIsoDate, todayUtc } from "../organisation/csvImport.js";
const ROSTER_COLUMNS = [
  "external_ref",
  "email",
  "display_name",
  "employment_type",
  "supplier_name",
  "cost_centre_code",
  "location_country",
  "team_slug",
  "team_name",
  "team_external_ref",
  "team_cost_centre_code",
  "org_unit_slug",
  "membership_source",
  "as_of"
];
const RosterQuery = z.object({
  asOf: z.string().refine(isIsoDate, { message: "Must be a date YYYY-MM-DD", abort: true }).refine((d) => d <= todayUtc(), { message: "Must not be in the future (today is the UTC date)" }).optional(),
  format: z.enum(["csv", "json"], { message: "Must be csv or json" }).default("csv")
});
async function rosterRows(db, tenantId, asOf) {
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
  return result.rows.map((r) => Object.fromEntries(ROSTER_COLUMNS.map((c) => [c, String(r[c] ?? "")])));
}
async function exportTeamRoster(db, tenantId, query, now = /* @__PURE__ */ new Date()) {
  const asOf = query.asOf ?? todayUtc(now);
  const rows = await rosterRows(db, tenantId, asOf);
  if (query.format === "json") {
    return { contentType: "application/json; charset=utf-8", filename: `team-roster-${asOf}.json`, body: JSON.stringify({ asOf, rows }) };
  }
  const body = stringify(rows.map((r) => ROSTER_COLUMNS.map((c) => r[c])), { header: true, columns: [...ROSTER_COLUMNS] });
  return { contentType: "text/csv; charset=utf-8", filename: `team-roster-${asOf}.csv`, body };
}
export {
  ROSTER_COLUMNS,
  RosterQuery,
  exportTeamRoster,
  rosterRows
};
