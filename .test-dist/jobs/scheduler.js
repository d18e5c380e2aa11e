import { inTransaction } from "../db/transaction.js";
import { isDatabaseUnavailable } from "../db/unavailable.js";
import { bossOver } from "./boss.js";
const MAX_CATCH_UP = 10;
function windowStartOf(nowMs, everySeconds, offsetSeconds = 0) {
  const period = everySeconds * 1e3;
  const offset = offsetSeconds * 1e3;
  return Math.floor((nowMs - offset) / period) * period + offset;
}
class Scheduler {
  constructor(options) {
    this.options = options;
    this.now = options.now ?? Date.now;
    this.startedAt = this.now();
  }
  options;
  timer = null;
  ticking = Promise.resolve();
  lastTried = /* @__PURE__ */ new Map();
  /** Windows due but not claimed yet (a failed claim), oldest first, per schedule. */
  due = /* @__PURE__ */ new Map();
  startedAt;
  now;
  stopped = false;
  start() {
    const shortest = Math.min(...this.options.schedules.map((s) => s.everySeconds));
    const tickMs = this.options.tickMs ?? Math.max(50, Math.min(1e3, shortest * 1e3 / 4));
    const loop = () => {
      this.ticking = this.tick().finally(() => {
        if (!this.stopped) this.timer = setTimeout(loop, tickMs);
      });
    };
    this.timer = setTimeout(loop, tickMs);
  }
  async stop() {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.ticking;
  }
  async tick() {
    const now = this.now();
    for (const schedule of this.options.schedules) {
      const period = schedule.everySeconds * 1e3;
      const current = windowStartOf(now, schedule.everySeconds, schedule.offsetSeconds);
      const last = this.lastTried.get(schedule.name);
      if (last !== void 0 && last >= current) continue;
      const from = Math.max(last === void 0 ? current - period : last + period, current - (MAX_CATCH_UP - 1) * period);
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
          await this.claim(schedule, windows[0]);
          windows.shift();
        } catch (error) {
          const windowStart = new Date(windows[0]).toISOString();
          this.options.log.warn({ err: error, schedule: schedule.name, windowStart }, "schedule claim failed; retried next tick");
          if (isDatabaseUnavailable(error)) return;
          break;
        }
      }
    }
  }
  /** Returns the enqueued job id when this instance won the window, else null. */
  async claim(schedule, windowStartMs) {
    return inTransaction(this.options.pool, async (client) => {
      const won = await client.query(
        `insert into schedule_runs (schedule, window_start, claimed_by) values ($1, $2, $3)
         on conflict do nothing returning schedule`,
        [schedule.name, new Date(windowStartMs), this.options.instanceId]
      );
      if (won.rowCount === 0) return null;
      const windowStart = new Date(windowStartMs).toISOString();
      const boss = bossOver(client);
      const jobId = await boss.send(schedule.job, { schedule: schedule.name, windowStart });
      if (!jobId) throw new Error(`queue ${schedule.job} refused the job`);
      await client.query("update schedule_runs set job_id = $3 where schedule = $1 and window_start = $2", [schedule.name, new Date(windowStartMs), jobId]);
      return jobId;
    });
  }
}
export {
  Scheduler,
  windowStartOf
};
