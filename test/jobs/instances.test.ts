/**
 * Three real `serve` processes on one database: jobs claimed once, a killed instance's jobs
 * retried elsewhere, leaderless per-second schedule windows, live events fanned out through
 * NOTIFY, a non-worker instance that claims nothing, and a SIGTERM drain within its grace.
 * The test-only job kinds and route exist only under TEST_HOOKS (NODE_ENV=test).
 */
import type { ChildProcess } from 'node:child_process';
import { expect } from 'chai';
import pg from 'pg';
import WebSocket from 'ws';
import { bossOver } from '../../src/jobs/boss.js';
import { freePort } from '../../src/dev.js';
import { spawnServeOnFreePort } from '../helpers/cli.js';
import { freshDatabase } from '../helpers/database.js';
import { buildTenant, twoTenants, type BuiltTenant } from '../helpers/factories.js';
import { baseEnv } from '../helpers/server.js';
import { until } from '../ai/helpers.js';
import { loadConfig } from '../../src/config/index.js';
import { createLogger } from '../../src/log.js';
import { startServer } from '../../src/server.js';

const TEST_TABLES = `
  create table test_job_attempts (key text not null, instance text not null, job_id uuid, at timestamptz not null default clock_timestamp());
  create table test_job_effects (key text primary key, instance text not null, job_id uuid, at timestamptz not null default clock_timestamp());`;

