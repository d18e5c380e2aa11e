import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Env } from '../../src/config.js';

// The source, not bin/ (which prefers dist/ when built): a stale build must never be what a test runs.
export const MAIN = fileURLToPath(new URL('../../src/main.ts', import.meta.url));
const NODE_ARGS = ['--import', 'tsx', MAIN];

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the real CLI in a child process with exactly the given environment (plus PATH). */
export function runCli(args: string[], env: Env, input?: string): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...NODE_ARGS, ...args], { env: { PATH: process.env.PATH, ...env } as NodeJS.ProcessEnv });
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
    const child = spawn(process.execPath, [...NODE_ARGS, 'serve'], { env: { PATH: process.env.PATH, ...env, LOG_LEVEL: 'info' } as NodeJS.ProcessEnv });
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
