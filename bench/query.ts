/**
 * `npm run bench:query`: what a small analytics query costs through the API beside its own SQL
 * (issue 34 point 2), in one run.
 *
 * 1. Embedded PostgreSQL 17, migrated; one tenant seeded by seedBaseline at a small scale (4
 *    teams, 36 months of PRs); `delivery-analytics serve` as a child process.
 * 2. The query: PRs merged and their cycle-time median by team × month over 11 months (44 rows).
 * 3. In turns (so all see the same machine), BENCH_QUERY_RUNS (200) times each, one at a time, in
 *    four rounds of 50 of each kind (BENCH_ORDER=interleaved: one of each kind in turn):
 *    - `/cubejs-api/v1/load` over one keep-alive connection;
 *    - the SQL alone: the statement `/cubejs-api/v1/sql` gives for the query, with its parameters,
 *      in the same framing as the server (a read-only REPEATABLE READ transaction) on a pool of the
 *      bench's own (the server's pool is in the other process);
 *    - `/mcp` `tools/call` of `cube_query` with the same query (one stateless request each).
 * Prints p50/p99 of each and the ratios (targets: API p50 ≤ 2× SQL p50; MCP p50 < 30 ms), and the
 * CPU time each kind of request cost the server process and PostgreSQL (ticks of /proc over each
 * kind's turns, per request): figures that a loaded machine stretches much less than latencies.
 * API keys are rotated so that none passes its 100-a-minute general limit. BENCH_PROFILE=1 writes
 * a CPU profile of the server to BENCH_PROFILE_DIR (/tmp/da-query-profiles).
 */
import { Agent } from 'node:http';
import { cpus, loadavg } from 'node:os';
import pg from 'pg';
import { insertKey, createTenant } from '../src/tenants/service.js';
import { openDatabase } from '../src/db/client.js';
import { seedBaseline } from './baselineData.js';
import { call, cpuTicks, migrate, serverEnv, settle, startDatabase, startServerProcess, summarise, type ServerProcess } from './support.js';

const RUNS = Number(process.env.BENCH_QUERY_RUNS ?? 200);
const ROUNDS = 4;

const QUERY = {
  measures: ['pull_requests.prs_merged', 'pull_requests.pr_cycle_time_p50_seconds'],
  dimensions: ['teams.name'],
  timeDimensions: [{ dimension: 'pull_requests.merged_at', granularity: 'month', dateRange: ['2024-02-01', '2024-12-31'] }],
  order: { 'teams.name': 'asc' },
};
const MCP_QUERY = { ...QUERY, order: [{ member: 'teams.name', direction: 'asc' }] };

