/**
 * The writes of a pull. Each writes its rows and the source's cursor in one transaction, so a run
 * that dies between two pages resumes exactly after the last page it wrote, and a page is never
 * counted twice. A day pulled again is deleted before its first page is written: its rows are the
 * report's, not a sum over pulls.
 */
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { aiVendorCommits, aiVendorDays, aiVendorSources, personIdentities, seats, type AiVendorSource } from '../db/schema/index.js';
import { addRow, sumByPerson, type DayRow } from './rows.js';
import type { CursorCommit } from './cursor.js';
import type { CopilotSeat } from './copilot.js';

export type SourceRow = typeof aiVendorSources.$inferSelect;
type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export async function sourceOf(db: Db, tenantId: string, source: AiVendorSource): Promise<SourceRow | null> {
  const [row] = await db.select().from(aiVendorSources).where(and(eq(aiVendorSources.tenantId, tenantId), eq(aiVendorSources.source, source)));
  return row ?? null;
}

export async function sourcesOf(db: Db, tenantId?: string): Promise<SourceRow[]> {
  return db.select().from(aiVendorSources).where(tenantId === undefined ? undefined : eq(aiVendorSources.tenantId, tenantId)).orderBy(aiVendorSources.createdAt);
}

/** One pull of a source at a time: the lease is taken when free, expired, or already this job's. */
export async function takeLease(db: Db, id: string, jobId: string, seconds: number): Promise<SourceRow | null> {
  const [row] = await db
    .update(aiVendorSources)
    .set({ leaseJob: jobId, leaseUntil: sql`now() + make_interval(secs => ${seconds})`, lastRunAt: sql`now()` })
    .where(and(eq(aiVendorSources.id, id), sql`(${aiVendorSources.leaseUntil} IS NULL OR ${aiVendorSources.leaseUntil} < now() OR ${aiVendorSources.leaseJob} = ${jobId})`))
    .returning();
  return row ?? null;
}

export async function finishRun(db: Db, id: string, jobId: string, result: { error: string | null; outcome?: Record<string, unknown>; notice?: string | null }): Promise<void> {
  await db
    .update(aiVendorSources)
    .set({
      leaseJob: null,
      leaseUntil: null,
      updatedAt: sql`now()`,
      ...(result.error === null
        ? { lastSuccessAt: sql`now()`, lastError: null, lastErrorAt: null, lastOutcome: result.outcome ?? null }
        : { lastError: result.error.slice(0, 500), lastErrorAt: sql`now()` }),
      ...(result.notice !== undefined ? { notice: result.notice } : {}),
    })
    .where(and(eq(aiVendorSources.id, id), eq(aiVendorSources.leaseJob, jobId)));
}

async function saveCursor(tx: Tx, id: string, cursor: Record<string, unknown>): Promise<void> {
  await tx.update(aiVendorSources).set({ cursor, updatedAt: sql`now()` }).where(eq(aiVendorSources.id, id));
}

const valuesOf = (tenantId: string, source: AiVendorSource, r: DayRow) => ({
  tenantId, source, day: r.day, personKey: r.personKey, personEmail: r.personEmail, personLogin: r.personLogin,
  sessions: r.sessions, requests: r.requests, linesAdded: r.linesAdded, linesRemoved: r.linesRemoved, linesSuggested: r.linesSuggested,
  editsAccepted: r.editsAccepted, editsRejected: r.editsRejected, commits: r.commits, pullRequests: r.pullRequests,
  inputTokens: r.inputTokens, outputTokens: r.outputTokens, cacheReadTokens: r.cacheReadTokens, cacheWriteTokens: r.cacheWriteTokens,
  tokensByModel: r.tokensByModel, details: r.details,
});

const camel = (column: string) => column.split('_').map((w, i) => (i === 0 ? w : w[0]!.toUpperCase() + w.slice(1))).join('');

const REPLACE = Object.fromEntries(
  ['person_email', 'person_login', 'sessions', 'requests', 'lines_added', 'lines_removed', 'lines_suggested', 'edits_accepted', 'edits_rejected', 'commits', 'pull_requests',
    'input_tokens', 'output_tokens', 'cache_read_tokens', 'cache_write_tokens', 'tokens_by_model', 'details']
    .map((c) => [camel(c), sql`excluded.${sql.identifier(c)}`]),
);

/**
 * One page of person-days. `replaceDays`: the days whose stored rows this page starts over (the
 * first page of a day); rows of later pages are added to the page's earlier ones of the same
 * person (a Claude Code user in two terminals). The cursor is saved with them.
 */
