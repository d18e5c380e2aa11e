import { DEFAULT_LABEL, type AttributionSettingsRow } from './service.js';

/** Settings › AI, attribution: the labels read besides the default, which always counts. */
export function presentAttributionSettings(row: AttributionSettingsRow | null) {
  return { defaultLabel: DEFAULT_LABEL, labels: row?.labels ?? [], updatedAt: row?.updatedAt.toISOString() ?? null };
}
export type AttributionSettings = ReturnType<typeof presentAttributionSettings>;
