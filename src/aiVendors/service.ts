/**
 * Settings › AI tools: an owner saves a vendor's admin key (tested against the vendor first, then
 * sealed under a key derived from OAUTH_ENCRYPTION_KEY and bound to the tenant and source; never
 * returned), and the pulls that turn the vendor's daily reports into person-days, per-commit AI
 * lines and Copilot seats (docs/ai-vendor-reports.md).
 */
import { and, eq, isNull, sql } from 'drizzle-orm';
import { derive, open, seal } from '../auth/crypto.js';
import { authorize } from '../auth/policies.js';
import type { TenantPrincipal } from '../auth/principal.js';
import type { Config } from '../config/index.js';
import type { AppContext } from '../context.js';
import type { Db } from '../db/client.js';
import { aiVendorSources, codehostInstallations, type AiVendorSource } from '../db/schema/index.js';
import { AppError } from '../errors.js';
import { claudePage, claudeTest } from './claude.js';
import { copilotDay, copilotSeats, copilotTest, installationAccess, tokenAccess, type GithubGet } from './copilot.js';
import { CURSOR_MAX_RANGE_DAYS, CursorClient } from './cursor.js';
import { VendorKeyRefused, VendorRateLimited, VendorUnavailable, type Pace } from './http.js';
import { addDays } from './rows.js';
import type { SaveSourceBody } from './schemas.js';
import { finishRun, sourceOf, takeLease, writeCommits, writeCopilotSeats, writeDays, type SourceRow } from './store.js';

export const SOURCE_NAMES: Record<AiVendorSource, string> = { claude_code_analytics: 'Claude Code Analytics', copilot: 'GitHub Copilot', cursor: 'Cursor' };

const sealKey = (config: Pick<Config, 'oauthEncryptionKey'>) => derive(config.oauthEncryptionKey, 'ai-vendor-keys');
const aadOf = (tenantId: string, source: AiVendorSource) => `ai_vendor_sources:${tenantId}:${source}`;

export function keyOf(config: Pick<Config, 'oauthEncryptionKey'>, row: SourceRow): string | null {
  if (row.keySealed === null) return null;
  try {
    return open(sealKey(config), row.keySealed, aadOf(row.tenantId, row.source));
  } catch {
    throw new VendorKeyRefused(0, 'The stored key cannot be opened with this OAUTH_ENCRYPTION_KEY: save the key again');
  }
}

export interface PullDeps {
  jobId: string;
  pace: Pace;
  signal: AbortSignal;
  now?: () => Date;
}

const today = (now: Date) => now.toISOString().slice(0, 10);
const orgOf = (row: Pick<SourceRow, 'settings'>) => (typeof row.settings.org === 'string' ? row.settings.org : null);

/** The organisation's installation of the code-host application, when one is linked to this tenant. */
async function installationFor(db: Db, tenantId: string, org: string): Promise<number | null> {
  const [row] = await db
    .select({ id: codehostInstallations.installationId })
    .from(codehostInstallations)
    .where(and(eq(codehostInstallations.tenantId, tenantId), sql`lower(${codehostInstallations.accountLogin}) = lower(${org})`, isNull(codehostInstallations.deletedAt), isNull(codehostInstallations.suspendedAt)))
    .limit(1);
  return row?.id ?? null;
}

async function githubAccess(app: AppContext, tenantId: string, org: string, key: string | null, o: { pace: Pace; signal: AbortSignal }): Promise<GithubGet | null> {
  if (key !== null) return tokenAccess(app.config.aiVendors.copilotApiUrl, key, o);
  const installation = app.config.codehostApp ? await installationFor(app.database.db, tenantId, org) : null;
  return installation !== null && app.config.codehostApp ? installationAccess(app.config.codehostApp, installation, o) : null;
}

