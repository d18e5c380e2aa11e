import { and, eq, inArray, ne, sql } from "drizzle-orm";
import { people, personIdentities } from "../db/schema/index.js";
import { AppError, notFound } from "../errors.js";
import { authorize } from "../auth/policies.js";
const CODEHOST_USERNAME = /^[A-Za-z0-9](?:[A-Za-z0-9._-]{0,99})$/;
const claimKey = (kind, value) => `${kind}\0${value}`;
async function checkManualIdentities(db, tenantId, claims, problems) {
  if (claims.size === 0) return;
  const pairs = [...claims.keys()].map((k) => k.split("\0"));
  const taken = await db.select({ kind: personIdentities.kind, value: personIdentities.value, externalRef: people.externalRef }).from(personIdentities).innerJoin(people, eq(people.id, personIdentities.personId)).where(and(
    eq(personIdentities.tenantId, tenantId),
    eq(personIdentities.source, "manual"),
    sql`(${personIdentities.kind}, ${personIdentities.value}) in (select x->>0, x->>1 from jsonb_array_elements(${JSON.stringify(pairs)}::jsonb) x)`
  ));
  for (const { kind, value, externalRef } of taken) {
    const claim = claims.get(claimKey(kind, value));
    if (claim.ref !== externalRef) problems.add(claim.line, claim.column, `"${value}" is a manual identity of person "${externalRef}"`);
  }
}
async function applyRegisterIdentities(tx, tenantId, kinds, refs, wanted) {
  await tx.execute(sql`create temp table reg_identity_people (person_id uuid primary key) on commit drop`);
  await tx.execute(sql`create temp table reg_identities (person_id uuid not null, kind text, value text, primary key (kind, value)) on commit drop`);
  await tx.execute(sql`
    insert into reg_identity_people (person_id)
    select p.id from people p where p.tenant_id = ${tenantId}::uuid and p.external_ref in (select jsonb_array_elements_text(${JSON.stringify(refs)}::jsonb))`);
  await tx.execute(sql`
    insert into reg_identities (person_id, kind, value)
    select p.id, x.kind, x.value from jsonb_to_recordset(${JSON.stringify(wanted)}::jsonb) as x(external_ref text, kind text, value text)
    join people p on p.tenant_id = ${tenantId}::uuid and p.external_ref = x.external_ref`);
  await tx.execute(sql`analyze reg_identity_people`);
  await tx.execute(sql`analyze reg_identities`);
  const removed = await tx.execute(sql`
    delete from person_identities i
    where i.tenant_id = ${tenantId}::uuid and i.source = 'register'
      and i.kind in (select jsonb_array_elements_text(${JSON.stringify(kinds)}::jsonb))
      and (exists (select 1 from reg_identity_people rp where rp.person_id = i.person_id)
        or exists (select 1 from reg_identities w where w.kind = i.kind and w.value = i.value))
      and not exists (select 1 from reg_identities w where w.kind = i.kind and w.value = i.value and w.person_id = i.person_id)`);
  const added = await tx.execute(sql`
    insert into person_identities (tenant_id, person_id, kind, value, source)
    select ${tenantId}::uuid, w.person_id, w.kind, w.value, 'register' from reg_identities w
    on conflict (tenant_id, kind, value) do nothing`);
  return (removed.rowCount ?? 0) + (added.rowCount ?? 0);
}
async function setManualIdentities(db, actor, personId, identities) {
  authorize(actor, "person.manage");
  const { tenantId } = actor;
  const wanted = [...new Map(identities.map((i) => [claimKey(i.kind, i.value.toLowerCase()), { kind: i.kind, value: i.value.toLowerCase() }])).values()];
  await db.transaction(async (tx) => {
    const [person] = await tx.select({ id: people.id }).from(people).where(and(eq(people.tenantId, tenantId), eq(people.id, personId))).for("update");
    if (!person) throw notFound("Person");
    for (const kind of ["email", "codehost_username"]) {
      const values = wanted.filter((w) => w.kind === kind).map((w) => w.value);
      if (values.length === 0) continue;
      const clash = await tx.select({ value: personIdentities.value, externalRef: people.externalRef }).from(personIdentities).innerJoin(people, eq(people.id, personIdentities.personId)).where(and(eq(personIdentities.tenantId, tenantId), eq(personIdentities.kind, kind), inArray(personIdentities.value, values), ne(personIdentities.personId, personId)));
      if (clash.length > 0) {
        throw new AppError("conflict", `"${clash[0].value}" already identifies person "${clash[0].externalRef}"`);
      }
    }
    await tx.delete(personIdentities).where(and(eq(personIdentities.tenantId, tenantId), eq(personIdentities.personId, personId), eq(personIdentities.source, "manual")));
    if (wanted.length > 0) {
      await tx.insert(personIdentities).values(wanted.map((w) => ({ tenantId, personId, kind: w.kind, value: w.value, source: "manual" }))).onConflictDoNothing();
    }
  });
}
export {
  CODEHOST_USERNAME,
  applyRegisterIdentities,
  checkManualIdentities,
  claimKey,
  setManualIdentities
};
