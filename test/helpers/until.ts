/**
 * The one polling helper of the tests: a test waits for a positive signal, never for a fixed
 * time (docs/testing.md). The others (test/web/browser.ts's `until`, test/ai/helpers.ts, the fake
 * mail server's `waitFor`) are built on this one.
 */
import { setTimeout as delay } from 'node:timers/promises';

export interface UntilOptions {
  /** Fails after this long (a generous bound for a loaded machine, not a speed check). */
  timeoutMs?: number;
  /** How often to ask. */
  everyMs?: number;
  /** What the failure says was last seen (default: the probe's last value). */
  describe?: () => string;
}

type Truthy<T> = Exclude<T, false | null | undefined | 0 | ''>;

/**
 * Asks `probe` until it answers something truthy and resolves with that answer; fails naming
 * `what` and the last answer seen. An error the probe throws fails the wait at once.
 */
export async function until<T>(what: string, probe: () => T | Promise<T>, options: UntilOptions | number = {}): Promise<Truthy<T>> {
  const { timeoutMs = 10_000, everyMs = 50, describe } = typeof options === 'number' ? { timeoutMs: options } : options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value as Truthy<T>;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; last saw ${describe ? describe() : JSON.stringify(value)}`);
    await delay(everyMs);
  }
}