/** Saves a source after a test call the vendor answers; refuses a key the vendor refuses (400, on `apiKey`). */
export async function saveSource(app: AppContext, principal: TenantPrincipal, source: AiVendorSource, body: SaveSourceBody, o: { pace: Pace; signal: AbortSignal }): Promise<SourceRow> {
  authorize(principal, 'ai.manage');
  const { db } = app.database;
  const existing = await sourceOf(db, principal.tenantId, source);
  const org = source === 'copilot' ? (body.org ?? (existing ? orgOf(existing) : null)) : null;
  const orgChanged = existing !== null && source === 'copilot' && org !== orgOf(existing);
  // A saved key belongs to its organisation: a new organisation needs its key given again (or the installation).
  const key = body.apiKey ?? (existing && !orgChanged ? keyOf(app.config, existing) : null);
  if (source === 'copilot' && org === null) throw new AppError('validation_failed', 'Validation failed', [{ path: 'org', message: 'Name the GitHub organisation whose Copilot reports to read' }]);
  if (source !== 'copilot' && key === null) throw new AppError('validation_failed', 'Validation failed', [{ path: 'apiKey', message: `${SOURCE_NAMES[source]} needs its admin API key` }]);
  try {
    const vendor = { ...o };
    if (source === 'claude_code_analytics') await claudeTest(app.config.aiVendors.anthropicAdminApiUrl, key!, addDays(today(new Date()), -1), vendor);
    else if (source === 'cursor') await new CursorClient(app.config.aiVendors.cursorApiUrl, key!, vendor).test();
    else {
      const get = await githubAccess(app, principal.tenantId, org!, key, vendor);
      if (get === null) throw new AppError('validation_failed', 'Validation failed', [{ path: 'apiKey', message: `Give a token with manage_billing:copilot, or link the code-host application's installation on ${org} first` }]);
      await copilotTest(get, org!);
    }
  } catch (error) {
    if (error instanceof VendorKeyRefused) throw new AppError('validation_failed', 'Validation failed', [{ path: error.status === 404 && source === 'copilot' ? 'org' : 'apiKey', message: error.message }]);
    if (error instanceof VendorUnavailable || error instanceof VendorRateLimited) throw new AppError('unavailable', `The key could not be tested: ${error.message}`);
    throw error;
  }
  const settings = { ...(org ? { org } : {}), backfillDays: body.backfillDays ?? (existing?.settings.backfillDays as number | undefined) ?? app.config.aiVendors.backfillDays };
  const values = {
    keySealed: key === null ? null : seal(sealKey(app.config), key, aadOf(principal.tenantId, source)),
    settings,
    savedBy: principal.userId,
    updatedAt: new Date(),
    ...(orgChanged ? { cursor: {}, notice: null } : {}),
  };
  const [row] = await db
    .insert(aiVendorSources)
    .values({ tenantId: principal.tenantId, source, ...values })
    .onConflictDoUpdate({ target: [aiVendorSources.tenantId, aiVendorSources.source], set: values })
    .returning();
  return row as SourceRow;
}

/** Removes the key and the pull state; the rows already pulled stay (they are the organisation's history). */
export async function removeSource(db: Db, principal: TenantPrincipal, source: AiVendorSource): Promise<boolean> {
  authorize(principal, 'ai.manage');
  const rows = await db.delete(aiVendorSources).where(and(eq(aiVendorSources.tenantId, principal.tenantId), eq(aiVendorSources.source, source))).returning({ id: aiVendorSources.id });
  return rows.length > 0;
}

/** Days each source re-pulls on every run, because the vendor fills them in late. */
const RELOAD_DAYS: Record<AiVendorSource, number> = { claude_code_analytics: 3, copilot: 3, cursor: 2 };

interface Cursor {
  /** The last day pulled whole. */
  syncedThrough?: string;
  /** A day under way and the page to go on with (Claude Code), or a Cursor usage range's first day. */
  day?: string;
  page?: string | null;
  /** Cursor: the first day of the run whose usage ranges are under way (its commits start there). */
  rangeFrom?: string;
  /** Cursor AI Code Tracking: the range and page under way. */
  commits?: { from: string; to: string; page: number };
}

