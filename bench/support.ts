/**
 * Shared pieces of the benchmarks: an embedded PostgreSQL 17 in a temporary directory, the real
 * server as a child process (`delivery-analytics migrate`, then `serve`), and latency summaries.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type Agent, request } from 'node:http';
import pg from 'pg';
import { freePort, startEmbeddedPostgres } from '../src/db/embedded.js';

export const ROOT = resolve(import.meta.dirname, '..');

export interface EmbeddedDatabase {
  url: string;
  /** CPU ticks used so far by the postmaster and all its children (backends, WAL writer, …). */
  cpuTicks(): number;
  stop(): Promise<void>;
}

/**
 * Ticks of `pid`, its direct children (a PostgreSQL server: postmaster and backends) and the
 * children that have exited (a backend whose connection closed), so the count never goes back.
 */
function treeTicks(pid: number): number {
  const own = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  let total = Number(own[11]) + Number(own[12]) + Number(own[13]) + Number(own[14]);
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const fields = readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]!.split(' ');
      if (Number(fields[1]) === pid) total += Number(fields[11]) + Number(fields[12]);
    } catch {
      /* the process ended meanwhile */
    }
  }
  return total;
}

/** PostgreSQL with its default durability settings (what a deployment runs), plus `flags`. */
export async function startDatabase(flags: string[] = []): Promise<EmbeddedDatabase> {
  const embedded = await startEmbeddedPostgres({
    password: 'bench',
    tempPrefix: 'da-bench-pg-',
    flags: ['-c', 'max_connections=300', '-c', 'shared_buffers=512MB', ...flags],
  });
  const admin = new pg.Client({ connectionString: embedded.urlFor('postgres') });
  await admin.connect();
  await admin.query('create database bench');
  await admin.end();
  const postmaster = Number(readFileSync(join(embedded.dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  return {
    url: embedded.urlFor('bench'),
    cpuTicks: () => (existsSync('/proc') ? treeTicks(postmaster) : 0),
    stop: embedded.stop,
  };
}

function runCli(args: string[], env: Record<string, string>, nodeArgs: string[] = []): ChildProcess {
  return spawn(process.execPath, [...nodeArgs, join(ROOT, 'bin', 'delivery-analytics.js'), ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** The environment of a benchmarked server process on `databaseUrl` (development mode, quiet). */
export function serverEnv(databaseUrl: string): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    APP_URL: 'http://127.0.0.1',
    OAUTH_ENCRYPTION_KEY: '0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef',
    LOG_LEVEL: 'silent',
    NODE_ENV: 'development',
  };
}

export async function migrate(env: Record<string, string>): Promise<void> {
  const child = runCli(['migrate'], env);
  let err = '';
  child.stderr?.on('data', (d) => (err += d));
  const code = await new Promise<number | null>((r) => child.on('exit', r));
  if (code !== 0) throw new Error(`migrate failed: ${err}`);
}

export interface ServerProcess {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/** User + system CPU time of a process, in clock ticks (1/100 s on Linux); 0 where /proc is missing. */
export function cpuTicks(pid: number): number {
  if (!existsSync(`/proc/${pid}/stat`)) return 0;
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

/**
 * Waits until the process has been nearly idle (under 10% of a core) for a second, at most
 * `maxSeconds`: startup work in background threads (schema compilation) must not run during a
 * measurement. Linux only; elsewhere it returns at once.
 */
export async function settle(pid: number, maxSeconds = 60): Promise<void> {
  if (!existsSync(`/proc/${pid}/stat`)) return;
  let quiet = 0;
  let last = cpuTicks(pid);
  for (let i = 0; i < maxSeconds * 2 && quiet < 2; i += 1) {
    await new Promise((r) => setTimeout(r, 500));
    const now = cpuTicks(pid);
    quiet = now - last <= 5 ? quiet + 1 : 0;
    last = now;
  }
}

/** `delivery-analytics serve` on a free loopback port; resolves once /health answers. */
export async function startServerProcess(env: Record<string, string>, nodeArgs: string[] = []): Promise<ServerProcess> {
  const port = await freePort();
  const child = runCli(['serve'], { ...env, PORT: String(port), HOST: '127.0.0.1' }, nodeArgs);
  let err = '';
  child.stderr?.on('data', (d) => (err += d));
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i += 1) {
    if (child.exitCode !== null) throw new Error(`server exited: ${err}`);
    try {
      if ((await fetch(`${url}/health`)).ok) break;
    } catch {
      /* not listening yet */
    }
    // Two minutes: on a shared 2-core machine at load 13 the server (compiled on the fly) took over 30 s.
    if (i > 1200) throw new Error(`server did not start: ${err}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    pid: child.pid as number,
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((r) => (child.exitCode !== null ? r(null) : child.on('exit', r)));
    },
  };
}

export interface Summary {
  count: number;
  seconds: number;
  perSecond: number;
  p50: number;
  p99: number;
}

/** The middle value (the upper of the two middle ones for an even count): the benchmarks' figure of several runs. */
export const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

/** Latencies in milliseconds → rate and percentiles (nearest rank). */
export function summarise(latencies: number[], seconds: number): Summary {
  const sorted = Float64Array.from(latencies).sort();
  const at = (q: number) => (sorted.length ? (sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] as number) : NaN);
  return { count: sorted.length, seconds, perSecond: sorted.length / seconds, p50: at(0.5), p99: at(0.99) };
}

export const fmt = (s: Summary) => `${s.perSecond.toFixed(0).padStart(7)}/s   p50 ${s.p50.toFixed(2).padStart(7)} ms   p99 ${s.p99.toFixed(2).padStart(7)} ms   (${s.count} in ${s.seconds.toFixed(1)} s)`;

/** One request with a bearer key over a keep-alive agent: status and body text (both benches). */
export function call(agent: Agent, base: URL, method: string, path: string, key: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; text: string }> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        agent, host: base.hostname, port: base.port, path, method,
        headers: { authorization: `Bearer ${key}`, ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}), ...headers },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}
