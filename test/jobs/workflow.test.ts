/**
 * Workflows (multi-step jobs) on the real queue: the per-instance workflow limit holds across
 * workflow queues, a retry resumes at the first unfinished step, progress goes out per step.
 * Also the schedule window arithmetic.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { expect } from 'chai';
import { z } from 'zod';
import { loadConfig } from '../../src/config/index.js';
import type { AppContext } from '../../src/context.js';
import { openDatabase, type Database } from '../../src/db/client.js';
import { bossOver, installJobQueues } from '../../src/jobs/boss.js';
import { defineWorkflow, type JobDefinition } from '../../src/jobs/define.js';
import { createJobQueue } from '../../src/jobs/index.js';
import { JobRunner } from '../../src/jobs/runner.js';
import { windowStartOf } from '../../src/jobs/scheduler.js';
import type { LiveEvent } from '../../src/live/events.js';
import { createLogger } from '../../src/log.js';
import { freshDatabase } from '../helpers/database.js';
import { buildTenant } from '../helpers/factories.js';
import { baseEnv } from '../helpers/server.js';
import { until } from '../helpers/until.js';
import { requestHooks } from '../../src/app.js';

describe('workflows', function () {
  this.timeout(30_000);
  let database: Database;
  let app: AppContext;
  let tenantId: string;
  const published: { tenantId: string; event: LiveEvent }[] = [];
  let running = 0;
  let maxRunning = 0;
  const calls: string[] = [];

  const Payload = z.object({ tenantId: z.uuid(), label: z.string(), failOnce: z.boolean().default(false) });
  const step = (name: string) => ({
    name,
    async run(ctx: { job: { retryCount: number } }, payload: z.infer<typeof Payload>, state: { trail: string[] }) {
      running++;
      maxRunning = Math.max(maxRunning, running);
      calls.push(`${payload.label}:${name}`);
      await delay(50);
      running--;
      if (payload.failOnce && name === 'load' && ctx.job.retryCount === 0) throw new Error('source unavailable');
      return { trail: [...state.trail, name] };
    },
  });
  const workflow = (name: string): JobDefinition =>
    defineWorkflow({
      name,
      summary: 'test workflow',
      idempotency: 'test',
      payload: Payload,
      tenantOf: (p) => p.tenantId,
      retryDelaySeconds: 0,
      initialState: { trail: [] as string[] },
      steps: [step('validate'), step('load'), step('summarise')],
    });
  const importFlow = workflow('test.wf-import');
  const backfillFlow = workflow('test.wf-backfill');

  before(async () => {
    const url = await freshDatabase();
    database = openDatabase(url, { max: 6, unscoped: 'test-fixture' });
    tenantId = (await buildTenant(url)).tenantId;
    await installJobQueues(database.pool, [importFlow, backfillFlow]);
    const config = loadConfig({ ...baseEnv(url), JOBS_WORKFLOW_CONCURRENCY: '2', JOBS_QUEUE_CONCURRENCY: '2', JOBS_POLL_INTERVAL_MS: '100' });
    app = {
      config,
      database,
      log: createLogger('silent'),
      jobs: createJobQueue(database.pool, [importFlow, backfillFlow]),
      live: { publish: async (t, event) => void published.push({ tenantId: t, event }) },
      requestHooks,
    };
  });
  after(() => database?.close());

  it('runs at most JOBS_WORKFLOW_CONCURRENCY workflows at once across queues; a retry resumes at the failed step', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push(await app.jobs.send(importFlow, { tenantId, label: `i${i}`, failOnce: i === 0 }));
    for (let i = 0; i < 3; i++) ids.push(await app.jobs.send(backfillFlow, { tenantId, label: `b${i}` }));
    const runner = new JobRunner({
      app,
      boss: bossOver(database.pool),
      executor: database.pool,
      defs: [importFlow, backfillFlow],
      instanceId: 'test',
      queueConcurrency: 2,
      workflowConcurrency: 2,
      pollIntervalMs: 100,
      log: app.log,
    });
    runner.start();
    const states = async () => (await database.pool.query(`select id, state::text from pgboss.job where id = any($1::uuid[])`, [ids])).rows;
    const end = Date.now() + 20_000;
    while ((await states()).some((r) => r.state !== 'completed') && Date.now() < end) await delay(100);
    await runner.drain(1000);

    expect((await states()).map((r) => r.state)).to.deep.equal(Array(6).fill('completed'));
    expect(maxRunning).to.equal(2);
    // i0 failed in `load` once: `validate` ran once, `load` twice, then `summarise`.
    expect(calls.filter((c) => c.startsWith('i0:'))).to.deep.equal(['i0:validate', 'i0:load', 'i0:load', 'i0:summarise']);
    expect(calls.filter((c) => c.startsWith('b1:'))).to.deep.equal(['b1:validate', 'b1:load', 'b1:summarise']);
    const checkpoint = await database.pool.query('select workflow, tenant_id, steps_done, state from workflow_checkpoints where job_id = $1', [ids[0]]);
    expect(checkpoint.rows).to.deep.equal([{ workflow: 'test.wf-import', tenant_id: tenantId, steps_done: 3, state: { trail: ['validate', 'load', 'summarise'] } }]);

    const forFirst = published.filter((p) => 'job' in p.event && p.event.job.id === ids[0]).map((p) => p.event);
    expect(forFirst.map((e) => (e.kind === 'job.progress' ? `progress ${e.step?.index}/${e.step?.count}` : `${e.kind} ${'outcome' in e ? e.outcome : ''}`))).to.deep.equal([
      'progress 1/3',
      'job.finished retrying',
      'progress 2/3',
      'progress 3/3',
      'job.finished completed',
    ]);
    expect(published.every((p) => p.tenantId === tenantId)).to.equal(true);
  });

  it('an idle worker asks once per poll interval which queues have work, not each queue; a job sent later is still run', async () => {
    // The runner's queries through a pool of its own that counts them: every queue's fetch (pg-boss's
    // claim, FOR UPDATE SKIP LOCKED) and the poller's one question for all queues (a named statement).
    const counted = { fetches: 0, polls: 0 };
    const pool = database.pool;
    const executor = {
      query(text: string | { name: string; text: string }, values?: unknown[]) {
        if (typeof text !== 'string') {
          if (text.name === 'jobs.queues-with-work') counted.polls++;
          return pool.query(text);
        }
        if (text.includes('FOR UPDATE SKIP LOCKED')) counted.fetches++;
        return pool.query(text, values);
      },
    };
    const defs = [importFlow, backfillFlow];
    const runner = new JobRunner({ app, boss: bossOver(executor), executor, defs, instanceId: 'idle', queueConcurrency: 2, workflowConcurrency: 2, pollIntervalMs: 100, log: app.log });
    runner.start();
    try {
      await until('ten polls', () => counted.polls >= 10);
      // The ten polls found nothing, so no queue asked: not even once at the start.
      expect(counted.fetches).to.equal(0);
      const id = await app.jobs.send(backfillFlow, { tenantId, label: 'late' });
      const state = async () => (await pool.query(`select state::text from pgboss.job where id = $1`, [id])).rows[0]?.state;
      await until('the late job completed', async () => (await state()) === 'completed');
    } finally {
      await runner.drain(1000);
    }
  });

  it('a starting worker runs the jobs already due at once, and a job due later once its time comes', async () => {
    const now = await app.jobs.send(importFlow, { tenantId, label: 'waiting' });
    const later = await app.jobs.send(backfillFlow, { tenantId, label: 'later' }, { startAfter: new Date(Date.now() + 3_600_000) });
    const state = async (id: string) => (await database.pool.query(`select state::text from pgboss.job where id = $1`, [id])).rows[0]?.state;
    // A poll interval longer than any wait here: the first job can only run from the poller's first question.
    const runner = new JobRunner({ app, boss: bossOver(database.pool), executor: database.pool, defs: [importFlow, backfillFlow], instanceId: 'start', queueConcurrency: 2, workflowConcurrency: 2, pollIntervalMs: 600_000, log: app.log });
    runner.start();
    try {
      await until('the due job completed', async () => (await state(now)) === 'completed');
      expect(await state(later)).to.equal('created');
    } finally {
      await runner.drain(1000);
    }
    await database.pool.query(`update pgboss.job set start_after = now() - interval '1 second' where id = $1`, [later]);
    const poller = new JobRunner({ app, boss: bossOver(database.pool), executor: database.pool, defs: [importFlow, backfillFlow], instanceId: 'later', queueConcurrency: 2, workflowConcurrency: 2, pollIntervalMs: 100, log: app.log });
    poller.start();
    try {
      await until('the job that became due completed', async () => (await state(later)) === 'completed');
    } finally {
      await poller.drain(1000);
    }
  });

  it('refuses a payload that does not match the job\'s schema before enqueueing', async () => {
    let error: unknown = null;
    await app.jobs.send(importFlow, { tenantId: 'not-a-uuid', label: 'x' }).catch((e) => (error = e));
    expect(error).to.be.instanceOf(z.ZodError);
  });
});

describe('schedule windows', () => {
  it('cuts time into windows of the period, shifted by the offset, in UTC', () => {
    const at = Date.parse('2026-11-22T10:17:42.500Z');
    expect(new Date(windowStartOf(at, 1)).toISOString()).to.equal('2026-11-22T10:17:42.000Z');
    expect(new Date(windowStartOf(at, 60)).toISOString()).to.equal('2026-11-22T10:17:00.000Z');
    expect(new Date(windowStartOf(at, 3600, 7 * 60)).toISOString()).to.equal('2026-11-22T10:07:00.000Z');
    expect(new Date(windowStartOf(at, 86400, 9000)).toISOString()).to.equal('2026-11-22T02:30:00.000Z');
    expect(new Date(windowStartOf(Date.parse('2026-11-22T01:00:00Z'), 86400, 9000)).toISOString()).to.equal('2026-11-21T02:30:00.000Z');
  });
});