async function main(): Promise<number> {
  process.stdout.write(`query benchmark: ${RUNS} runs of each, one at a time; load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores\n`);
  const database = await startDatabase();
  let server: ServerProcess | null = null;
  const pool = new pg.Pool({ connectionString: database.url, max: 4 });
  pool.on('error', () => {});
  try {
    const env = serverEnv(database.url);
    await migrate(env);
    const db = openDatabase(database.url, { max: 4, unscoped: 'test-fixture' });
    const keys: string[] = [];
    let tenantId: string;
    try {
      const made = await createTenant(db.db, { name: 'Query bench', ownerEmail: 'owner@query.example', apiKey: false });
      tenantId = made.tenantId;
      // Three kinds of request per run, 100 a minute per key.
      const needed = Math.ceil((RUNS * 3 + 20) / 90) + 1;
      for (let k = 0; k < needed; k += 1) keys.push(await insertKey(db.db, made.tenantId, made.userId, 'bench'));
    } finally {
      await db.close();
    }
    const t0 = performance.now();
    await seedBaseline(pool, tenantId, '2024-01', { teams: 4, people: 60, projects: 8, prs: 4_000, commits: 8_000, deployments: 2_000, issues: 2_000, sessions: 1_000 });
    await pool.query('analyze');
    process.stdout.write(`seeded one tenant (4 teams, 4,000 PRs over 36 months) in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);

    server = await startServerProcess(env, process.env.BENCH_PROFILE === '1' ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR ?? '/tmp/da-query-profiles'}`] : []);
    await settle(server.pid);
    const base = new URL(server.url);
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    let turn = 0;
    const key = () => keys[Math.floor((turn += 1) / 90)] as string;

    const load = async () => {
      const res = await call(agent, base, 'POST', '/cubejs-api/v1/load', key(), { query: QUERY });
      if (res.status !== 200) throw new Error(`load: ${res.status} ${res.text.slice(0, 300)}`);
      return JSON.parse(res.text) as { data: unknown[] };
    };
    const sqlRes = await call(agent, base, 'GET', `/cubejs-api/v1/sql?query=${encodeURIComponent(JSON.stringify(QUERY))}`, key());
    if (sqlRes.status !== 200) throw new Error(`sql: ${sqlRes.status} ${sqlRes.text.slice(0, 300)}`);
    const [sql, params] = (JSON.parse(sqlRes.text) as { sql: { sql: [string, unknown[]] } }).sql.sql;
    const runSql = async () => {
      const client = await pool.connect();
      try {
        await client.query('begin isolation level repeatable read read only');
        const { rows } = await client.query({ text: sql, values: params });
        await client.query('commit');
        return rows;
      } finally {
        client.release();
      }
    };
    let rpc = 0;
    const mcp = async () => {
      const res = await call(agent, base, 'POST', '/mcp', key(), { jsonrpc: '2.0', id: (rpc += 1), method: 'tools/call', params: { name: 'cube_query', arguments: MCP_QUERY } },
        { accept: 'application/json, text/event-stream' });
      if (res.status !== 200) throw new Error(`mcp: ${res.status} ${res.text.slice(0, 300)}`);
      const body = JSON.parse(res.text) as { result?: { isError?: boolean; structuredContent?: { rows: unknown[] } } };
      if (!body.result || body.result.isError) throw new Error(`mcp: ${res.text.slice(0, 300)}`);
      return body.result.structuredContent?.rows ?? [];
    };

    // Warm-up, and the answer checked once: 44 rows on each path.
    const counts = [(await load()).data.length, (await runSql()).length, (await mcp()).length];
    process.stdout.write(`rows: API ${counts[0]}, SQL ${counts[1]}, MCP ${counts[2]}\n`);
    for (let i = 0; i < 10; i += 1) await Promise.all([load(), runSql(), mcp()].map((p) => p.then(() => undefined)));

    const times: Record<'api' | 'sql' | 'mcp', number[]> = { api: [], sql: [], mcp: [] };
    // CPU ticks (10 ms) of the server process, of PostgreSQL and of this process, over each kind's turns.
    const ticks = { api: [0, 0, 0], sql: [0, 0, 0], mcp: [0, 0, 0] };
    const serverPid = server.pid;
    const sample = () => [cpuTicks(serverPid), database.cpuTicks(), cpuTicks(process.pid)];
    const timed = async (into: number[], body: () => Promise<unknown>) => {
      const start = performance.now();
      await body();
      into.push(performance.now() - start);
    };
    // BENCH_ORDER=interleaved: one request of each kind in turn, so that all three see the same
    // moment of a loaded machine (the ratio's scatter is mostly the load changing between turns).
    // The CPU of each kind is then not measured: a turn is shorter than a tick.
    const interleaved = process.env.BENCH_ORDER === 'interleaved';
    const [rounds, each] = interleaved ? [RUNS, 1] : [ROUNDS, RUNS / ROUNDS];
    const inTurn = async (kind: 'api' | 'sql' | 'mcp', body: () => Promise<unknown>, count: number) => {
      const before = interleaved ? [] : sample();
      for (let i = 0; i < count; i += 1) await timed(times[kind], body);
      if (!interleaved) sample().forEach((t, i) => (ticks[kind][i]! += t - before[i]!));
    };
    for (let round = 0; round < rounds; round += 1) {
      await inTurn('api', load, each);
      await inTurn('sql', runSql, each);
      await inTurn('mcp', mcp, each);
    }
    agent.destroy();
    const [api, alone, tool] = [summarise(times.api, 1), summarise(times.sql, 1), summarise(times.mcp, 1)];
    const line = (label: string, s: typeof api) => `${label.padEnd(44)} p50 ${s.p50.toFixed(2).padStart(7)} ms   p99 ${s.p99.toFixed(2).padStart(7)} ms   (${s.count})\n`;
    process.stdout.write(line('/cubejs-api/v1/load (44 rows)', api));
    process.stdout.write(line('its SQL alone (read-only transaction)', alone));
    process.stdout.write(line('/mcp tools/call cube_query', tool));
    const perRequest = (kind: 'api' | 'sql' | 'mcp', i: number) => ((ticks[kind][i]! * 10) / times[kind].length).toFixed(2).padStart(6);
    if (!interleaved) {
      process.stdout.write(`CPU ms per request   server   PostgreSQL   bench\n`);
      for (const [kind, label] of [['api', '/load'], ['sql', 'SQL alone'], ['mcp', '/mcp']] as const) {
        process.stdout.write(`  ${label.padEnd(18)} ${perRequest(kind, 0)}   ${perRequest(kind, 1)}       ${perRequest(kind, 2)}\n`);
      }
    }
    process.stdout.write(`API p50 ÷ SQL p50: ${(api.p50 / alone.p50).toFixed(2)} (target <= 2)\n`);
    process.stdout.write(`MCP cube_query p50: ${tool.p50.toFixed(1)} ms (target < 30); load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores; order ${interleaved ? 'interleaved' : 'rounds of 50'}\n`);
    return counts.every((c) => c === 44) ? 0 : 1;
  } finally {
    await pool.end();
    if (server) await server.stop();
    await database.stop();
  }
}

process.exitCode = await main();