export async function writeDays(db: Db, s: SourceRow, page: { rows: DayRow[]; replaceDays: string[]; cursor: Record<string, unknown> }): Promise<number> {
  return db.transaction(async (tx) => {
    if (page.replaceDays.length > 0) {
      await tx.delete(aiVendorDays).where(and(eq(aiVendorDays.tenantId, s.tenantId), eq(aiVendorDays.source, s.source), inArray(aiVendorDays.day, page.replaceDays)));
    }
    let rows = sumByPerson(page.rows);
    if (rows.length > 0) {
      const days = [...new Set(rows.map((r) => r.day))];
      const stored = await tx
        .select()
        .from(aiVendorDays)
        .where(and(eq(aiVendorDays.tenantId, s.tenantId), eq(aiVendorDays.source, s.source), inArray(aiVendorDays.day, days), inArray(aiVendorDays.personKey, rows.map((r) => r.personKey))));
      const prior = new Map(stored.map((p) => [`${p.day}\u0000${p.personKey}`, p]));
      rows = rows.map((r) => {
        const p = prior.get(`${r.day}\u0000${r.personKey}`);
        return p ? addRow({ ...r, ...p, personEmail: p.personEmail, personLogin: p.personLogin, tokensByModel: p.tokensByModel, details: p.details }, r) : r;
      });
      for (let i = 0; i < rows.length; i += 500) {
        await tx
          .insert(aiVendorDays)
          .values(rows.slice(i, i + 500).map((r) => valuesOf(s.tenantId, s.source, r)))
          .onConflictDoUpdate({ target: [aiVendorDays.tenantId, aiVendorDays.source, aiVendorDays.day, aiVendorDays.personKey], set: { ...REPLACE, updatedAt: sql`now()` } });
      }
    }
    await saveCursor(tx, s.id, page.cursor);
    return rows.length;
  });
}

/** Per-commit AI lines, replaced by (source, sha): a commit reported again is the same row. */
export async function writeCommits(db: Db, s: SourceRow, commits: CursorCommit[], cursor: Record<string, unknown>): Promise<void> {
  await db.transaction(async (tx) => {
    const bySha = new Map(commits.map((c) => [c.sha, c]));
    const values = [...bySha.values()].map((c) => ({
      tenantId: s.tenantId, source: s.source, sha: c.sha, repo: c.repo, branch: c.branch, personEmail: c.personEmail,
      committedAt: c.committedAt ? new Date(c.committedAt) : null,
      aiLinesAdded: c.tabLinesAdded + c.composerLinesAdded, aiLinesDeleted: c.aiLinesDeleted,
      tabLinesAdded: c.tabLinesAdded, composerLinesAdded: c.composerLinesAdded, nonAiLinesAdded: c.nonAiLinesAdded,
      totalLinesAdded: c.totalLinesAdded, totalLinesDeleted: c.totalLinesDeleted,
    }));
    for (let i = 0; i < values.length; i += 500) {
      await tx
        .insert(aiVendorCommits)
        .values(values.slice(i, i + 500))
        .onConflictDoUpdate({
          target: [aiVendorCommits.tenantId, aiVendorCommits.source, aiVendorCommits.sha],
          set: Object.fromEntries(
            ['repo', 'branch', 'person_email', 'committed_at', 'ai_lines_added', 'ai_lines_deleted', 'tab_lines_added', 'composer_lines_added', 'non_ai_lines_added', 'total_lines_added', 'total_lines_deleted']
              .map((c) => [camel(c), sql`excluded.${sql.identifier(c)}`]),
          ),
        });
    }
    await saveCursor(tx, s.id, cursor);
  });
}

/**
 * Copilot's seat list onto the seats table: a holder matched by code-host username keeps (or
 * gets) an open `copilot` seat with the vendor's last activity; an open seat from an earlier
 * listing whose holder is gone is revoked today. Unmatched logins are counted, not stored.
 */
export async function writeCopilotSeats(db: Db, tenantId: string, listed: CopilotSeat[], today: string): Promise<{ matched: number; unmatched: number; revoked: number }> {
  return db.transaction(async (tx) => {
    const logins = [...new Set(listed.map((s) => s.login))];
    const ids = logins.length === 0 ? [] : await tx
      .select({ personId: personIdentities.personId, value: personIdentities.value })
      .from(personIdentities)
      .where(and(eq(personIdentities.tenantId, tenantId), eq(personIdentities.kind, 'codehost_username'), inArray(personIdentities.value, logins)));
    const personOf = new Map(ids.map((i) => [i.value, i.personId]));
    const held = new Set<string>();
    let matched = 0;
    for (const seat of listed) {
      const personId = personOf.get(seat.login);
      if (!personId || held.has(personId)) continue;
      held.add(personId);
      matched++;
      const lastActivityAt = seat.lastActivityAt ? new Date(seat.lastActivityAt) : null;
      const [open] = await tx
        .select({ id: seats.id })
        .from(seats)
        .where(and(eq(seats.tenantId, tenantId), eq(seats.personId, personId), sql`lower(${seats.tool}) = 'copilot'`, isNull(seats.revokedOn)))
        .limit(1);
      if (open) {
        await tx.update(seats).set({ lastActivityAt, externalLogin: seat.login, updatedAt: sql`now()` }).where(eq(seats.id, open.id));
      } else {
        const assignedOn = (seat.createdAt ?? `${today}T00:00:00Z`).slice(0, 10);
        await tx
          .insert(seats)
          .values({ tenantId, personId, tool: 'copilot', assignedOn, source: 'copilot', lastActivityAt, externalLogin: seat.login })
          .onConflictDoUpdate({ target: [seats.tenantId, seats.personId, seats.tool, seats.assignedOn], set: { revokedOn: null, lastActivityAt, externalLogin: seat.login, updatedAt: sql`now()` } });
      }
    }
    const gone = await tx
      .update(seats)
      .set({ revokedOn: today, updatedAt: sql`now()` })
      .where(and(eq(seats.tenantId, tenantId), eq(seats.source, 'copilot'), isNull(seats.revokedOn), held.size === 0 ? undefined : sql`${seats.personId} NOT IN (${sql.join([...held].map((p) => sql`${p}::uuid`), sql`, `)})`))
      .returning({ id: seats.id });
    return { matched, unmatched: logins.length - matched, revoked: gone.length };
  });
}
