/**
 * The CLI's stored API keys: `<config home>/delivery-analytics/credentials.json`, one entry per
 * server URL, so one machine can be logged in to several servers. The directory is 0700 and the
 * file 0600 (it holds bearer keys); every write replaces the file atomically (temporary file,
 * then rename), so a crash never leaves half a file.
 */
import { chmod, mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { z } from 'zod';

export const StoredKey = z.object({
  apiKey: z.string().startsWith('gai_'),
  keyId: z.string(),
  keyName: z.string(),
  tenantId: z.string(),
  createdAt: z.string(),
});
export type StoredKey = z.infer<typeof StoredKey>;

const CredentialsFile = z.object({ servers: z.record(z.string(), StoredKey) });
type CredentialsFile = z.infer<typeof CredentialsFile>;

export class CredentialsStore {
  readonly dir: string;
  readonly path: string;

  constructor(configHome: string) {
    this.dir = join(configHome, 'delivery-analytics');
    this.path = join(this.dir, 'credentials.json');
  }

  private async read(): Promise<CredentialsFile> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { servers: {} };
      throw error;
    }
    const parsed = CredentialsFile.safeParse(JSON.parse(text));
    if (!parsed.success) throw new Error(`${this.path} is not a credentials file of this CLI; move it away and log in again`);
    return parsed.data;
  }

  private async write(file: CredentialsFile): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    await chmod(this.dir, 0o700);
    const temporary = `${this.path}.${randomBytes(6).toString('hex')}.tmp`;
    // Created 0600 from the first byte: the key is never readable by others, not even briefly.
    const handle = await open(temporary, 'wx', 0o600);
    try {
      await handle.writeFile(`${JSON.stringify(file, null, 2)}\n`);
      await handle.chmod(0o600);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, this.path);
  }

  async get(server: string): Promise<StoredKey | null> {
    return (await this.read()).servers[server] ?? null;
  }

  /** The servers this machine is logged in to. */
  async servers(): Promise<string[]> {
    return Object.keys((await this.read()).servers);
  }

  async put(server: string, key: StoredKey): Promise<void> {
    const file = await this.read();
    file.servers[server] = key;
    await this.write(file);
  }

  async remove(server: string): Promise<void> {
    const file = await this.read();
    delete file.servers[server];
    if (Object.keys(file.servers).length === 0) await rm(this.path, { force: true });
    else await this.write(file);
  }
}