/** The first and last day of this run: where a stopped run was, else the oldest day to (re)pull. */
function rangeOf(row: SourceRow, now: Date, lastDay: string): { from: string; to: string } {
  const c = row.cursor as Cursor;
  const backfill = typeof row.settings.backfillDays === 'number' ? row.settings.backfillDays : 90;
  const reload = addDays(today(now), -RELOAD_DAYS[row.source]);
  const first = c.syncedThrough ? (addDays(c.syncedThrough, 1) < reload ? addDays(c.syncedThrough, 1) : reload) : addDays(today(now), -backfill);
  return { from: c.day ?? first, to: lastDay };
}

const later = (a: string | undefined, b: string) => (a && a > b ? a : b);

async function pullClaude(app: AppContext, row: SourceRow, key: string, deps: PullDeps, now: Date): Promise<Record<string, unknown>> {
  const { db } = app.database;
  const { from, to } = rangeOf(row, now, today(now));
  let cursor = row.cursor as Cursor;
  let personDays = 0;
  let days = 0;
  for (let day = from; day <= to; day = addDays(day, 1)) {
    let page: string | null = cursor.day === day ? (cursor.page ?? null) : null;
    const fresh = page === null;
    let first = true;
    do {
      deps.signal.throwIfAborted();
      const result = await claudePage(app.config.aiVendors.anthropicAdminApiUrl, key, day, page, deps);
      page = result.next;
      cursor = page === null ? { syncedThrough: later(cursor.syncedThrough, day) } : { syncedThrough: cursor.syncedThrough, day, page };
      personDays += await writeDays(db, row, { rows: result.rows, replaceDays: fresh && first ? [day] : [], cursor: cursor as Record<string, unknown> });
      first = false;
    } while (page !== null);
    days++;
  }
  return { days, personDays };
}

async function pullCopilot(app: AppContext, row: SourceRow, key: string | null, deps: PullDeps, now: Date): Promise<Record<string, unknown>> {
  const { db } = app.database;
  const org = orgOf(row);
  const get = org ? await githubAccess(app, row.tenantId, org, key, deps) : null;
  if (!org || !get) throw new VendorKeyRefused(0, 'No token is saved and no code-host installation is linked for the organisation: save the source again');
  // GitHub publishes a day's report once the day is processed: yesterday at the latest.
  const { from, to } = rangeOf(row, now, addDays(today(now), -1));
  let cursor = row.cursor as Cursor;
  let personDays = 0;
  let days = 0;
  let missing = 0;
  for (let day = from; day <= to; day = addDays(day, 1)) {
    deps.signal.throwIfAborted();
    const rows = await copilotDay(get, org, day, deps);
    cursor = { syncedThrough: later(cursor.syncedThrough, day) };
    if (rows === null) missing++;
    personDays += await writeDays(db, row, { rows: rows ?? [], replaceDays: rows === null ? [] : [day], cursor: cursor as Record<string, unknown> });
    days++;
  }
  const seats = await writeCopilotSeats(db, row.tenantId, await copilotSeats(get, org), today(now));
  return { days, personDays, daysWithoutReport: missing, seats };
}

