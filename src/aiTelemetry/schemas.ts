/**
 * The OTLP intake's limits (docs/ai-telemetry.md). An SDK's default batch (512 log records, or a
 * minute of a tool's metrics) is a few hundred KiB before compression; 4 MiB on the wire is far
 * above it, and 16 MiB once gunzipped bounds what a small compressed body may inflate to.
 */
export const OTLP_BODY_LIMIT = 4 * 1024 * 1024;
export const OTLP_INFLATED_LIMIT = 16 * 1024 * 1024;
/**
 * Exports one instance works on at once; beyond, 503 with Retry-After, which every OTLP exporter
 * retries with backoff. Log exports waiting for their tenant's next group commit (batch.ts) hold
 * no database connection, only their decoded body: this bounds memory and the event loop's queue
 * (200 × a few KiB typical, 200 × 16 MiB at the very worst).
 */
export const OTLP_MAX_IN_FLIGHT = 200;
export const OTLP_RETRY_AFTER_SECONDS = 1;