interface Instance {
  name: string;
  url: string;
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

async function start(name: string, databaseUrl: string, extra: Record<string, string> = {}): Promise<Instance> {
  const { child, output, exited, port } = await spawnServeOnFreePort((port) => ({
    ...baseEnv(databaseUrl, port),
    TEST_HOOKS: 'true',
    JOBS_QUEUE_CONCURRENCY: '4',
    JOBS_POLL_INTERVAL_MS: '500',
    ...extra,
  }));
  return { name, url: `http://127.0.0.1:${port}`, child, output, exited };
}

/** The instance id recorded in rows is `host:pid:random`. */
const pidOf = (instance: string) => Number(instance.split(':')[1]);

function openLive(url: string, apiKey: string): Promise<{ ws: WebSocket; messages: { at: number; data: any }[]; closed: Promise<number> }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${url.replace('http', 'ws')}/api/live`, { headers: { authorization: `Bearer ${apiKey}` } });
    const messages: { at: number; data: any }[] = [];
    const closed = new Promise<number>((done) => ws.on('close', (code) => done(code)));
    ws.on('message', (raw) => {
      const data = JSON.parse(raw.toString());
      messages.push({ at: Date.now(), data });
      if (data.kind === 'live.ready') resolve({ ws, messages, closed });
    });
    ws.on('error', reject);
  });
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;

describe('jobs, schedules and live progress across three instances', function () {
  this.timeout(180_000);
  let databaseUrl: string;
  let pool: pg.Pool;
  let tenant: BuiltTenant;
  let other: BuiltTenant;
  let a: Instance, b: Instance, c: Instance;
  // G drains on a database of its own, started together with the three (each spawn loads the
  // whole program, which dominates this file's run time).
  let g: Instance;
  let drainUrl: string;
  let drainDb: pg.Pool;
  const spawned: Instance[] = [];

  before(async () => {
    databaseUrl = await freshDatabase();
    pool = new pg.Pool({ connectionString: databaseUrl, max: 4 });
    pool.on('error', () => {});
    await pool.query(TEST_TABLES);
    ({ a: tenant, b: other } = await twoTenants(databaseUrl));
    drainUrl = await freshDatabase();
    drainDb = new pg.Pool({ connectionString: drainUrl, max: 2 });
    drainDb.on('error', () => {});
    await drainDb.query(TEST_TABLES);
    [a, b, c, g] = await Promise.all([
      start('A', databaseUrl),
      start('B', databaseUrl),
      start('C', databaseUrl),
      start('G', drainUrl, { JOBS_SHUTDOWN_GRACE_MS: '1500' }),
    ]);
    spawned.push(a, b, c, g);
  });

  after(async () => {
    for (const instance of spawned) if (instance.child.exitCode === null && instance.child.signalCode === null) instance.child.kill('SIGKILL');
    await pool?.end();
    await drainDb?.end();
  });

  it('an event raised on instance A reaches the tenant\'s clients on B and C, and no other tenant', async () => {
    const onB = await openLive(b.url, tenant.owner.apiKey);
    const onC = await openLive(c.url, tenant.owner.apiKey);
    const stranger = await openLive(b.url, other.owner.apiKey);
    const count = 100;
    // Ten at a time: each event carries the time the test sent it.
    for (let batch = 0; batch < count; batch += 10) {
      const statuses = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          fetch(`${a.url}/api/test/live`, {
            method: 'POST',
            headers: { authorization: `Bearer ${tenant.owner.apiKey}`, 'content-type': 'application/json' },
            body: JSON.stringify({ sentAt: Date.now(), seq: batch + i }),
          }).then((res) => res.status),
        ),
      );
      expect(statuses).to.deep.equal(Array(10).fill(202));
    }
    const pings = (client: { messages: { at: number; data: any }[] }) => client.messages.filter((m) => m.data.kind === 'test.ping');
    await until('every event on B and C', async () => pings(onB).length === count && pings(onC).length === count);
    for (const client of [onB, onC]) {
      expect(pings(client).map((m) => m.data.seq).sort((x, y) => x - y)).to.deep.equal([...Array(count).keys()]);
      expect(pings(client)[0]!.data).to.have.keys('kind', 'sentAt', 'seq', 'at');
    }
    const latencies = [...pings(onB), ...pings(onC)].map((m) => m.at - m.data.sentAt).sort((x, y) => x - y);
    console.log(`      live fan-out A → B, C: ${latencies.length} deliveries, p50 ${percentile(latencies, 50)} ms, p99 ${percentile(latencies, 99)} ms, max ${latencies.at(-1)} ms`);
    // NOTIFY keeps the order events were raised in: once one raised afterwards for the other
    // tenant reached its client on B, any of the hundred sent there would have arrived before it.
    const marker = await fetch(`${a.url}/api/test/live`, {
      method: 'POST',
      headers: { authorization: `Bearer ${other.owner.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ sentAt: Date.now(), seq: -1 }),
    });
    expect(marker.status).to.equal(202);
    await until('the other tenant\'s own event', async () => pings(stranger).length > 0);
    expect(pings(stranger).map((m) => m.data.seq)).to.deep.equal([-1]);
    for (const client of [onB, onC, stranger]) client.ws.close();
  });

  it('runs 1,000 jobs over three instances, each effect exactly once, with one instance SIGKILLed midway', async () => {
    const boss = bossOver(pool);
    const jobs = Array.from({ length: 1000 }, (_, i) => ({ name: 'test.effect', data: { key: `job-${i}`, sleepMs: 25 } }));
    const started = Date.now();
    await boss.insert(jobs);
    const effects = async () => Number((await pool.query(`select count(*)::int as n from test_job_effects where key like 'job-%'`)).rows[0].n);
    await until('a quarter of the effects', async () => (await effects()) >= 250, 60_000);
    c.child.kill('SIGKILL');
    await c.exited;
    const killedAt = Date.now();
    await until('every job completed', async () => {
      const r = await pool.query(`select count(*)::int as n from pgboss.job where name = 'test.effect' and state = 'completed'`);
      return r.rows[0].n === 1000;
    }, 90_000);
    console.log(`      1,000 jobs: ${Date.now() - started} ms in all, finished ${Date.now() - killedAt} ms after the kill`);

    const byKey = await pool.query<{ key: string; instance: string }>(`select key, instance from test_job_effects where key like 'job-%'`);
    expect(byKey.rows).to.have.length(1000);
    expect(new Set(byKey.rows.map((r) => r.key)).size).to.equal(1000);
    const effectPids = new Set(byKey.rows.map((r) => pidOf(r.instance)));
    for (const instance of [a, b, c]) expect(effectPids.has(instance.child.pid as number), `${instance.name} did some of the work`).to.equal(true);

    // A job is held by one instance at a time: a second attempt starts only after the first one's
    // expiry (5 s) ran out, which happens to the (at most 4) jobs C held when it died.
    const attempts = await pool.query<{ key: string; instances: string[]; ats: Date[] }>(
      `select key, array_agg(instance order by at) as instances, array_agg(at order by at) as ats from test_job_attempts where key like 'job-%' group by key`,
    );
    expect(attempts.rows).to.have.length(1000);
    const repeated = attempts.rows.filter((r) => r.instances.length > 1);
    console.log(`      ${repeated.length} jobs claimed a second time after their holder's expiry`);
    expect(repeated.filter((r) => pidOf(r.instances[0] as string) === c.child.pid).length).to.be.at.most(4);
    for (const row of repeated) {
      for (let i = 1; i < row.ats.length; i++) {
        expect((row.ats[i] as Date).getTime() - (row.ats[i - 1] as Date).getTime()).to.be.at.least(4000);
      }
    }
  });

  it('JOBS_WORKER_ENABLED=false: the instance serves but claims no job and no schedule window', async () => {
    const url = await freshDatabase();
    const db = new pg.Pool({ connectionString: url, max: 2 });
    const env = async (extra: Record<string, string>) => ({ ...baseEnv(url, await freePort()), TEST_HOOKS: 'true', JOBS_POLL_INTERVAL_MS: '100', ...extra });
    try {
      await db.query(TEST_TABLES);
      const idle = await startServer(loadConfig(await env({ JOBS_WORKER_ENABLED: 'false' })), createLogger('silent'));
      try {
        expect(idle.worker).to.equal(null);
        const ready = await fetch(`${idle.url.replace('localhost', '127.0.0.1')}/health/ready`).then((r) => r.json());
        expect(ready.jobs).to.deep.equal({ workerEnabled: false });
        await bossOver(db).insert(Array.from({ length: 20 }, (_, i) => ({ name: 'test.effect', data: { key: `idle-${i}`, sleepMs: 50 } })));
        // A worker beside it does all the work: jobs and windows were claimable all along, and the
        // idle instance, polling as often, took none of them.
        const busy = await startServer(loadConfig(await env({ JOBS_QUEUE_CONCURRENCY: '2' })), createLogger('silent'));
        try {
          await until('the worker to finish the jobs and run three windows', async () => {
            const done = await db.query(`select count(*)::int as n from pgboss.job where name = 'test.effect' and state = 'completed'`);
            const windows = await db.query(`select count(*)::int as n from schedule_runs where schedule = 'test.tick'`);
            return done.rows[0].n === 20 && windows.rows[0].n >= 3;
          });
        } finally {
          await busy.close();
        }
        const attempts = await db.query(`select instance, count(*)::int as n from test_job_attempts where key like 'idle-%' group by instance`);
        expect(attempts.rows).to.deep.equal([{ instance: busy.instanceId, n: 20 }]);
        const claimers = await db.query(`select distinct claimed_by from schedule_runs`);
        expect(claimers.rows).to.deep.equal([{ claimed_by: busy.instanceId }]);
      } finally {
        await idle.close();
      }
    } finally {
      await db.end();
    }
  });

  it('SIGTERM: stops claiming, finishes held jobs within the grace period, returns the rest, closes sockets with 1012', async () => {
    const db = drainDb;
    const tenant = await buildTenant(drainUrl);
    const live = await openLive(g.url, tenant.owner.apiKey);
    await bossOver(db).insert([
      { name: 'test.effect', data: { key: 'quick-1', sleepMs: 300 } },
      { name: 'test.effect', data: { key: 'quick-2', sleepMs: 300 } },
      { name: 'test.effect', data: { key: 'long-1', sleepMs: 20_000 }, expireInSeconds: 60 },
      { name: 'test.effect', data: { key: 'long-2', sleepMs: 20_000 }, expireInSeconds: 60 },
    ]);
    const held = `select count(*)::int as n from test_job_attempts where key in ('quick-1', 'quick-2', 'long-1', 'long-2')`;
    await until('all four held', async () => (await db.query(held)).rows[0].n === 4);
    const sent = Date.now();
    g.child.kill('SIGTERM');
    expect(await g.exited).to.equal(0);
    const took = Date.now() - sent;
    console.log(`      drain: exited ${took} ms after SIGTERM (grace 1500 ms)`);
    expect(took).to.be.within(1400, 1500 + 4000);
    expect(await live.closed).to.equal(1012);

    const rows = await db.query(
      `select data->>'key' as key, state::text, started_on is null as unstarted, retry_count from pgboss.job
        where name = 'test.effect' and data->>'key' not like 'idle-%' order by 1`,
    );
    expect(rows.rows, JSON.stringify(rows.rows)).to.deep.equal([
      { key: 'long-1', state: 'created', unstarted: true, retry_count: 0 },
      { key: 'long-2', state: 'created', unstarted: true, retry_count: 0 },
      { key: 'quick-1', state: 'completed', unstarted: false, retry_count: 0 },
      { key: 'quick-2', state: 'completed', unstarted: false, retry_count: 0 },
    ]);
    const effects = await db.query(`select key from test_job_effects where key in ('quick-1', 'quick-2', 'long-1', 'long-2') order by key`);
    expect(effects.rows.map((r) => r.key)).to.deep.equal(['quick-1', 'quick-2']);
    const drained = g.output().split('\n').filter((l) => l.includes('"jobs drained"')).map((l) => JSON.parse(l));
    expect(drained).to.have.length(1);
    // The two long jobs went back (the quick ones finished before or during the drain).
    expect(drained[0].returned).to.equal(2);
  });

  it('a per-second schedule runs exactly once per window across the instances: 30 windows, 30 runs', async () => {
    const first = await until('the first window', async () => {
      const r = await pool.query<{ w: Date }>(`select min(window_start) as w from schedule_runs where schedule = 'test.tick'`);
      return r.rows[0]?.w ?? null;
    });
    const from = first.getTime();
    const to = from + 30_000;
    // Wait until the 30th window has run (plus its job).
    await until('30 windows', async () => Date.now() > to + 1500, 60_000);
    const runs = await pool.query<{ window_start: Date; claimed_by: string; job_id: string }>(
      `select window_start, claimed_by, job_id from schedule_runs where schedule = 'test.tick' and window_start >= $1 and window_start < $2 order by window_start`,
      [new Date(from), new Date(to)],
    );
    expect(runs.rows.map((r) => r.window_start.getTime() - from)).to.deep.equal([...Array(30).keys()].map((i) => i * 1000));
    const keys = runs.rows.map((r) => `tick:${r.window_start.toISOString()}`);
    const effects = await pool.query(`select key from test_job_effects where key = any($1::text[])`, [keys]);
    expect(effects.rows).to.have.length(30);
    const jobs = await pool.query(`select state, count(*)::int as n from pgboss.job where name = 'test.tick' and id = any($1::uuid[]) group by state`, [runs.rows.map((r) => r.job_id)]);
    expect(jobs.rows).to.deep.equal([{ state: 'completed', n: 30 }]);
    const claimers = new Set(runs.rows.map((r) => pidOf(r.claimed_by)));
    console.log(`      30 windows claimed by ${claimers.size} instances`);
    expect(claimers.size).to.be.at.least(2);
  });
});
