/** The OTLP intake of AI coding tools' telemetry (docs/ai-telemetry.md). */
import type { Reader } from './reader.js';

export interface AiTelemetryConfig {
  /**
   * AI_TELEMETRY_RETENTION_DAYS: days the per-series last points (ai_telemetry_series) are kept;
   * a metric point older than this is refused at intake, so a pruned series never counts twice.
   * Sessions and person-days (the measures) are kept whatever this says.
   */
  retentionDays: number;
}

export function parseAiTelemetry(r: Reader): AiTelemetryConfig {
  return { retentionDays: r.integer('AI_TELEMETRY_RETENTION_DAYS', 90, 1, 3650) };
}
