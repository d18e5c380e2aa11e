/**
 * A schedule window whose claim failed because the database was down is claimed when the
 * database is back, not skipped: a nightly job does not lose its day. The database is really
 * stopped across the window; the clock is the scheduler's own option.
 */
import { expect } from 'chai';
import { openDatabase, type Database } from '../../src/db/client.js';
import { Scheduler, type ScheduleDefinition } from '../../src/jobs/scheduler.js';
import { createLogger } from '../../src/log.js';
import { stoppableDatabase, type StoppableDatabase } from '../helpers/stoppableDatabase.js';

const NIGHTLY: ScheduleDefinition = {
  name: 'test.nightly',
  job: 'integrations.flag-stale',
  everySeconds: 24 * 3600,
  offsetSeconds: 2.5 * 3600, // 02:30 UTC
  summary: 'a nightly sweep',
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('schedules across a database outage', function () {
  this.timeout(120_000);
  let database: StoppableDatabase;
  let pool: Database;
  let scheduler: Scheduler | null = null;

  before(async () => {
    database = await stoppableDatabase();
    pool = openDatabase(database.url, { max: 2, unscoped: 'test-fixture' });
  });
  after(async () => {
    await scheduler?.stop();
    await pool?.close();
    await database?.remove();
  });

  async function runs(): Promise<{ window_start: Date; job_id: string | null }[]> {
    return (await pool.pool.query('select window_start, job_id from schedule_runs where schedule = $1 order by window_start', [NIGHTLY.name])).rows;
  }

  it('claims the 02:30 window once the database is back, with its job enqueued', async () => {
    let now = Date.parse('2026-03-10T02:00:00Z');
    // Every tick reads the clock: counting reads is how the test knows ticks happened (no pauses).
    let reads = 0;
    const ticks = async (n: number) => {
      for (const until = reads + n; reads < until; ) await sleep(10);
    };
    scheduler = new Scheduler({ pool: pool.pool, schedules: [NIGHTLY], instanceId: 'test', log: createLogger('silent'), tickMs: 20, now: () => (reads++, now) });
    scheduler.start();
    await ticks(5);
    expect(await runs()).to.deep.equal([]);

    await database.stop();
    now = Date.parse('2026-03-10T02:30:01Z');
    await ticks(5); // several ticks, every claim refused
    now = Date.parse('2026-03-10T04:10:00Z');
    await ticks(3);
    await database.start();

    let found: { window_start: Date; job_id: string | null }[] = [];
    for (let i = 0; i < 200 && found.length === 0; i++) {
      await sleep(100);
      found = await runs().catch(() => []);
    }
    expect(found.map((r) => r.window_start.toISOString())).to.deep.equal(['2026-03-10T02:30:00.000Z']);
    expect(found[0]!.job_id).to.be.a('string');
    const job = await pool.pool.query('select data from pgboss.job where id = $1', [found[0]!.job_id]);
    expect(job.rows[0].data).to.deep.equal({ schedule: NIGHTLY.name, windowStart: '2026-03-10T02:30:00.000Z' });

    // And the next night is claimed as usual, once.
    now = Date.parse('2026-03-11T02:30:05Z');
    for (let i = 0; i < 100 && (await runs()).length < 2; i++) await sleep(50);
    expect((await runs()).map((r) => r.window_start.toISOString())).to.deep.equal(['2026-03-10T02:30:00.000Z', '2026-03-11T02:30:00.000Z']);
  });
});
