/** The OTLP intake of AI coding tools' telemetry (docs/ai-telemetry.md). */
import type { Reader } from './reader.js';

export interface AiTelemetryConfig {
  /**
   * AI_TELEMETRY_RETENTION_DAYS: days the per-series last points (ai_telemetry_series) are kept;
   * a metric point older than this is refused at intake, so a pruned series never counts twice.
   * Sessions and person-days (the measures) are kept whatever this says.
   */
  retentionDays: number;
  /**
   * AI_TELEMETRY_WARM_CONNECTIONS: before the port opens, every connection of the instance's pool
   * is opened and runs the intake's statements on no rows, so no export waits on a new
   * PostgreSQL backend's first statement (≈70 ms of its CPU; docs/ai-telemetry.md "Benchmark").
   * On by default; off by default under NODE_ENV=test, where a server's start is what tests wait on.
   */
  warmConnections: boolean;
}

export function parseAiTelemetry(r: Reader, nodeEnv: string): AiTelemetryConfig {
  return {
    retentionDays: r.integer('AI_TELEMETRY_RETENTION_DAYS', 90, 1, 3650),
    warmConnections: r.boolean('AI_TELEMETRY_WARM_CONNECTIONS', nodeEnv !== 'test'),
  };
}
