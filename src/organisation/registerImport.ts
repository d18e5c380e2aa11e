/**
 * The organisation register import: one CSV row per person per team. Everything is validated
 * before anything is written; a good file is applied in one transaction (org units, teams and
 * people upserted; the person's register e-mail identity rewritten; register memberships replaced)
 * and recorded as the tenant's latest register import, the headcount source.
 */
import { count, desc, eq, sql } from 'drizzle-orm';
import { authorOf, type Actor } from '../auth/principal.js';
import { authorize } from '../auth/policies.js';
import type { Db } from '../db/client.js';
import { EMPLOYMENT_TYPES, registerImports, type EmploymentType, type IdentityKind } from '../db/schema/index.js';
import { EMAIL } from '../shared/text.js';
import { isIsoDate, ProblemList, readCsv, sha256Hex, type CsvRow } from './csvImport.js';
import { applyRegisterIdentities, checkManualIdentities, claimKey, CODEHOST_USERNAME, type IdentityClaims, type WantedIdentity } from './identities.js';

export const REGISTER_REQUIRED = [
  'external_ref', 'email', 'display_name', 'employment_type', 'supplier_name', 'cost_centre_code', 'location_country',
  'team_slug', 'team_name', 'team_external_ref', 'team_cost_centre_code', 'org_unit_slug',
] as const;
export const REGISTER_OPTIONAL = ['org_unit_name', 'team_supplier_name', 'team_delivery_model', 'team_location_country'] as const;
/** An extension of ours: the person's code-host usernames, separated by spaces or `;`. */
export const REGISTER_EXTRA = ['codehost_usernames'] as const;
export const REGISTER_MAX_ROWS = 50_000;

const PERSON_COLUMNS = ['email', 'display_name', 'employment_type', 'supplier_name', 'cost_centre_code', 'location_country', 'codehost_usernames'] as const;
const TEAM_COLUMNS = ['team_name', 'team_external_ref', 'team_cost_centre_code', 'org_unit_slug', ...REGISTER_OPTIONAL.slice(1)] as const;

export const SLUG = /^[a-z0-9][a-z0-9._-]{0,99}$/;
const COUNTRY = /^[A-Za-z]{2}$/;

interface PersonIn { external_ref: string; email: string | null; display_name: string | null; employment_type: EmploymentType; supplier_name: string | null; cost_centre_code: string | null; location_country: string | null }
interface TeamIn { slug: string; name: string; external_ref: string | null; cost_centre_code: string | null; org_unit_slug: string | null; supplier_name: string | null; delivery_model: string | null; location_country: string | null }

export interface RegisterImportRecord { id: string; importedAt: Date; rowCount: number; importedBy: string; fileSha256: string }
export interface RegisterImportResult {
  /** False when the file changed nothing and was already the latest import: nothing is recorded. */
  recorded: boolean;
  import: RegisterImportRecord;
  counts: { rows: number; orgUnits: number; teams: number; people: number; memberships: number };
}

const orNull = (value: string): string | null => (value === '' ? null : value);
const usernames = (value: string | undefined): string[] => (value ?? '').split(/[\s;]+/).filter((u) => u !== '');

