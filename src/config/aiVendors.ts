/**
 * Where the AI tools' vendor reports are pulled from (docs/ai-vendor-reports.md): each vendor's
 * public API unless an override says otherwise (tests' fakes, an egress proxy, GitHub Enterprise),
 * and how far back a source's first pull reaches.
 */
import { endpointOverride, type Reader } from './reader.js';

export interface AiVendorsConfig {
  /** ANTHROPIC_ADMIN_API_URL: the Admin API of the Claude Code Analytics report. */
  anthropicAdminApiUrl: string;
  /** COPILOT_API_URL: the REST API of Copilot's reports and seats; CODEHOST_APP_API_URL when unset and the app is configured. */
  copilotApiUrl: string;
  /** CURSOR_API_URL: Cursor's Admin and AI Code Tracking APIs. */
  cursorApiUrl: string;
  /** AI_VENDOR_BACKFILL_DAYS: days a source's first pull reaches back (an owner may choose per source). */
  backfillDays: number;
}

export function parseAiVendors(r: Reader, production: boolean, codehostApiUrl: string | null): AiVendorsConfig {
  return {
    anthropicAdminApiUrl: endpointOverride(r, 'ANTHROPIC_ADMIN_API_URL', production, 'https://api.anthropic.com'),
    copilotApiUrl: endpointOverride(r, 'COPILOT_API_URL', production, codehostApiUrl ?? 'https://api.github.com'),
    cursorApiUrl: endpointOverride(r, 'CURSOR_API_URL', production, 'https://api.cursor.com'),
    backfillDays: r.integer('AI_VENDOR_BACKFILL_DAYS', 90, 1, 365),
  };
}