async function pullCursor(app: AppContext, row: SourceRow, key: string, deps: PullDeps, now: Date): Promise<{ outcome: Record<string, unknown>; notice: string | null }> {
  const { db } = app.database;
  const client = new CursorClient(app.config.aiVendors.cursorApiUrl, key, deps);
  const { from, to } = rangeOf(row, now, today(now));
  let cursor = row.cursor as Cursor;
  let personDays = 0;
  // Usage first, in ranges of at most 30 days; each range replaces its days.
  if (!cursor.commits) {
    for (let start = from; start <= to; start = addDays(start, CURSOR_MAX_RANGE_DAYS)) {
      deps.signal.throwIfAborted();
      const end = addDays(start, CURSOR_MAX_RANGE_DAYS - 1) < to ? addDays(start, CURSOR_MAX_RANGE_DAYS - 1) : to;
      const rows = await client.usage(start, end, now.getTime());
      const replaceDays: string[] = [];
      for (let d = start; d <= end; d = addDays(d, 1)) replaceDays.push(d);
      const next = addDays(end, 1);
      const rangeFrom = cursor.rangeFrom ?? from;
      cursor = next <= to ? { syncedThrough: cursor.syncedThrough, day: next, rangeFrom } : { syncedThrough: later(cursor.syncedThrough, end), commits: { from: rangeFrom, to, page: 1 } };
      personDays += await writeDays(db, row, { rows: rows.filter((r) => r.day >= start && r.day <= end), replaceDays, cursor: cursor as Record<string, unknown> });
    }
  }
  // Then AI Code Tracking's commits of the same days, page by page.
  const range = cursor.commits ?? { from, to, page: 1 };
  let commits = 0;
  let notice: string | null = null;
  for (let page = range.page; ; page++) {
    deps.signal.throwIfAborted();
    const result = await client.commits(range.from, range.to, page);
    if (result === null) {
      notice = 'AI Code Tracking (per-commit AI lines) is not available on this Cursor plan: usage is pulled, commits are not.';
      await writeCommits(db, row, [], { syncedThrough: cursor.syncedThrough });
      break;
    }
    commits += result.commits.length;
    const next = result.more ? { syncedThrough: cursor.syncedThrough, commits: { ...range, page: page + 1 } } : { syncedThrough: cursor.syncedThrough };
    await writeCommits(db, row, result.commits, next);
    if (!result.more) break;
  }
  return { outcome: { personDays, commits }, notice };
}

export type PullResult =
  | { outcome: 'pulled'; details: Record<string, unknown> }
  | { outcome: 'skipped'; reason: string }
  | { outcome: 'key refused'; error: string }
  | { outcome: 'rate limited'; retryAfterSeconds: number };

const LEASE_SECONDS = 30 * 60;

/**
 * One pull of a source, as its tenant. A refused key is recorded and ends the run (no retry can
 * help); a long rate limit is recorded and handed back for a continuation; any other failure is
 * recorded and thrown for the job's retry, which resumes at the saved cursor.
 */
export async function pullSource(app: AppContext, tenantId: string, source: AiVendorSource, deps: PullDeps): Promise<PullResult> {
  const { db } = app.database;
  const now = deps.now?.() ?? new Date();
  const found = await sourceOf(db, tenantId, source);
  if (!found) return { outcome: 'skipped', reason: 'not configured' };
  const row = await takeLease(db, found.id, deps.jobId, LEASE_SECONDS);
  if (!row) return { outcome: 'skipped', reason: 'another pull of this source is running' };
  try {
    const key = keyOf(app.config, row);
    let details: Record<string, unknown>;
    let notice: string | null | undefined;
    if (source === 'claude_code_analytics') details = await pullClaude(app, row, key!, deps, now);
    else if (source === 'copilot') details = await pullCopilot(app, row, key, deps, now);
    else ({ outcome: details, notice } = await pullCursor(app, row, key!, deps, now));
    await finishRun(db, row.id, deps.jobId, { error: null, outcome: details, notice });
    return { outcome: 'pulled', details };
  } catch (error) {
    if (error instanceof VendorKeyRefused) {
      await finishRun(db, row.id, deps.jobId, { error: `${error.message}. An owner must save a working key.` });
      return { outcome: 'key refused', error: error.message };
    }
    if (error instanceof VendorRateLimited) {
      await finishRun(db, row.id, deps.jobId, { error: error.message });
      return { outcome: 'rate limited', retryAfterSeconds: error.retryAfterSeconds };
    }
    await finishRun(db, row.id, deps.jobId, { error: error instanceof VendorUnavailable ? error.message : 'The pull failed unexpectedly; it is retried from where it stopped.' });
    throw error;
  }
}
