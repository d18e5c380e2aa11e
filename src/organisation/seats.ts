/**
 * AI-tool seat import: one CSV row per seat, naming its person by `external_ref` or `email`.
 * All-or-nothing like the register; seats are upserted on (person, tool, assigned_on), so a file
 * re-imported changes nothing and a later file can add a revocation date.
 */
import { and, desc, eq, sql } from 'drizzle-orm';
import { authorOf, type Actor } from '../auth/principal.js';
import { authorize } from '../auth/policies.js';
import type { Db } from '../db/client.js';
import { people, personIdentities, seatImports } from '../db/schema/index.js';
import { isIsoDate, ProblemList, readCsv, sha256Hex, todayUtc } from './csvImport.js';

export const SEAT_COLUMNS = ['external_ref', 'email', 'tool', 'assigned_on', 'revoked_on'] as const;
export const SEAT_MAX_ROWS = 50_000;

export interface SeatImportRecord { id: string; importedAt: Date; rowCount: number; importedBy: string; fileSha256: string }
export interface SeatImportResult { recorded: boolean; import: SeatImportRecord; counts: { rows: number; people: number } }

/** Validates and applies a seat file for the actor's tenant. Throws a 400 AppError listing every problem. */
export async function importSeats(db: Db, actor: Actor, csvText: string, now = new Date()): Promise<SeatImportResult> {
  authorize(actor, 'seats.import');
  const { tenantId } = actor;
  const importedBy = authorOf(actor);
  const problems = new ProblemList();
  const { rows, columns } = readCsv(csvText, { required: ['tool', 'assigned_on'], optional: ['external_ref', 'email', 'revoked_on'], maxRows: SEAT_MAX_ROWS }, problems);
  // readCsv gives no rows when the header is wrong; a header without a person column makes every row unreadable.
  const named = columns.has('external_ref') || columns.has('email');
  if (rows.length > 0 && !named) problems.add(1, 'external_ref', 'A column external_ref or email is required to name the person');
  const readable = named ? rows : [];

  const { byRef, byEmail } = readable.length > 0 ? await personIndex(db, tenantId) : { byRef: new Map<string, string>(), byEmail: new Map<string, string>() };
  const today = todayUtc(now);
  const seen = new Map<string, number>();
  const wanted: { person_id: string; tool: string; assigned_on: string; revoked_on: string | null }[] = [];
  for (const { line, values: v } of readable) {
    const bad = (column: string, message: string) => problems.add(line, column, message);
    const ref = v.external_ref ?? '';
    const email = (v.email ?? '').toLowerCase();
    let personId: string | undefined;
    if (ref !== '') {
      personId = byRef.get(ref);
      if (!personId) bad('external_ref', `No person with external_ref "${ref}"`);
    } else if (email !== '') {
      personId = byEmail.get(email);
      if (!personId) bad('email', `No person with e-mail "${v.email}"`);
    } else bad(columns.has('external_ref') ? 'external_ref' : 'email', 'Name the person by external_ref or email');
    const tool = v.tool as string;
    if (tool === '') bad('tool', 'Required');
    else if (tool.length > 100) bad('tool', 'At most 100 characters');
    const assigned = v.assigned_on as string;
    if (!isIsoDate(assigned)) bad('assigned_on', assigned === '' ? 'Required' : 'Must be a date YYYY-MM-DD from 1970 on');
    else if (assigned > today) bad('assigned_on', `Must not be after today (${today} UTC)`);
    const revoked = v.revoked_on ?? '';
    if (revoked !== '' && !isIsoDate(revoked)) bad('revoked_on', 'Must be a date YYYY-MM-DD from 1970 on, or empty');
    else if (revoked !== '' && isIsoDate(assigned) && revoked < assigned) bad('revoked_on', 'Must not be before assigned_on');
    if (!personId || tool === '' || !isIsoDate(assigned)) continue;
    const key = `${personId}\u0000${tool}\u0000${assigned}`;
    if (seen.has(key)) bad('assigned_on', `The same seat (person, tool, assigned_on) is on line ${seen.get(key)}`);
    seen.set(key, line);
    wanted.push({ person_id: personId, tool, assigned_on: assigned, revoked_on: revoked === '' ? null : revoked });
  }
  if (!problems.empty) problems.reject('Seat file');

  const hash = sha256Hex(csvText);
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`seats:${tenantId}`}, 0))`);
    const [latest] = await tx.select().from(seatImports).where(eq(seatImports.tenantId, tenantId)).orderBy(desc(seatImports.importedAt)).limit(1);
    const [draft] = await tx.insert(seatImports).values({ tenantId, rowCount: rows.length, importedBy, fileSha256: hash }).returning();
    const result = await tx.execute(sql`
      insert into seats (tenant_id, person_id, tool, assigned_on, revoked_on, seat_import_id)
      select ${tenantId}::uuid, x.person_id, x.tool, x.assigned_on, x.revoked_on, ${draft!.id}::uuid
      from jsonb_to_recordset(${JSON.stringify(wanted)}::jsonb) as x(person_id uuid, tool text, assigned_on date, revoked_on date)
      on conflict (tenant_id, person_id, tool, assigned_on) do update set revoked_on = excluded.revoked_on, seat_import_id = excluded.seat_import_id, updated_at = now()
      where seats.revoked_on is distinct from excluded.revoked_on`);
    const counts = { rows: rows.length, people: new Set(wanted.map((w) => w.person_id)).size };
    if ((result.rowCount ?? 0) === 0 && latest?.fileSha256 === hash) {
      // Nothing changed and this file is already the latest: the draft record is not kept.
      await tx.delete(seatImports).where(eq(seatImports.id, draft!.id));
      return { recorded: false, import: latest, counts };
    }
    return { recorded: true, import: draft as SeatImportRecord, counts };
  });
}

/** external_ref → person id, and every known e-mail (register e-mail or identity) → person id. */
async function personIndex(db: Db, tenantId: string): Promise<{ byRef: Map<string, string>; byEmail: Map<string, string> }> {
  const [rows, identities] = await Promise.all([
    db.select({ id: people.id, externalRef: people.externalRef, email: people.email }).from(people).where(eq(people.tenantId, tenantId)),
    db.select({ personId: personIdentities.personId, value: personIdentities.value }).from(personIdentities)
      .where(and(eq(personIdentities.tenantId, tenantId), eq(personIdentities.kind, 'email'))),
  ]);
  const byRef = new Map(rows.map((p) => [p.externalRef, p.id]));
  const byEmail = new Map<string, string>();
  for (const p of rows) if (p.email) byEmail.set(p.email.toLowerCase(), p.id);
  for (const i of identities) byEmail.set(i.value, i.personId);
  return { byRef, byEmail };
}
