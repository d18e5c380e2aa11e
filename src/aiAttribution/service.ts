/**
 * AI attribution (METRICS.md "AI attribution", docs/ai-attribution.md): the labels an owner adds to
 * `ai-assisted`, and how many merged PRs each signal found in a window. The levels themselves are
 * computed in SQL (view pull_request_attribution, src/aiAttribution/sql/) and read through the cube.
 */
import { eq } from 'drizzle-orm';
import type pg from 'pg';
import { authorize } from '../auth/policies.js';
import type { TenantPrincipal } from '../auth/principal.js';
import { loadCube } from '../cube/compiler.js';
import { validateQuery } from '../cube/query.js';
import { loadRows } from '../cube/run.js';
import type { Db } from '../db/client.js';
import { aiAttributionSettings } from '../db/schema/index.js';
import { dayRange } from '../facts/window.js';
import type { AttributionSettingsBody, SignalsQuery } from './schemas.js';

export type AttributionSettingsRow = typeof aiAttributionSettings.$inferSelect;

/** The label every organisation's PRs are read for, whatever its settings. */
export const DEFAULT_LABEL = 'ai-assisted';

export async function findAttributionSettings(db: Db, tenantId: string): Promise<AttributionSettingsRow | null> {
  const [row] = await db.select().from(aiAttributionSettings).where(eq(aiAttributionSettings.tenantId, tenantId));
  return row ?? null;
}

/** Replaces the organisation's labels (owners only): lower-cased, as the view compares them, once each, without the default. */
export async function saveAttributionSettings(db: Db, principal: TenantPrincipal, body: AttributionSettingsBody): Promise<AttributionSettingsRow> {
  authorize(principal, 'aiAttribution.manage');
  const labels = [...new Set(body.labels.map((l) => l.toLowerCase()))].filter((l) => l !== DEFAULT_LABEL);
  const values = { labels, updatedBy: principal.userId, updatedAt: new Date() };
  const [row] = await db
    .insert(aiAttributionSettings)
    .values({ tenantId: principal.tenantId, ...values })
    .onConflictDoUpdate({ target: aiAttributionSettings.tenantId, set: values })
    .returning();
  return row!;
}

/** The signals, in the order the counts are listed, with the cube member that says a PR has it. */
export const SIGNALS = [
  { signal: 'session', level: 'high', member: 'pull_requests.ai_via_session', title: 'AI session linked (uploaded or captured)' },
  { signal: 'vendor_commit', level: 'high', member: 'pull_requests.ai_via_vendor_commit', title: 'Vendor per-commit AI lines' },
  { signal: 'telemetry_commit', level: 'high', member: 'pull_requests.ai_via_telemetry_commit', title: 'Telemetry session named a commit' },
  { signal: 'trailer', level: 'medium', member: 'pull_requests.ai_via_trailer', title: 'AI commit trailer' },
  { signal: 'label', level: 'medium', member: 'pull_requests.ai_via_label', title: 'AI label' },
  { signal: 'branch', level: 'medium', member: 'pull_requests.ai_via_branch', title: 'Agent branch prefix' },
  { signal: 'bot_author', level: 'medium', member: 'pull_requests.ai_via_bot', title: 'AI agent author' },
] as const;

export interface SignalCounts {
  from: string;
  to: string;
  prsMerged: number;
  /** Merged PRs per level. */
  levels: Record<'high' | 'medium' | 'low' | 'none', number>;
  /** Merged PRs each signal found (a PR found by two signals counts under both). */
  signals: { signal: string; level: string; title: string; prs: number }[];
}

/**
 * Merged PRs of the window per signal and per level (owners only), from one cube query grouped by
 * the level and every signal's flag: the same numbers a Cube or BI client gets from the model.
 * `author_activity` is the low level: only the author's AI activity on a commit day.
 */
export async function signalCounts(pool: pg.Pool, principal: TenantPrincipal, query: SignalsQuery): Promise<SignalCounts> {
  authorize(principal, 'aiAttribution.signals');
  const [from, to] = dayRange(query);
  const cube = await loadCube();
  const members = SIGNALS.map((s) => s.member);
  const valid = validateQuery(cube, {
    measures: ['pull_requests.prs_merged'],
    dimensions: ['pull_requests.ai_attribution', ...members],
    timeDimensions: [{ dimension: 'pull_requests.merged_at', dateRange: [from, to] }],
    filters: [{ member: 'pull_requests.is_merged', operator: 'equals', values: ['true'] }],
  });
  const { rows } = await loadRows(pool, cube, principal.tenantId, valid);
  const levels = { high: 0, medium: 0, low: 0, none: 0 };
  const found = new Map<string, number>(SIGNALS.map((s) => [s.signal, 0]));
  let prsMerged = 0;
  for (const row of rows) {
    const n = Number(row['pull_requests.prs_merged'] ?? 0);
    prsMerged += n;
    const level = String(row['pull_requests.ai_attribution']) as keyof typeof levels;
    if (level in levels) levels[level] += n;
    for (const s of SIGNALS) if (row[s.member] === true || row[s.member] === 'true') found.set(s.signal, found.get(s.signal)! + n);
  }
  return {
    from, to, prsMerged, levels,
    signals: [
      ...SIGNALS.map((s) => ({ signal: s.signal, level: s.level, title: s.title, prs: found.get(s.signal)! })),
      { signal: 'author_activity', level: 'low', title: 'Only the author’s AI activity on a commit day', prs: levels.low },
    ],
  };
}