function checkRow(row: CsvRow, problems: ProblemList): void {
  const v = row.values;
  const bad = (column: string, message: string) => problems.add(row.line, column, message);
  const maxLength = (column: string, max: number) => (v[column] ?? '').length > max && bad(column, `At most ${max} characters`);
  if (v.external_ref === '') bad('external_ref', 'Required');
  if (v.email !== '' && !EMAIL.test(v.email as string)) bad('email', `"${v.email}" is not an e-mail address`);
  const type = (v.employment_type as string).toLowerCase();
  if (!(EMPLOYMENT_TYPES as readonly string[]).includes(type)) bad('employment_type', `Must be one of ${EMPLOYMENT_TYPES.join(', ')}`);
  if (type === 'supplier' && v.supplier_name === '') bad('supplier_name', 'Required when employment_type is supplier');
  for (const column of ['location_country', 'team_location_country']) {
    const value = v[column];
    if (value && !COUNTRY.test(value)) bad(column, 'Must be a two-letter ISO 3166-1 country code');
  }
  if (!SLUG.test(v.team_slug as string)) bad('team_slug', v.team_slug === '' ? 'Required' : 'Must be lower-case letters, digits, ".", "_" or "-" (at most 100)');
  if (v.team_name === '') bad('team_name', 'Required');
  if (v.org_unit_slug !== '' && !SLUG.test(v.org_unit_slug as string)) bad('org_unit_slug', 'Must be lower-case letters, digits, ".", "_" or "-" (at most 100)');
  if (v.org_unit_name && v.org_unit_slug === '') bad('org_unit_name', 'Given without an org_unit_slug');
  for (const column of ['external_ref', 'email', 'display_name', 'supplier_name', 'team_name', 'team_external_ref', 'org_unit_name', 'team_supplier_name']) maxLength(column, 320);
  for (const column of ['cost_centre_code', 'team_cost_centre_code', 'team_delivery_model']) maxLength(column, 100);
  if (v.as_of && !isIsoDate(v.as_of)) bad('as_of', 'Must be a date YYYY-MM-DD (the column is otherwise ignored)');
  for (const name of usernames(v.codehost_usernames)) if (!CODEHOST_USERNAME.test(name)) bad('codehost_usernames', `"${name}" is not a code-host username`);
}

/** Rows that describe the same person (or team) must agree on its attributes. */
function checkConsistency(rows: CsvRow[], key: string, columns: readonly string[], columnsPresent: Set<string>, what: string, problems: ProblemList): void {
  const first = new Map<string, CsvRow>();
  for (const row of rows) {
    const id = row.values[key] as string;
    if (id === '') continue; // already reported as missing
    const earlier = first.get(id);
    if (!earlier) {
      first.set(id, row);
      continue;
    }
    for (const column of columns) {
      if (!columnsPresent.has(column)) continue;
      const a = normalise(column, earlier.values[column] as string);
      const b = normalise(column, row.values[column] as string);
      if (a !== b) problems.add(row.line, column, `${what} "${id}" has "${b}" here but "${a}" on line ${earlier.line}`);
    }
  }
}

function normalise(column: string, value: string): string {
  if (column === 'email') return value.toLowerCase();
  if (column === 'codehost_usernames') return usernames(value.toLowerCase()).sort().join(' ');
  if (column === 'employment_type' || column.endsWith('location_country')) return value.toLowerCase();
  return value;
}

/** A validated register file, ready to apply. */
export type CheckedRegister = Awaited<ReturnType<typeof checkRegister>>;

/**
 * Validates a register file for a tenant without writing anything (the asynchronous import checks
 * the whole file in the request). Throws a 400 AppError listing every problem.
 */
