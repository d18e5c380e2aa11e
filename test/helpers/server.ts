import { loadConfig, type Env } from '../../src/config/index.js';
import { createLogger, type Logger } from '../../src/log.js';
import { startServer, type RunningServer } from '../../src/server.js';
import { freePort } from '../../src/dev.js';
import { cubeCacheEnv } from './cubeCache.js';
import { freshDatabase } from './database.js';
import { openServers } from './openServers.js';

export const TEST_KEY = '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef';

/** The smallest valid environment, for a database of the caller's choosing. */
export function baseEnv(databaseUrl: string, port = 0): Env {
  return {
    NODE_ENV: 'test',
    APP_URL: `http://127.0.0.1:${port}`,
    OAUTH_ENCRYPTION_KEY: TEST_KEY,
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    HOST: '127.0.0.1',
    PORT: String(port),
    // Tests speak as a proxy on loopback would: X-Forwarded-For names the client (test/auth/helpers.ts).
    TRUSTED_PROXIES: '127.0.0.1,::1',
    // Test clients read answers, not Cube's "Continue wait" (test/cube/continueWait.test.ts sets its own).
    CUBE_CONTINUE_WAIT_SECONDS: '600',
    // Three busy connections instead of ten: a test's requests are few, and each new backend read
    // the catalog again before its first cube query (docs/testing.md, 2026-11-30).
    DATABASE_POOL_SIZE: '3',
    ...cubeCacheEnv(),
  };
}

export interface Response<T = any> {
  status: number;
  headers: Headers;
  text: string;
  body: T;
}

export class HttpClient {
  constructor(
    readonly baseUrl: string,
    private readonly headers: Record<string, string> = {},
  ) {}

  /** A client that sends `Authorization: Bearer <token>` (an API key or an access token). */
  as(bearer: string): HttpClient {
    return this.with({ authorization: `Bearer ${bearer}` });
  }

  with(headers: Record<string, string>): HttpClient {
    return new HttpClient(this.baseUrl, { ...this.headers, ...headers });
  }

  async request<T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response<T>> {
    const init: RequestInit = { method, headers: { ...this.headers, ...headers }, redirect: 'manual' };
    if (body !== undefined) {
      if (typeof body === 'string' || body instanceof Uint8Array) {
        init.body = body as BodyInit;
      } else {
        init.body = JSON.stringify(body);
        (init.headers as Record<string, string>)['content-type'] ??= 'application/json';
      }
    }
    const res = await fetch(`${this.baseUrl}${path}`, init);
    const text = await res.text();
    let parsed: unknown = text;
    if ((res.headers.get('content-type') ?? '').includes('json') && text !== '') parsed = JSON.parse(text);
    return { status: res.status, headers: res.headers, text, body: parsed as T };
  }

  get<T = any>(path: string, headers?: Record<string, string>) { return this.request<T>('GET', path, undefined, headers); }
  post<T = any>(path: string, body?: unknown, headers?: Record<string, string>) { return this.request<T>('POST', path, body, headers); }
  patch<T = any>(path: string, body?: unknown, headers?: Record<string, string>) { return this.request<T>('PATCH', path, body, headers); }
  put<T = any>(path: string, body?: unknown, headers?: Record<string, string>) { return this.request<T>('PUT', path, body, headers); }
  delete<T = any>(path: string, headers?: Record<string, string>) { return this.request<T>('DELETE', path, undefined, headers); }
}

export interface TestServer extends HttpClient {
  running: RunningServer;
  databaseUrl: string;
  close(): Promise<void>;
}

/**
 * The real server, in this process, on a free loopback port, over its own fresh database unless
 * one is given (two servers on one database are two instances). `logger`: a test that reads the
 * log passes one (see `capturedLog`).
 */
export async function testServer(options: { env?: Env; databaseUrl?: string; logger?: Logger; port?: number } = {}): Promise<TestServer> {
  const databaseUrl = options.databaseUrl ?? (await freshDatabase());
  // A caller that must know APP_URL before the start (a fake provider's redirect URIs) picks the port.
  const port = options.port ?? (await freePort());
  const config = loadConfig({ ...baseEnv(databaseUrl, port), ...options.env });
  const running = await startServer(config, options.logger ?? createLogger(config.logLevel));
  const client = new HttpClient(running.url.replace('localhost', '127.0.0.1')) as TestServer;
  client.running = running;
  client.databaseUrl = databaseUrl;
  client.close = () => {
    openServers.delete(client);
    return running.close();
  };
  openServers.add(client);
  return client;
}

/** A logger at `level` whose lines are kept in memory: `lines()` is everything logged so far. */
export function capturedLog(level = 'info'): { logger: Logger; text: () => string; lines: () => Record<string, unknown>[] } {
  const chunks: string[] = [];
  const logger = createLogger(level, { write: (chunk: string) => void chunks.push(chunk) });
  const text = () => chunks.join('');
  return { logger, text, lines: () => text().split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Record<string, unknown>) };
}
