import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { randomBytes } from 'node:crypto';
import { AppError } from '../errors.js';
import type { ObjectStore } from './objectStore.js';

/** Objects as files under one directory; keys map to relative paths. Development and tests only. */
export class LocalObjectStore implements ObjectStore {
  readonly kind = 'local' as const;
  private readonly root: string;

  constructor(dir: string) {
    this.root = resolve(dir);
  }

  private pathOf(key: string): string {
    const path = resolve(join(this.root, key));
    // Keys are built by the server, but a key must never escape the directory.
    if (!path.startsWith(this.root + sep)) throw new AppError('internal', 'Invalid object key');
    return path;
  }

  private unavailable(error: unknown, doing: string): AppError {
    const code = (error as NodeJS.ErrnoException).code ?? 'error';
    return new AppError('unavailable', `Object store unavailable: cannot ${doing} in LOCAL_OBJECT_STORE_DIR (${code})`);
  }

  async put(key: string, body: Buffer): Promise<void> {
    const path = this.pathOf(key);
    // Write then rename, so a reader never sees half a transcript.
    const temporary = `${path}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      await mkdir(dirname(path), { recursive: true });
      await writeFile(temporary, body);
      await rename(temporary, path);
    } catch (error) {
      await rm(temporary, { force: true }).catch(() => {});
      throw this.unavailable(error, 'write');
    }
  }

  async get(key: string): Promise<Buffer> {
    try {
      return await readFile(this.pathOf(key));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        throw new AppError('unavailable', 'Object store unavailable: the transcript object is missing from LOCAL_OBJECT_STORE_DIR');
      }
      throw this.unavailable(error, 'read');
    }
  }

  async delete(key: string): Promise<void> {
    try {
      await rm(this.pathOf(key), { force: true });
    } catch (error) {
      throw this.unavailable(error, 'delete');
    }
  }
}
