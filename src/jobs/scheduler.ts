/**
 * Schedules without a leader. A schedule cuts time into windows of `everySeconds` (shifted by
 * `offsetSeconds`, in UTC). Every worker instance, on every tick, tries to claim the window it is
 * in by inserting `(schedule, window_start)` into `schedule_runs`; the primary key lets exactly
 * one insert win across all instances, and the winner enqueues the schedule's job in the same
 * transaction, so a window is claimed and enqueued together or not at all.
 *
 * An instance claims only windows that began while it was running (a fresh start waits for the
 * next window rather than repeating one a previous release may already have run), and it also
 * claims the windows that passed since its previous tick (timer jitter, a stalled event loop; at
 * most ten). A window whose claim failed (the database was unreachable) stays due and is tried
 * again on every tick until a claim gets an answer, so an outage across 02:30 runs the nightly job
 * when the database is back, not a day later; at most the ten latest such windows are kept per
 * schedule. A window in which no instance was running is skipped: every scheduled job is a sweep
 * whose next run covers what a skipped one would have done.
 */
import { inTransaction } from '../db/transaction.js';
import type pg from 'pg';
import type PgBoss from 'pg-boss';
import { isDatabaseUnavailable } from '../db/unavailable.js';
import type { Logger } from '../log.js';
import { bossOver } from './boss.js';

export interface ScheduleDefinition {
  name: string;
  /** The queue (catalog job) that does the work; its payload is `{schedule, windowStart}`. */
  job: string;
  everySeconds: number;
  offsetSeconds?: number;
  summary: string;
}

/** How many past windows one tick may still claim after a stall. */
const MAX_CATCH_UP = 10;

export function windowStartOf(nowMs: number, everySeconds: number, offsetSeconds = 0): number {
  const period = everySeconds * 1000;
  const offset = offsetSeconds * 1000;
  return Math.floor((nowMs - offset) / period) * period + offset;
}

export interface SchedulerOptions {
  pool: pg.Pool;
  schedules: readonly ScheduleDefinition[];
  instanceId: string;
  log: Logger;
  /** Defaults to a quarter of the shortest period, at most one second. */
  tickMs?: number;
  now?: () => number;
}

export class Scheduler {
  private timer: NodeJS.Timeout | null = null;
  private ticking: Promise<void> = Promise.resolve();
  private readonly lastTried = new Map<string, number>();
  /** Windows due but not claimed yet (a failed claim), oldest first, per schedule. */
  private readonly due = new Map<string, number[]>();
  private readonly startedAt: number;
  private readonly now: () => number;
  private stopped = false;

  constructor(private readonly options: SchedulerOptions) {
    this.now = options.now ?? Date.now;
    this.startedAt = this.now();
  }

  start(): void {
    const shortest = Math.min(...this.options.schedules.map((s) => s.everySeconds));
    const tickMs = this.options.tickMs ?? Math.max(50, Math.min(1000, (shortest * 1000) / 4));
    const loop = () => {
      this.ticking = this.tick().finally(() => {
        if (!this.stopped) this.timer = setTimeout(loop, tickMs);
      });
    };
    this.timer = setTimeout(loop, tickMs);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.ticking;
  }

  private async tick(): Promise<void> {
    const now = this.now();
    for (const schedule of this.options.schedules) {
      const period = schedule.everySeconds * 1000;
      const current = windowStartOf(now, schedule.everySeconds, schedule.offsetSeconds);
      const last = this.lastTried.get(schedule.name);
      if (last !== undefined && last >= current) continue;
      // Windows since the last tick (a stalled event loop may skip some), at most MAX_CATCH_UP.
      const from = Math.max(last === undefined ? current - period : last + period, current - (MAX_CATCH_UP - 1) * period);
      const windows = this.due.get(schedule.name) ?? [];
      for (let w = from; w <= current; w += period) if (w >= this.startedAt) windows.push(w);
      this.lastTried.set(schedule.name, current);
      this.due.set(schedule.name, windows.slice(-MAX_CATCH_UP));
    }
    for (const schedule of this.options.schedules) {
      const windows = this.due.get(schedule.name) ?? [];
      while (windows.length > 0) {
        if (this.stopped) return;
        try {
          await this.claim(schedule, windows[0] as number);
          windows.shift();
        } catch (error) {
          const windowStart = new Date(windows[0] as number).toISOString();
          this.options.log.warn({ err: error, schedule: schedule.name, windowStart }, 'schedule claim failed; retried next tick');
          // Unreachable database: every other claim of this tick would wait for it too.
          if (isDatabaseUnavailable(error)) return;
          break;
        }
      }
    }
  }

  /** Returns the enqueued job id when this instance won the window, else null. */
  async claim(schedule: ScheduleDefinition, windowStartMs: number): Promise<string | null> {
    return inTransaction(this.options.pool, async (client) => {
      const won = await client.query(
        `insert into schedule_runs (schedule, window_start, claimed_by) values ($1, $2, $3)
         on conflict do nothing returning schedule`,
        [schedule.name, new Date(windowStartMs), this.options.instanceId],
      );
      if (won.rowCount === 0) return null;
      const windowStart = new Date(windowStartMs).toISOString();
      const boss: PgBoss = bossOver(client);
      const jobId = await boss.send(schedule.job, { schedule: schedule.name, windowStart });
      if (!jobId) throw new Error(`queue ${schedule.job} refused the job`);
      await client.query('update schedule_runs set job_id = $3 where schedule = $1 and window_start = $2', [schedule.name, new Date(windowStartMs), jobId]);
      return jobId;
    });
  }
}
