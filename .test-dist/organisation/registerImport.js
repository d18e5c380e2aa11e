import { count, desc, eq, sql } from "drizzle-orm";
import { authorOf } from "../auth/principal.js";
import { authorize } from "../auth/policies.js";
import { EMPLOYMENT_TYPES, registerImports } from "../db/schema/index.js";
import { isIsoDate, ProblemList, readCsv, sha256Hex } from "./csvImport.js";
import { applyRegisterIdentities, checkManualIdentities, claimKey, CODEHOST_USERNAME } from "./identities.js";
const REGISTER_REQUIRED = [
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
  "org_unit_slug"
];
const REGISTER_OPTIONAL = ["org_unit_name", "team_supplier_name", "team_delivery_model", "team_location_country"];
const REGISTER_EXTRA = ["codehost_usernames"];
const REGISTER_MAX_ROWS = 5e4;
const PERSON_COLUMNS = ["email", "display_name", "employment_type", "supplier_name", "cost_centre_code", "location_country", "codehost_usernames"];
const TEAM_COLUMNS = ["team_name", "team_external_ref", "team_cost_centre_code", "org_unit_slug", ...REGISTER_OPTIONAL.slice(1)];
const SLUG = /^[a-z0-9][a-z0-9._-]{0,99}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const COUNTRY = /^[A-Za-z]{2}$/;
const orNull = (value) => value === "" ? null : value;
const usernames = (value) => (value ?? "").split(/[\s;]+/).filter((u) => u !== "");
function checkRow(row, problems) {
  const v = row.values;
  const bad = (column, message) => problems.add(row.line, column, message);
  const maxLength = (column, max) => (v[column] ?? "").length > max && bad(column, `At most ${max} characters`);
  if (v.external_ref === "") bad("external_ref", "Required");
  if (v.email !== "" && !EMAIL.test(v.email)) bad("email", `"${v.email}" is not an e-mail address`);
  const type = v.employment_type.toLowerCase();
  if (!EMPLOYMENT_TYPES.includes(type)) bad("employment_type", `Must be one of ${EMPLOYMENT_TYPES.join(", ")}`);
  if (type === "supplier" && v.supplier_name === "") bad("supplier_name", "Required when employment_type is supplier");
  for (const column of ["location_country", "team_location_country"]) {
    const value = v[column];
    if (value && !COUNTRY.test(value)) bad(column, "Must be a two-letter ISO 3166-1 country code");
  }
  if (!SLUG.test(v.team_slug)) bad("team_slug", v.team_slug === "" ? "Required" : 'Must be lower-case letters, digits, ".", "_" or "-" (at most 100)');
  if (v.team_name === "") bad("team_name", "Required");
  if (v.org_unit_slug !== "" && !SLUG.test(v.org_unit_slug)) bad("org_unit_slug", 'Must be lower-case letters, digits, ".", "_" or "-" (at most 100)');
  if (v.org_unit_name && v.org_unit_slug === "") bad("org_unit_name", "Given without an org_unit_slug");
  for (const column of ["external_ref", "email", "display_name", "supplier_name", "team_name", "team_external_ref", "org_unit_name", "team_supplier_name"]) maxLength(column, 320);
  for (const column of ["cost_centre_code", "team_cost_centre_code", "team_delivery_model"]) maxLength(column, 100);
  if (v.as_of && !isIsoDate(v.as_of)) bad("as_of", "Must be a date YYYY-MM-DD (the column is otherwise ignored)");
  for (const name of usernames(v.codehost_usernames)) if (!CODEHOST_USERNAME.test(name)) bad("codehost_usernames", `"${name}" is not a code-host username`);
}
function checkConsistency(rows, key, columns, columnsPresent, what, problems) {
  const first = /* @__PURE__ */ new Map();
  for (const row of rows) {
    const id = row.values[key];
    if (id === "") continue;
    const earlier = first.get(id);
    if (!earlier) {
      first.set(id, row);
      continue;
    }
    for (const column of columns) {
      if (!columnsPresent.has(column)) continue;
      const a = normalise(column, earlier.values[column]);
      const b = normalise(column, row.values[column]);
      if (a !== b) problems.add(row.line, column, `${what} "${id}" has "${b}" here but "${a}" on line ${earlier.line}`);
    }
  }
}
function normalise(column, value) {
  if (column === "email") return value.toLowerCase();
  if (column === "codehost_usernames") return usernames(value.toLowerCase()).sort().join(" ");
  if (column === "employment_type" || column.endsWith("location_country")) return value.toLowerCase();
  return value;
}
async function checkRegister(db, tenantId, csvText) {
  const problems = new ProblemList();
  const { rows, columns } = readCsv(csvText, { required: REGISTER_REQUIRED, optional: [...REGISTER_OPTIONAL, ...REGISTER_EXTRA], ignored: ["membership_source", "as_of"], maxRows: REGISTER_MAX_ROWS }, problems);
  for (const row of rows) checkRow(row, problems);
  checkConsistency(rows, "external_ref", PERSON_COLUMNS, columns, "Person", problems);
  checkConsistency(rows, "team_slug", TEAM_COLUMNS, columns, "Team", problems);
  checkConsistency(rows.filter((r) => r.values.org_unit_slug !== ""), "org_unit_slug", ["org_unit_name"], columns, "Org unit", problems);
  const pairs = /* @__PURE__ */ new Map();
  const claims = /* @__PURE__ */ new Map();
  const claim = (row, kind, column, value) => {
    const ref = row.values.external_ref;
    const owner = claims.get(claimKey(kind, value));
    if (owner && owner.ref !== ref) problems.add(row.line, column, `"${value}" also belongs to person "${owner.ref}" on line ${owner.line}`);
    else if (!owner) claims.set(claimKey(kind, value), { ref, line: row.line, column });
  };
  for (const row of rows) {
    const v = row.values;
    const pair = `${v.external_ref}\0${v.team_slug}`;
    if (pairs.has(pair)) problems.add(row.line, "team_slug", `Person "${v.external_ref}" is already on team "${v.team_slug}" on line ${pairs.get(pair)}`);
    else pairs.set(pair, row.line);
    if (v.email) claim(row, "email", "email", v.email.toLowerCase());
    for (const name of usernames(v.codehost_usernames)) claim(row, "codehost_username", "codehost_usernames", name.toLowerCase());
  }
  if (problems.empty) await checkManualIdentities(db, tenantId, claims, problems);
  if (!problems.empty) problems.reject("Register");
  const personMap = /* @__PURE__ */ new Map();
  const teamMap = /* @__PURE__ */ new Map();
  const orgUnitMap = /* @__PURE__ */ new Map();
  for (const { values: v } of rows) {
    personMap.set(v.external_ref, {
      external_ref: v.external_ref,
      email: orNull(v.email),
      display_name: orNull(v.display_name),
      employment_type: v.employment_type.toLowerCase(),
      supplier_name: orNull(v.supplier_name),
      cost_centre_code: orNull(v.cost_centre_code),
      location_country: orNull(v.location_country.toUpperCase())
    });
    teamMap.set(v.team_slug, {
      slug: v.team_slug,
      name: v.team_name,
      external_ref: orNull(v.team_external_ref),
      cost_centre_code: orNull(v.team_cost_centre_code),
      org_unit_slug: orNull(v.org_unit_slug),
      supplier_name: orNull(v.team_supplier_name ?? ""),
      delivery_model: orNull(v.team_delivery_model ?? ""),
      location_country: orNull((v.team_location_country ?? "").toUpperCase())
    });
    if (v.org_unit_slug) orgUnitMap.set(v.org_unit_slug, orNull(v.org_unit_name ?? ""));
  }
  const memberships = rows.map(({ values: v }) => ({ external_ref: v.external_ref, team_slug: v.team_slug }));
  return { rows, columns, claims, personMap, teamMap, orgUnitMap, memberships };
}
const asJson = (value) => sql`${JSON.stringify(value)}::jsonb`;
const changed = async (tx, query) => (await tx.execute(query)).rowCount ?? 0;
function upsertOrgUnits(tx, tenantId, register) {
  return changed(tx, sql`
    insert into org_units (tenant_id, slug, name)
    select ${tenantId}::uuid, x.slug, coalesce(x.name, x.slug)
    from jsonb_to_recordset(${asJson([...register.orgUnitMap].map(([slug, name]) => ({ slug, name })))}) as x(slug text, name text)
    on conflict (tenant_id, slug) do update set name = excluded.name, updated_at = now()
    where ${register.columns.has("org_unit_name")} and org_units.name is distinct from excluded.name`);
}
function upsertTeams(tx, tenantId, register) {
  const keep = (column, optional) => sql.raw(register.columns.has(optional) ? `excluded.${column}` : `teams.${column}`);
  return changed(tx, sql`
    insert into teams (tenant_id, slug, name, external_ref, cost_centre_code, org_unit_id, supplier_name, delivery_model, location_country)
    select ${tenantId}::uuid, x.slug, x.name, x.external_ref, x.cost_centre_code, o.id, x.supplier_name, x.delivery_model, x.location_country
    from jsonb_to_recordset(${asJson([...register.teamMap.values()])})
      as x(slug text, name text, external_ref text, cost_centre_code text, org_unit_slug text, supplier_name text, delivery_model text, location_country text)
    left join org_units o on o.tenant_id = ${tenantId}::uuid and o.slug = x.org_unit_slug
    on conflict (tenant_id, slug) do update set
      name = excluded.name, external_ref = excluded.external_ref, cost_centre_code = excluded.cost_centre_code, org_unit_id = excluded.org_unit_id,
      supplier_name = ${keep("supplier_name", "team_supplier_name")}, delivery_model = ${keep("delivery_model", "team_delivery_model")},
      location_country = ${keep("location_country", "team_location_country")}, updated_at = now()
    where (teams.name, teams.external_ref, teams.cost_centre_code, teams.org_unit_id, teams.supplier_name, teams.delivery_model, teams.location_country)
      is distinct from (excluded.name, excluded.external_ref, excluded.cost_centre_code, excluded.org_unit_id,
        ${keep("supplier_name", "team_supplier_name")}, ${keep("delivery_model", "team_delivery_model")}, ${keep("location_country", "team_location_country")})`);
}
function upsertPeople(tx, tenantId, register) {
  return changed(tx, sql`
    insert into people (tenant_id, external_ref, email, display_name, employment_type, supplier_name, cost_centre_code, location_country)
    select ${tenantId}::uuid, x.external_ref, x.email, x.display_name, x.employment_type, x.supplier_name, x.cost_centre_code, x.location_country
    from jsonb_to_recordset(${asJson([...register.personMap.values()])})
      as x(external_ref text, email text, display_name text, employment_type text, supplier_name text, cost_centre_code text, location_country text)
    on conflict (tenant_id, external_ref) do update set
      email = excluded.email, display_name = excluded.display_name, employment_type = excluded.employment_type,
      supplier_name = excluded.supplier_name, cost_centre_code = excluded.cost_centre_code, location_country = excluded.location_country, updated_at = now()
    where (people.email, people.display_name, people.employment_type, people.supplier_name, people.cost_centre_code, people.location_country)
      is distinct from (excluded.email, excluded.display_name, excluded.employment_type, excluded.supplier_name, excluded.cost_centre_code, excluded.location_country)`);
}
function applyIdentities(tx, tenantId, register) {
  const kinds = register.columns.has("codehost_usernames") ? ["email", "codehost_username"] : ["email"];
  const wanted = [...register.claims].map(([key, c]) => ({ external_ref: c.ref, kind: key.split("\0")[0], value: key.split("\0")[1] }));
  return applyRegisterIdentities(tx, tenantId, kinds, [...register.personMap.keys()], wanted);
}
async function replaceRegisterMemberships(tx, tenantId, register) {
  await tx.execute(sql`create temp table reg_memberships (team_id uuid, person_id uuid, primary key (team_id, person_id)) on commit drop`);
  await tx.execute(sql`
    insert into reg_memberships (team_id, person_id)
    select t.id, p.id from jsonb_to_recordset(${asJson(register.memberships)}) as x(external_ref text, team_slug text)
    join people p on p.tenant_id = ${tenantId}::uuid and p.external_ref = x.external_ref
    join teams t on t.tenant_id = ${tenantId}::uuid and t.slug = x.team_slug
    on conflict do nothing`);
  await tx.execute(sql`analyze reg_memberships`);
  const removed = await changed(tx, sql`
    delete from team_memberships m
    where m.tenant_id = ${tenantId}::uuid and m.membership_source = 'register'
      and not exists (select 1 from reg_memberships w where w.team_id = m.team_id and w.person_id = m.person_id)`);
  const added = await changed(tx, sql`
    insert into team_memberships (tenant_id, team_id, person_id, membership_source)
    select ${tenantId}::uuid, w.team_id, w.person_id, 'register' from reg_memberships w
    on conflict (team_id, person_id) do update set membership_source = 'register'
    where team_memberships.membership_source <> 'register'`);
  return removed + added;
}
async function recordImport(tx, tenantId, register, importedBy, hash, changes) {
  const { rows, orgUnitMap, teamMap, personMap } = register;
  const counts = { rows: rows.length, orgUnits: orgUnitMap.size, teams: teamMap.size, people: personMap.size, memberships: rows.length };
  const [latest] = await tx.select().from(registerImports).where(eq(registerImports.tenantId, tenantId)).orderBy(desc(registerImports.importedAt)).limit(1);
  if (latest && changes === 0 && latest.fileSha256 === hash) return { recorded: false, import: latest, counts };
  const [recorded] = await tx.insert(registerImports).values({ tenantId, rowCount: rows.length, importedBy, fileSha256: hash }).returning();
  return { recorded: true, import: recorded, counts };
}
async function importRegister(db, actor, csvText) {
  authorize(actor, "register.import");
  const { tenantId } = actor;
  const importedBy = authorOf(actor);
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`register:${tenantId}`}, 0))`);
    const register = await checkRegister(tx, tenantId, csvText);
    let changes = 0;
    for (const step of [upsertOrgUnits, upsertTeams, upsertPeople, applyIdentities, replaceRegisterMemberships]) changes += await step(tx, tenantId, register);
    return recordImport(tx, tenantId, register, importedBy, sha256Hex(csvText), changes);
  });
}
async function listRegisterImports(db, tenantId, paging) {
  const where = eq(registerImports.tenantId, tenantId);
  const [rows, [total]] = await Promise.all([
    db.select().from(registerImports).where(where).orderBy(desc(registerImports.importedAt), desc(registerImports.id)).limit(paging.perPage).offset((paging.page - 1) * paging.perPage),
    db.select({ n: count() }).from(registerImports).where(where)
  ]);
  return { rows, total: total?.n ?? 0 };
}
export {
  REGISTER_EXTRA,
  REGISTER_MAX_ROWS,
  REGISTER_OPTIONAL,
  REGISTER_REQUIRED,
  SLUG,
  applyIdentities,
  checkRegister,
  importRegister,
  listRegisterImports,
  replaceRegisterMemberships,
  upsertOrgUnits,
  upsertPeople,
  upsertTeams
};
