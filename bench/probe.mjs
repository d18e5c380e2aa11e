/**
 * Loaded into the benchmarked server with `node --import` (bench/telemetry.ts): once a second,
 * appends to BENCH_PROBE_FILE a JSON line with the event loop's delay over that second (max and
 * p99, ms) and the garbage collector's pauses (count, total and longest, ms, by kind). It measures
 * the serving process from inside without a line of the product knowing about it.
 */
import { appendFileSync } from 'node:fs';
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';

const file = process.env.BENCH_PROBE_FILE;
if (file) {
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  let gc = { count: 0, ms: 0, maxMs: 0, major: 0 };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      gc.count += 1;
      gc.ms += entry.duration;
      gc.maxMs = Math.max(gc.maxMs, entry.duration);
      // perf_hooks constants: 1 minor (scavenge), 2 major (mark-sweep-compact), 4 incremental, 8 weak callbacks.
      if (entry.detail?.kind === 2) gc.major += 1;
    }
  }).observe({ entryTypes: ['gc'] });
  setInterval(() => {
    const line = { t: Date.now(), loopMaxMs: delay.max / 1e6, loopP99Ms: delay.percentile(99) / 1e6, gc };
    delay.reset();
    gc = { count: 0, ms: 0, maxMs: 0, major: 0 };
    appendFileSync(file, `${JSON.stringify(line)}\n`);
  }, 1000).unref();
}
