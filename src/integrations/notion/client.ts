/** Notion's own client, pointed at NOTION_API_BASE_URL; retries are the job system's. */
import { APIResponseError, Client, LogLevel } from '@notionhq/client';
import type { Config } from '../../config/index.js';

export function notionClient(config: Readonly<Config>, auth?: string): Client {
  return new Client({ auth, baseUrl: config.vendorUrls.notionApi, retry: false, timeoutMs: 15_000, logLevel: LogLevel.ERROR, logger: () => {} });
}

/** Notion's error code of a failed call (`unauthorized`, `object_not_found`, …), never the request. */
export function notionErrorCode(error: unknown): string {
  return APIResponseError.isAPIResponseError(error) ? error.code : ((error as { code?: string }).code ?? 'request failed');
}

/** Notion ids are UUIDs written with or without dashes; compared without. */
export const sameNotionId = (a: string, b: string) => a.replace(/-/g, '').toLowerCase() === b.replace(/-/g, '').toLowerCase();
