/**
 * What could not be sent, kept for the next run (docs/ai-capture.md "Queue"): one file per
 * session under `<config>/delivery-analytics/capture-queue/`, named `<millis>-<hash of server and
 * externalId>.json`, so a newer capture of the same session replaces the older one. Bounded: at
 * most MAX_ENTRIES files and MAX_BYTES in all, the oldest dropped first. The capture log beside it
 * is cut when it passes LOG_MAX_BYTES.
 */
import { createHash, randomBytes } from 'node:crypto';
import { appendFile, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export const MAX_ENTRIES = 50;
export const MAX_BYTES = 50 * 1024 * 1024;
const LOG_MAX_BYTES = 1024 * 1024;

export interface QueuedUpload {
  server: string;
  /** The request path (`/api/sessions/by-external-id/…`). */
  path: string;
  /** The gzipped JSON body, base64. */
  body: string;
}

export interface QueueEntry {
  file: string;
  upload: QueuedUpload;
}

const digest = (server: string, path: string) => createHash('sha256').update(`${server}\n${path}`).digest('hex').slice(0, 16);

export class CaptureQueue {
  readonly dir: string;
  constructor(readonly configDir: string) {
    this.dir = join(configDir, 'capture-queue');
  }

  private async names(): Promise<string[]> {
    try {
      return (await readdir(this.dir)).filter((n) => n.endsWith('.json')).sort();
    } catch {
      return [];
    }
  }

  /** Keeps an upload; an older entry of the same session goes; then the oldest beyond the bounds. */
  async add(upload: QueuedUpload): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const id = digest(upload.server, upload.path);
    const names = await this.names();
    for (const name of names) if (name.endsWith(`-${id}.json`)) await rm(join(this.dir, name), { force: true });
    // Names sort in the order of arrival, even for two entries of one millisecond.
    const newest = Number(names[names.length - 1]?.slice(0, 15) ?? 0);
    const name = `${String(Math.max(Date.now(), newest + 1)).padStart(15, '0')}-${id}.json`;
    const temporary = join(this.dir, `.${randomBytes(6).toString('hex')}.tmp`);
    await writeFile(temporary, JSON.stringify(upload), { mode: 0o600 });
    await rename(temporary, join(this.dir, name));
    await this.trim();
  }

  private async trim(): Promise<void> {
    const names = await this.names();
    const sizes = await Promise.all(names.map(async (n) => (await stat(join(this.dir, n)).catch(() => null))?.size ?? 0));
    let total = sizes.reduce((a, b) => a + b, 0);
    for (let i = 0; i < names.length; i += 1) {
      if (names.length - i <= MAX_ENTRIES && total <= MAX_BYTES) break;
      await rm(join(this.dir, names[i] as string), { force: true });
      total -= sizes[i] as number;
    }
  }

  /** The queued uploads, oldest first (a file that cannot be read is dropped). */
  async entries(): Promise<QueueEntry[]> {
    const out: QueueEntry[] = [];
    for (const file of await this.names()) {
      try {
        const upload = JSON.parse(await readFile(join(this.dir, file), 'utf8')) as QueuedUpload;
        if (typeof upload.server === 'string' && typeof upload.path === 'string' && typeof upload.body === 'string') out.push({ file, upload });
        else await this.remove(file);
      } catch {
        await this.remove(file);
      }
    }
    return out;
  }

  async remove(file: string): Promise<void> {
    await rm(join(this.dir, file), { force: true });
  }
}

/** Appends a line to `<config>/delivery-analytics/capture.log` (never to stdout: the tool would show it). */
export async function logLine(configDir: string, line: string): Promise<void> {
  try {
    await mkdir(configDir, { recursive: true, mode: 0o700 });
    const path = join(configDir, 'capture.log');
    const size = (await stat(path).catch(() => null))?.size ?? 0;
    if (size > LOG_MAX_BYTES) await rename(path, `${path}.1`);
    await appendFile(path, `${new Date().toISOString()} ${line}\n`, { mode: 0o600 });
  } catch {
    // Nowhere left to say it; the developer's tool must go on.
  }
}
