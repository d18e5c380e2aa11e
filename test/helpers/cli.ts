import { freePort } from '../../src/db/embedded.js';
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Env } from '../../src/config/index.js';
import { cubeCacheEnv } from './cubeCache.js';
import { transpiledMain } from './transpiled.js';
import { until } from './until.js';

// The source, not bin/ (which prefers dist/ when built): a stale build must never be what a test
// runs. Transpiled by this run's global setup (transpiled.ts), else through tsx.
const SOURCE = fileURLToPath(new URL('../../src/main.ts', import.meta.url));
/**
 * node's arguments before a command: the entry point, behind tsx's loader when it is the source.
 * Read at each start, not at import: a single file run without --parallel imports the test files
 * before the global setup has transpiled, and its children then ran through tsx (twice the CPU).
 */
export function nodeArgs(): string[] {
  const transpiled = transpiledMain();
  return transpiled ? [transpiled] : ['--import', pathToFileURL(createRequire(SOURCE).resolve('tsx')).href, SOURCE];
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * A child's environment: the given one plus PATH and, unless it names its own, the run's cube
 * compile cache (keyed by the models' content, so sharing it changes nothing a command does; a
 * child compiling the models cold paid 3.1 s of CPU instead of 1.4 s).
 */
function childEnv(env: Env, extra: Env = {}): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, ...(env.CUBE_COMPILE_CACHE_DIR === undefined ? cubeCacheEnv() : {}), ...env, ...extra } as NodeJS.ProcessEnv;
}

/** Runs the real CLI in a child process with the given environment (plus childEnv's). */
export function runCli(args: string[], env: Env, input?: string): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs(), ...args], { env: childEnv(env) });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    if (input !== undefined) child.stdin.end(input);
    else child.stdin.end();
  });
}

/** Starts `delivery-analytics serve` and resolves once it logs that it listens. */
export function spawnServe(env: Env): Promise<{ child: ChildProcess; output: () => string; exited: Promise<number | null> }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs(), 'serve'], { env: childEnv(env, { LOG_LEVEL: 'info' }) });
    let out = '';
    const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
    const onData = (chunk: Buffer) => {
      out += chunk;
      if (out.includes('"msg":"listening"')) resolve({ child, output: () => out, exited });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    exited.then((code) => reject(new Error(`serve exited with ${code}: ${out}`)));
  });
}

/**
 * `serve` on a free port. The port is free when it is picked, but the server binds it only after
 * compiling its models (seconds later), and meanwhile another process of the run may take it (an
 * outgoing connection's ephemeral port): on EADDRINUSE it starts again on another port.
 */
export async function spawnServeOnFreePort(envFor: (port: number) => Env): Promise<{ child: ChildProcess; output: () => string; exited: Promise<number | null>; port: number }> {
  for (let attempt = 1; ; attempt += 1) {
    const port = await freePort();
    try {
      return { ...(await spawnServe(envFor(port))), port };
    } catch (error) {
      if (attempt >= 3 || !String(error).includes('EADDRINUSE')) throw error;
    }
  }
}

export interface RunningCli {
  child: ChildProcess;
  stdout: () => string;
  /** Resolves with the first match of `pattern` in standard output, once it has been printed. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpExecArray>;
  exited: Promise<CliResult>;
}

/** Starts the real CLI and lets the test read its output while it runs (an interactive command). */
export function startCli(args: string[], env: Env): RunningCli {
  const child = spawn(process.execPath, [...nodeArgs(), ...args], { env: childEnv(env) });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => (stdout += chunk));
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  child.stdin!.end();
  const exited = new Promise<CliResult>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
  let done = false;
  void exited.then(() => (done = true));
  return {
    child,
    stdout: () => stdout,
    waitFor(pattern, timeoutMs = 30_000) {
      const seen = () => `stdout ${JSON.stringify(stdout)}, stderr ${JSON.stringify(stderr)}`;
      return until(`the CLI to print ${pattern}`, () => {
        const match = pattern.exec(stdout);
        if (!match && done) throw new Error(`CLI never printed ${pattern} and exited: ${seen()}`);
        return match;
      }, { timeoutMs, describe: seen });
    },
    exited,
  };
}
