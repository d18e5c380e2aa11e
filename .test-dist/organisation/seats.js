import { and, desc, eq, sql } from "drizzle-orm";
import { authorOf } from "../auth/principal.js";
import { authorize } from "../auth/policies.js";
import { people, personIdentities, seatImports } from "../db/schema/index.js";
import { isIsoDate, ProblemList, readCsv, sha256Hex, todayUtc } from "./csvImport.js";
const SEAT_COLUMNS = ["external_ref", "email", "tool", "assigned_on", "revoked_on"];
const SEAT_MAX_ROWS = 5e4;
async function importSeats(db, actor, csvText, now = /* @__PURE__ */ new Date()) {
  authorize(actor, "seats.import");
  const { tenantId } = actor;
  const importedBy = authorOf(actor);
  const problems = new ProblemList();
  const { rows, columns } = readCsv(csvText, { required: ["tool", "assigned_on"], optional: ["external_ref", "email", "revoked_on"], maxRows: SEAT_MAX_ROWS }, problems);
  const named = columns.has("external_ref") || columns.has("email");
  if (rows.length > 0 && !named) problems.add(1, "external_ref", "A column external_ref or email is required to name the person");
  const readable = named ? rows : [];
  const { byRef, byEmail } = readable.length > 0 ? await personIndex(db, tenantId) : { byRef: /* @__PURE__ */ new Map(), byEmail: /* @__PURE__ */ new Map() };
  const today = todayUtc(now);
  const seen = /* @__PURE__ */ new Map();
  const wanted = [];
  for (const { line, values: v } of readable) {
    const bad = (column, message) => problems.add(line, column, message);
    const ref = v.external_ref ?? "";
    const email = (v.email ?? "").toLowerCase();
    let personId;
    if (ref !== "") {
      personId = byRef.get(ref);
      if (!personId) bad("external_ref", `No person with external_ref "${ref}"`);
    } else if (email !== "") {
      personId = byEmail.get(email);
      if (!personId) bad("email", `No person with e-mail "${v.email}"`);
    } else bad(columns.has("external_ref") ? "external_ref" : "email", "Name the person by external_ref or email");
    const tool = v.tool;
    if (tool === "") bad("tool", "Required");
    else if (tool.length > 100) bad("tool", "At most 100 characters");
    const assigned = v.assigned_on;
    if (!isIsoDate(assigned)) bad("assigned_on", assigned === "" ? "Required" : "Must be a date YYYY-MM-DD from 1970 on");
    else if (assigned > today) bad("assigned_on", `Must not be after today (${today} UTC)`);
    const revoked = v.revoked_on ?? "";
    if (revoked !== "" && !isIsoDate(revoked)) bad("revoked_on", "Must be a date YYYY-MM-DD from 1970 on, or empty");
    else if (revoked !== "" && isIsoDate(assigned) && revoked < assigned) bad("revoked_on", "Must not be before assigned_on");
    if (!personId || tool === "" || !isIsoDate(assigned)) continue;
    const key = `${personId}\0${tool}\0${assigned}`;
    if (seen.has(key)) bad("assigned_on", `The same seat (person, tool, assigned_on) is on line ${seen.get(key)}`);
    seen.set(key, line);
    wanted.push({ person_id: personId, tool, assigned_on: assigned, revoked_on: revoked === "" ? null : revoked });
  }
  if (!problems.empty) problems.reject("Seat file");
  const hash = sha256Hex(csvText);
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`seats:${tenantId}`}, 0))`);
    const [latest] = await tx.select().from(seatImports).where(eq(seatImports.tenantId, tenantId)).orderBy(desc(seatImports.importedAt)).limit(1);
    const [draft] = await tx.insert(seatImports).values({ tenantId, rowCount: rows.length, importedBy, fileSha256: hash }).returning();
    const result = await tx.execute(sql`
      insert into seats (tenant_id, person_id, tool, assigned_on, revoked_on, seat_import_id)
      select ${tenantId}::uuid, x.person_id, x.tool, x.assigned_on, x.revoked_on, ${draft.id}::uuid
      from jsonb_to_recordset(${JSON.stringify(wanted)}::jsonb) as x(person_id uuid, tool text, assigned_on date, revoked_on date)
      on conflict (tenant_id, person_id, tool, assigned_on) do update set revoked_on = excluded.revoked_on, seat_import_id = excluded.seat_import_id, updated_at = now()
      where seats.revoked_on is distinct from excluded.revoked_on`);
    const counts = { rows: rows.length, people: new Set(wanted.map((w) => w.person_id)).size };
    if ((result.rowCount ?? 0) === 0 && latest?.fileSha256 === hash) {
      await tx.delete(seatImports).where(eq(seatImports.id, draft.id));
      return { recorded: false, import: latest, counts };
    }
    return { recorded: true, import: draft, counts };
  });
}
async function personIndex(db, tenantId) {
  const [rows, identities] = await Promise.all([
    db.select({ id: people.id, externalRef: people.externalRef, email: people.email }).from(people).where(eq(people.tenantId, tenantId)),
    db.select({ personId: personIdentities.personId, value: personIdentities.value }).from(personIdentities).where(and(eq(personIdentities.tenantId, tenantId), eq(personIdentities.kind, "email")))
  ]);
  const byRef = new Map(rows.map((p) => [p.externalRef, p.id]));
  const byEmail = /* @__PURE__ */ new Map();
  for (const p of rows) if (p.email) byEmail.set(p.email.toLowerCase(), p.id);
  for (const i of identities) byEmail.set(i.value, i.personId);
  return { byRef, byEmail };
}
export {
  SEAT_COLUMNS,
  SEAT_MAX_ROWS,
  importSeats
};
