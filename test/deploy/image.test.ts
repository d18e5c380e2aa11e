/**
 * The Dockerfile and .env.example, checked by reading them (no container engine here): one
 * image for server and migration job, production dependencies only, a non-root user, a liveness
 * healthcheck; and an env file example that names every variable the server and compose read.
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { expect } from 'chai';
import { freePort } from '../../src/dev.js';
import { testServer } from '../helpers/server.js';
import { ROOT } from './composeModel.js';

/** Exit code of a command run with the given extra environment. */
function exitCode(argv: string[], env: Record<string, string>): Promise<number> {
  return new Promise((resolve) => {
    execFile(argv[0] as string, argv.slice(1), { env: { ...process.env, ...env }, timeout: 10_000 }, (error) => {
      resolve(error ? ((error as { code?: number }).code ?? 1) : 0);
    });
  });
}

interface Instruction {
  op: string;
  args: string;
}

/** Instructions per stage, continuation lines joined and comments dropped. */
function dockerfileStages(text: string): Map<string, { from: string; steps: Instruction[] }> {
  const lines = text.replace(/\\\n/g, ' ').split('\n').map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('#'));
  const stages = new Map<string, { from: string; steps: Instruction[] }>();
  let current: Instruction[] | null = null;
  for (const line of lines) {
    const [op, ...rest] = line.split(/\s+/);
    const args = rest.join(' ');
    if (op === 'FROM') {
      const match = /^(\S+) AS (\S+)$/i.exec(args);
      expect(match, line).not.to.equal(null);
      current = [];
      stages.set((match as RegExpExecArray)[2] as string, { from: (match as RegExpExecArray)[1] as string, steps: current });
    } else if (current) {
      current.push({ op: op as string, args });
    }
  }
  return stages;
}

