/** What the settings page and the API show of a source: never the key, sealed or not. */
import { AI_VENDOR_SOURCES, type AiVendorSource } from '../db/schema/index.js';
import { SOURCE_NAMES } from './service.js';
import type { SourceRow } from './store.js';

const iso = (d: Date | null) => d?.toISOString() ?? null;

export function presentSource(source: AiVendorSource, row: SourceRow | null) {
  const cursor = (row?.cursor ?? {}) as { syncedThrough?: string; day?: string; commits?: unknown };
  return {
    source,
    name: SOURCE_NAMES[source],
    configured: row !== null,
    keySet: row?.keySealed != null,
    org: typeof row?.settings.org === 'string' ? row.settings.org : null,
    backfillDays: typeof row?.settings.backfillDays === 'number' ? row.settings.backfillDays : null,
    syncedThrough: cursor.syncedThrough ?? null,
    resumesAt: cursor.day ?? null,
    running: row?.leaseUntil != null && row.leaseUntil.getTime() > Date.now(),
    lastRunAt: iso(row?.lastRunAt ?? null),
    lastSuccessAt: iso(row?.lastSuccessAt ?? null),
    lastError: row?.lastError ?? null,
    lastErrorAt: iso(row?.lastErrorAt ?? null),
    lastOutcome: row?.lastOutcome ?? null,
    notice: row?.notice ?? null,
  };
}

export function presentSources(rows: SourceRow[]) {
  const bySource = new Map(rows.map((r) => [r.source, r]));
  return AI_VENDOR_SOURCES.map((s) => presentSource(s, bySource.get(s) ?? null));
}
