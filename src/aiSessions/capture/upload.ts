/**
 * Sending a captured session: with the organisation's managed key (DELIVERY_ANALYTICS_URL and
 * DELIVERY_ANALYTICS_API_KEY) or the key `delivery-analytics login` stored, as an idempotent
 * `PUT /api/sessions/by-external-id/:externalId` with a gzip body, within a deadline. What fails
 * for a reason that may pass (no answer, 5xx, 429, 401) is queued for the next run.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CaptureQueue, QueuedUpload } from './queue.js';

const LOOPBACK = new Set(['127.0.0.1', '[::1]', 'localhost']);

export interface Keys {
  managed: { server: string; apiKey: string } | null;
  /** Server → key, from `<config>/delivery-analytics/credentials.json` (written by `login`, src/cliLogin/credentials.ts). */
  stored: Map<string, string>;
}

/** The server base URL as `login` keys it (origin + path, no trailing slash); null when it may not carry a key. */
export function serverBase(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK.has(url.hostname))) return null;
  if (url.username || url.password) return null;
  let path = url.pathname;
  while (path.endsWith('/')) path = path.slice(0, -1);
  return `${url.origin}${path}`;
}

export async function readKeys(configDir: string, managedUrl: string | null, managedApiKey: string | null): Promise<Keys> {
  const stored = new Map<string, string>();
  try {
    const file = JSON.parse(await readFile(join(configDir, 'credentials.json'), 'utf8')) as { servers?: Record<string, { apiKey?: unknown }> };
    for (const [server, entry] of Object.entries(file.servers ?? {})) {
      if (typeof entry?.apiKey === 'string' && entry.apiKey.startsWith('gai_')) stored.set(server, entry.apiKey);
    }
  } catch {
    // not logged in (or not readable): only a managed key can be used
  }
  const server = managedUrl === null ? null : serverBase(managedUrl);
  return { managed: server && managedApiKey ? { server, apiKey: managedApiKey } : null, stored };
}

/** The server to send to: the managed one, else `--url`, else the only one logged in to. */
export function chooseServer(keys: Keys, url: string | null): string | string[] {
  if (keys.managed) return keys.managed.server;
  if (url !== null) {
    const server = serverBase(url);
    if (!server) return [`--url ${url} is not an https address (plain http only for this machine)`];
    return keys.stored.has(server) ? server : [`not logged in to ${server}: run delivery-analytics login --url=${server}`];
  }
  const servers = [...keys.stored.keys()];
  if (servers.length === 1) return servers[0] as string;
  return [servers.length === 0 ? 'not logged in: run delivery-analytics login --url=<server>, or set DELIVERY_ANALYTICS_URL and DELIVERY_ANALYTICS_API_KEY' : `logged in to several servers; choose one with --url (${servers.join(', ')})`];
}

export const keyFor = (keys: Keys, server: string): string | null => (keys.managed?.server === server ? keys.managed.apiKey : (keys.stored.get(server) ?? null));

export type Outcome = { kind: 'sent'; status: number } | { kind: 'retry'; why: string } | { kind: 'refused'; why: string };

/** One PUT, aborted at `deadline` (epoch milliseconds). */
export async function send(upload: QueuedUpload, apiKey: string | null, deadline: number, userAgent: string): Promise<Outcome> {
  if (!apiKey) return { kind: 'retry', why: `no key for ${upload.server} (log in again to send it)` };
  const remaining = deadline - Date.now();
  if (remaining <= 0) return { kind: 'retry', why: 'out of time' };
  let res: Response;
  try {
    res = await fetch(`${upload.server}${upload.path}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', 'content-encoding': 'gzip', 'user-agent': userAgent },
      body: Buffer.from(upload.body, 'base64'),
      redirect: 'error',
      signal: AbortSignal.timeout(remaining),
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
    return { kind: 'retry', why: `${upload.server} did not answer (${cause})` };
  }
  const text = await res.text().catch(() => '');
  if (res.ok) return { kind: 'sent', status: res.status };
  const why = `${upload.server} answered ${res.status}: ${text.slice(0, 300)}`;
  return res.status >= 500 || res.status === 429 || res.status === 408 || res.status === 401 ? { kind: 'retry', why } : { kind: 'refused', why };
}

/** Sends the queued uploads, oldest first, until the deadline or the first server that does not answer. */
export async function flushQueue(queue: CaptureQueue, keys: Keys, deadline: number, userAgent: string, log: (line: string) => Promise<void>): Promise<void> {
  const unreachable = new Set<string>();
  for (const { file, upload } of await queue.entries()) {
    if (Date.now() >= deadline) return;
    if (unreachable.has(upload.server)) continue;
    const outcome = await send(upload, keyFor(keys, upload.server), deadline, userAgent);
    if (outcome.kind === 'retry') {
      unreachable.add(upload.server);
      await log(`queued ${upload.path} still not sent: ${outcome.why}`);
      continue;
    }
    await queue.remove(file);
    await log(outcome.kind === 'sent' ? `sent queued ${upload.path} (${outcome.status})` : `dropped queued ${upload.path}: ${outcome.why}`);
  }
}