describe('container image (Dockerfile)', () => {
  const text = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
  const stages = dockerfileStages(text);
  const runtime = stages.get('runtime')!;
  const step = (op: string) => runtime.steps.filter((s) => s.op === op).map((s) => s.args);

  it('is multi-stage on Node slim, and the runtime stage is last (the one `docker build` produces)', () => {
    expect([...stages.keys()]).to.deep.equal(['deps', 'build', 'prod-deps', 'runtime']);
    expect(text).to.match(/^ARG NODE_IMAGE=node:24-slim$/m);
    for (const stage of ['deps', 'prod-deps', 'runtime']) expect(stages.get(stage)!.from).to.equal('${NODE_IMAGE}');
    expect(stages.get('build')!.from).to.equal('deps');
  });

  it('installs production dependencies only into the image, from the lock file', () => {
    const prodRuns = stages.get('prod-deps')!.steps.filter((s) => s.op === 'RUN').map((s) => s.args);
    expect(prodRuns.join(' ')).to.include('npm ci --omit=dev');
    expect(step('COPY')).to.include('--from=prod-deps /app/node_modules ./node_modules');
    // Nothing from the full install (dev dependencies) reaches the runtime stage.
    expect(step('COPY').filter((c) => c.includes('node_modules'))).to.have.lengthOf(1);
    expect(step('RUN')).to.deep.equal([]);
  });

  it('ships the compiled server, the migrations and the web app (npm run build makes both)', () => {
    const build = stages.get('build')!.steps.filter((s) => s.op === 'RUN').map((s) => s.args).join(' ');
    expect(build).to.include('npm run build');
    const scripts = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).scripts;
    expect(scripts.build).to.include('npm run build:web');
    expect(scripts['build:web']).to.equal('vite build web && node web/scripts/budget.mjs');
    expect(build).to.include('mkdir -p web/dist schema');
    expect(step('COPY')).to.include.members(['bin ./bin', 'migrations ./migrations', 'corpus ./corpus', '--from=build /app/dist ./dist', '--from=build /app/web/dist ./web/dist', '--from=build /app/schema ./schema']);
  });

  it('ships every file the server reads beside its own code (a path from import.meta.url), as the compiled server finds it', () => {
    // Paths are resolved from where the compiled file runs (dist/<same folder>): tsc emits only
    // code there, so a data file must live in a folder the runtime stage copies.
    const shipped = step('COPY').map((c) => c.split(/\s+/).pop()!.replace(/^\.\//, ''));
    const reads: string[] = [];
    const walk = (dir: string): void => {
      for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
        const path = `${dir}/${entry.name}`;
        if (entry.isDirectory()) walk(path);
        else if (path.endsWith('.ts')) {
          for (const m of readFileSync(join(ROOT, path), 'utf8').matchAll(/new URL\('([^']+)', import\.meta\.url\)/g)) {
            const target = posix.normalize(posix.join(posix.dirname(path.replace(/^src\//, 'dist/')), m[1]!));
            reads.push(target);
          }
        }
      }
    };
    walk('src');
    expect(reads).to.include.members(['schema', 'migrations', 'corpus/snapshot.json', 'corpus/repositories.json']);
    for (const target of reads) {
      const top = target.split('/')[0]!;
      expect(top, target).to.not.equal('dist');
      expect(shipped, target).to.include(top);
      expect(existsSync(join(ROOT, target)), target).to.equal(true);
    }
  });

  it('runs as the unprivileged `node` user, `serve` by default, with a liveness healthcheck on /health', () => {
    expect(step('USER')).to.deep.equal(['node']);
    const order = runtime.steps.map((s) => s.op);
    expect(order.indexOf('USER')).to.be.lessThan(order.indexOf('ENTRYPOINT'));
    expect(step('ENTRYPOINT')).to.deep.equal(['["node", "bin/delivery-analytics.js"]']);
    expect(step('CMD')).to.deep.equal(['["serve"]']);
    const [healthcheck] = step('HEALTHCHECK');
    expect(healthcheck).to.match(/^--interval=\d+s --timeout=\d+s --start-period=\d+s --retries=\d+ CMD \[/);
    expect(healthcheck).to.include("'/health'");
    expect(step('ENV').join(' ')).to.include('NODE_ENV=production');
  });

  it('the HEALTHCHECK command exits 0 against a live server on PORT and 1 when nothing answers', async () => {
    const [healthcheck] = step('HEALTHCHECK');
    const argv = JSON.parse((healthcheck as string).replace(/^.*? CMD /, '')) as string[];
    expect(argv[0]).to.equal('node');
    argv[0] = process.execPath;
    const api = await testServer();
    try {
      const port = new URL(api.baseUrl).port;
      expect(await exitCode(argv, { PORT: port })).to.equal(0);
    } finally {
      await api.close();
    }
    expect(await exitCode(argv, { PORT: String(await freePort()) })).to.equal(1);
  });

  it('keeps secrets and local state out of the build context', () => {
    const ignored = readFileSync(join(ROOT, '.dockerignore'), 'utf8').split('\n');
    expect(ignored).to.include.members(['.env', '.data', 'node_modules', 'dist', '.git']);
  });
});

describe('.env.example', () => {
  const example = readFileSync(join(ROOT, '.env.example'), 'utf8');
  const named = new Set([...example.matchAll(/^#?\s*([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]));

  it('names every variable the server reads (src/config/) and every variable compose.yaml reads', () => {
    const dir = join(ROOT, 'src/config');
    const config = readdirSync(dir).filter((f) => f.endsWith('.ts')).map((f) => readFileSync(join(dir, f), 'utf8')).join('\n');
    // Test-only switches (TEST_*) are refused outside NODE_ENV=test and have no place in a deployment.
    const serverVariables = [...new Set([...config.matchAll(/'([A-Z][A-Z0-9_]+)'/g)].map((m) => m[1] as string))].filter((n) => !n.startsWith('TEST_'));
    expect(serverVariables.length).to.be.greaterThan(60);
    const compose = readFileSync(join(ROOT, 'compose.yaml'), 'utf8');
    const composeVariables = [...new Set([...compose.matchAll(/\$\{([A-Z][A-Z0-9_]*)/g)].map((m) => m[1] as string))];
    expect(composeVariables).to.include.members(['SERVER_REPLICAS', 'OBJSTORE_CONSOLE_PORT', 'DB_PASSWORD', 'PORT']);
    const missing = [...serverVariables, ...composeVariables].filter((n) => !named.has(n));
    expect(missing).to.deep.equal([]);
  });

  it('warns that the default DB_PASSWORD is publicly known', () => {
    const around = example.slice(Math.max(0, example.indexOf('DB_PASSWORD=') - 400), example.indexOf('DB_PASSWORD=') + 100);
    expect(around).to.match(/publicly known/i);
    expect(around).to.match(/change/i);
  });

  it('leaves every secret empty: the example never carries a usable credential', () => {
    const secrets = [...example.matchAll(/^([A-Z][A-Z0-9_]*(?:SECRET|KEY|PASSWORD|TOKEN)[A-Z0-9_]*)=(.*)$/gm)];
    expect(secrets.map((match) => match[1])).to.include.members(['OAUTH_ENCRYPTION_KEY', 'DB_PASSWORD', 'S3_SECRET_ACCESS_KEY']);
    for (const match of secrets) expect(match[2], match[1]).to.equal('');
  });
});