export async function checkRegister(db: Db, tenantId: string, csvText: string) {
  const problems = new ProblemList();
  const { rows, columns } = readCsv(csvText, { required: REGISTER_REQUIRED, optional: [...REGISTER_OPTIONAL, ...REGISTER_EXTRA], ignored: ['membership_source', 'as_of'], maxRows: REGISTER_MAX_ROWS }, problems);
  for (const row of rows) checkRow(row, problems);
  checkConsistency(rows, 'external_ref', PERSON_COLUMNS, columns, 'Person', problems);
  checkConsistency(rows, 'team_slug', TEAM_COLUMNS, columns, 'Team', problems);
  checkConsistency(rows.filter((r) => r.values.org_unit_slug !== ''), 'org_unit_slug', ['org_unit_name'], columns, 'Org unit', problems);

  const pairs = new Map<string, number>();
  const claims: IdentityClaims = new Map();
  const claim = (row: CsvRow, kind: IdentityKind, column: string, value: string) => {
    const ref = row.values.external_ref as string;
    const owner = claims.get(claimKey(kind, value));
    if (owner && owner.ref !== ref) problems.add(row.line, column, `"${value}" also belongs to person "${owner.ref}" on line ${owner.line}`);
    else if (!owner) claims.set(claimKey(kind, value), { ref, line: row.line, column });
  };
  for (const row of rows) {
    const v = row.values as Record<string, string>;
    const pair = `${v.external_ref}\u0000${v.team_slug}`;
    if (pairs.has(pair)) problems.add(row.line, 'team_slug', `Person "${v.external_ref}" is already on team "${v.team_slug}" on line ${pairs.get(pair)}`);
    else pairs.set(pair, row.line);
    if (v.email) claim(row, 'email', 'email', v.email.toLowerCase());
    for (const name of usernames(v.codehost_usernames)) claim(row, 'codehost_username', 'codehost_usernames', name.toLowerCase());
  }
  if (problems.empty) await checkManualIdentities(db, tenantId, claims, problems);
  if (!problems.empty) problems.reject('Register');

  const personMap = new Map<string, PersonIn>();
  const teamMap = new Map<string, TeamIn>();
  const orgUnitMap = new Map<string, string | null>();
  for (const { values: v } of rows as { values: Record<string, string> }[]) {
    personMap.set(v.external_ref!, {
      external_ref: v.external_ref!, email: orNull(v.email!), display_name: orNull(v.display_name!),
      employment_type: v.employment_type!.toLowerCase() as EmploymentType, supplier_name: orNull(v.supplier_name!),
      cost_centre_code: orNull(v.cost_centre_code!), location_country: orNull(v.location_country!.toUpperCase()),
    });
    teamMap.set(v.team_slug!, {
      slug: v.team_slug!, name: v.team_name!, external_ref: orNull(v.team_external_ref!), cost_centre_code: orNull(v.team_cost_centre_code!),
      org_unit_slug: orNull(v.org_unit_slug!), supplier_name: orNull(v.team_supplier_name ?? ''), delivery_model: orNull(v.team_delivery_model ?? ''),
      location_country: orNull((v.team_location_country ?? '').toUpperCase()),
    });
    if (v.org_unit_slug) orgUnitMap.set(v.org_unit_slug, orNull(v.org_unit_name ?? ''));
  }
  const memberships = rows.map(({ values: v }) => ({ external_ref: v.external_ref as string, team_slug: v.team_slug as string }));
  return { rows, columns, claims, personMap, teamMap, orgUnitMap, memberships };
}

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
const asJson = (value: unknown) => sql`${JSON.stringify(value)}::jsonb`;
/** Rows a statement changed: an import that changes nothing and repeats the last file is not recorded again. */
const changed = async (tx: Tx, query: ReturnType<typeof sql>) => (await tx.execute(query)).rowCount ?? 0;

/** Step 1: org units by slug; a name is changed only when the file has the column. */
export function upsertOrgUnits(tx: Tx, tenantId: string, register: CheckedRegister): Promise<number> {
  return changed(tx, sql`
    insert into org_units (tenant_id, slug, name)
    select ${tenantId}::uuid, x.slug, coalesce(x.name, x.slug)
    from jsonb_to_recordset(${asJson([...register.orgUnitMap].map(([slug, name]) => ({ slug, name })))}) as x(slug text, name text)
    on conflict (tenant_id, slug) do update set name = excluded.name, updated_at = now()
    where ${register.columns.has('org_unit_name')} and org_units.name is distinct from excluded.name`);
}

/** Step 2: teams by slug; optional columns absent from the file keep their stored values. */
export function upsertTeams(tx: Tx, tenantId: string, register: CheckedRegister): Promise<number> {
  const keep = (column: string, optional: string) => sql.raw(register.columns.has(optional) ? `excluded.${column}` : `teams.${column}`);
  return changed(tx, sql`
    insert into teams (tenant_id, slug, name, external_ref, cost_centre_code, org_unit_id, supplier_name, delivery_model, location_country)
    select ${tenantId}::uuid, x.slug, x.name, x.external_ref, x.cost_centre_code, o.id, x.supplier_name, x.delivery_model, x.location_country
    from jsonb_to_recordset(${asJson([...register.teamMap.values()])})
      as x(slug text, name text, external_ref text, cost_centre_code text, org_unit_slug text, supplier_name text, delivery_model text, location_country text)
    left join org_units o on o.tenant_id = ${tenantId}::uuid and o.slug = x.org_unit_slug
    on conflict (tenant_id, slug) do update set
      name = excluded.name, external_ref = excluded.external_ref, cost_centre_code = excluded.cost_centre_code, org_unit_id = excluded.org_unit_id,
      supplier_name = ${keep('supplier_name', 'team_supplier_name')}, delivery_model = ${keep('delivery_model', 'team_delivery_model')},
      location_country = ${keep('location_country', 'team_location_country')}, updated_at = now()
    where (teams.name, teams.external_ref, teams.cost_centre_code, teams.org_unit_id, teams.supplier_name, teams.delivery_model, teams.location_country)
      is distinct from (excluded.name, excluded.external_ref, excluded.cost_centre_code, excluded.org_unit_id,
        ${keep('supplier_name', 'team_supplier_name')}, ${keep('delivery_model', 'team_delivery_model')}, ${keep('location_country', 'team_location_country')})`);
}

