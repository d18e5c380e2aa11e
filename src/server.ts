import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Config } from './config.js';
import type { AppContext } from './context.js';
import { openDatabase } from './db/client.js';
import { schemaStatus } from './db/migrations.js';
import { createApp } from './http/app.js';
import type { Logger } from './log.js';

export class SchemaBehindError extends Error {
  constructor(readonly missing: string[]) {
    super(`database schema is behind this server: expected migration ${missing[0]} (run "delivery-analytics migrate")`);
  }
}

export interface RunningServer {
  url: string;
  app: AppContext;
  server: Server;
  /** Graceful stop: no new connections, in-flight requests finish, then the pool closes. */
  close(): Promise<void>;
}

/**
 * Starts one instance. The database schema is checked before the port is bound: a database that
 * is behind the bundled migrations refuses the start; one that is ahead starts and says so.
 */
export async function startServer(config: Readonly<Config>, log: Logger): Promise<RunningServer> {
  const database = openDatabase(config.database.url);
  let app: AppContext;
  try {
    const status = await schemaStatus(database.pool);
    if (status.missing.length > 0) throw new SchemaBehindError(status.missing);
    if (status.ahead) log.warn({ applied: status.applied, bundled: status.bundled }, 'database schema is ahead of this server');
    app = { config, database, log };
  } catch (error) {
    await database.close();
    throw error;
  }

  const koa = createApp(app);
  const server = createServer(koa.callback());
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;

  let closing: Promise<void> | null = null;
  const close = () => {
    closing ??= (async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Keep-alive sockets with no request in flight would hold close() open forever.
        server.closeIdleConnections();
      });
      await database.close();
    })();
    return closing;
  };
  return { url: `http://${host}:${port}`, app, server, close };
}
