/**
 * `npm start` (the `dev` launcher) as a person runs it: in a terminal, where Ctrl-C sends SIGINT to
 * the whole foreground process group. It must exit 0 after the server drained and then the
 * embedded database stopped, in that order, and a second start on the same .data must again say
 * how to sign in.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { freePort } from '../../src/db/embedded.js';
import { nodeArgs } from '../helpers/cli.js';
import { cubeCacheEnv } from '../helpers/cubeCache.js';

interface Run {
  output: () => string;
  exited: Promise<number | null>;
  pid: number;
}

const started: Run[] = [];

function startDev(cwd: string, port: number): Promise<Run> {
  return new Promise((resolve, reject) => {
    // detached: a process group of its own, as a terminal gives a foreground job.
    // Run from another directory (its .data): nodeArgs() names everything by its path.
    const child = spawn(process.execPath, [...nodeArgs(), 'dev'], {
      cwd,
      detached: true,
      // The run's compile cache: each start compiles the models once (migrate's bi views, then serve
      // reuses them); what the launcher itself does is the same with or without it.
      env: { PATH: process.env.PATH, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info', ...cubeCacheEnv() } as NodeJS.ProcessEnv,
    });
    let out = '';
    const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
    started.push({ output: () => out, exited, pid: child.pid as number });
    const onData = (chunk: Buffer) => {
      out += chunk;
      if (out.includes('(Ctrl-C stops it)')) resolve({ output: () => out, exited, pid: child.pid as number });
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    void exited.then((code) => reject(new Error(`dev exited with ${code} before serving: ${out}`)));
  });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const logLines = (output: string): { msg: string; dataDir?: string }[] =>
  output.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { msg: string });
const messages = (output: string): string[] => logLines(output).map((l) => l.msg);
const root = process.getuid?.() === 0;

describe('npm start: a private directory, Ctrl-C and restart', function () {
  this.timeout(240_000);
  // A private directory (mode 0700, as /root is): as root, the postgres user cannot reach it.
  let cwd: string;
  let dataDir: string;
  before(() => {
    cwd = mkdtempSync(join(tmpdir(), 'da-dev-'));
    dataDir = join(cwd, '.data', 'postgres');
  });
  after(async () => {
    // A failed assertion must not leave a launcher (and its database) running.
    for (const run of started) {
      if (alive(run.pid)) process.kill(-run.pid, 'SIGINT');
      await run.exited;
    }
    rmSync(cwd, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('npm start execs the launcher, so npm sees its exit code, not the shell\'s reaction to Ctrl-C', () => {
    // Through `sh -c` without exec, the shell dies of the SIGINT after the launcher exited 0 and npm exits 130.
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.start).to.equal('exec node bin/delivery-analytics.js dev');
  });

  it('runs (as root: data where the postgres user can reach it), exits 0 after the server drained and then the database stopped; a restart prints the sign-in hint again', async () => {
    const port = await freePort();
    const first = await startDev(cwd, port);
    expect(first.output()).to.include('Sign in at http://localhost:');
    const moved = logLines(first.output()).find((l) => l.msg.startsWith('embedded database kept in'));
    if (root) {
      expect(moved?.dataDir).to.match(/^\/var\/lib\/delivery-analytics\/postgres-[0-9a-f]{12}$/);
      dataDir = moved!.dataDir!;
    } else {
      expect(moved).to.equal(undefined);
    }
    const postmaster = Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    expect(alive(postmaster)).to.equal(true);
    expect((await fetch(`http://127.0.0.1:${port}/health/ready`)).status).to.equal(200);

    process.kill(-first.pid, 'SIGINT'); // the terminal's Ctrl-C: the whole process group
    expect(await first.exited).to.equal(0);
    const order = messages(first.output()).filter((m) => ['shutting down', 'jobs drained', 'stopped', 'embedded database stopped'].includes(m));
    expect(order).to.deep.equal(['shutting down', 'jobs drained', 'stopped', 'embedded database stopped']);
    expect(alive(postmaster)).to.equal(false);

    const second = await startDev(cwd, port);
    expect(second.output()).to.include(`Sign in at http://localhost:${port}/login as owner@example.com`);
    process.kill(-second.pid, 'SIGINT');
    expect(await second.exited).to.equal(0);
  });
});