/** Step 3: people by external_ref. */
export function upsertPeople(tx: Tx, tenantId: string, register: CheckedRegister): Promise<number> {
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

/** Step 4: the identities the register speaks for: e-mail always, usernames when it has the column. */
export function applyIdentities(tx: Tx, tenantId: string, register: CheckedRegister): Promise<number> {
  const kinds: IdentityKind[] = register.columns.has('codehost_usernames') ? ['email', 'codehost_username'] : ['email'];
  const wanted: WantedIdentity[] = [...register.claims].map(([key, c]) => ({ external_ref: c.ref, kind: key.split('\u0000')[0] as IdentityKind, value: key.split('\u0000')[1] as string }));
  return applyRegisterIdentities(tx, tenantId, kinds, [...register.personMap.keys()], wanted);
}

/** Step 5: register memberships become exactly the file's; manual ones on the same pair become register ones. */
export async function replaceRegisterMemberships(tx: Tx, tenantId: string, register: CheckedRegister): Promise<number> {
  // A keyed temporary table, not a CTE: the planner cannot size a JSON recordset, and a
  // nested-loop anti-join over 50,000 memberships took minutes.
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

/** Step 6: the import is recorded, unless it changed nothing and repeats the latest file. */
async function recordImport(tx: Tx, tenantId: string, register: CheckedRegister, importedBy: string, hash: string, changes: number): Promise<RegisterImportResult> {
  const { rows, orgUnitMap, teamMap, personMap } = register;
  const counts = { rows: rows.length, orgUnits: orgUnitMap.size, teams: teamMap.size, people: personMap.size, memberships: rows.length };
  const [latest] = await tx.select().from(registerImports).where(eq(registerImports.tenantId, tenantId)).orderBy(desc(registerImports.importedAt)).limit(1);
  if (latest && changes === 0 && latest.fileSha256 === hash) return { recorded: false, import: latest, counts };
  const [recorded] = await tx.insert(registerImports).values({ tenantId, rowCount: rows.length, importedBy, fileSha256: hash }).returning();
  return { recorded: true, import: recorded as RegisterImportRecord, counts };
}

/**
 * Validates and applies a register file for the actor's tenant (the owner's request, the
 * `register.import` job it queued, or `register:import`). Throws a 400 AppError listing every problem.
 * The tenant's import lock is taken first: validation reads the stored identities, so it must see
 * what a concurrent import of the same tenant committed, not what was there before it.
 */
export async function importRegister(db: Db, actor: Actor, csvText: string): Promise<RegisterImportResult> {
  authorize(actor, 'register.import');
  const { tenantId } = actor;
  const importedBy = authorOf(actor);
  return db.transaction(async (tx) => {
    // Two imports of one tenant at once would interleave their membership replacement.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`register:${tenantId}`}, 0))`);
    const register = await checkRegister(tx, tenantId, csvText);
    let changes = 0;
    for (const step of [upsertOrgUnits, upsertTeams, upsertPeople, applyIdentities, replaceRegisterMemberships]) changes += await step(tx, tenantId, register);
    return recordImport(tx, tenantId, register, importedBy, sha256Hex(csvText), changes);
  });
}

/** The tenant's register imports, newest first; the first is the headcount source. */
export async function listRegisterImports(db: Db, tenantId: string, paging: { page: number; perPage: number }): Promise<{ rows: RegisterImportRecord[]; total: number }> {
  const where = eq(registerImports.tenantId, tenantId);
  const [rows, [total]] = await Promise.all([
    db.select().from(registerImports).where(where).orderBy(desc(registerImports.importedAt), desc(registerImports.id))
      .limit(paging.perPage).offset((paging.page - 1) * paging.perPage),
    db.select({ n: count() }).from(registerImports).where(where),
  ]);
  return { rows, total: total?.n ?? 0 };
}
