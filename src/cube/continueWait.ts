/**
 * Cube's long-query protocol: a `/load` still running after the configured wait is answered
 * `{"error": "Continue wait"}` (HTTP 200) and keeps running; the client asks again with the same
 * query and gets the result once it is there. Running and finished-but-unfetched queries are
 * kept per instance, keyed by tenant and request; a request that lands on another instance
 * simply starts the query there.
 */

export type Waited<T> = { done: true; value: T } | { done: false };

interface Entry {
  promise: Promise<unknown>;
}

/** Queries held at once per instance; beyond this a request simply waits for its answer. */
const MAX_ENTRIES = 1000;
/** How long a finished query's answer waits for the client to ask again. */
const KEEP_FINISHED_MS = 60_000;

const entries = new Map<string, Entry>();

/**
 * The outcome of `start()` (shared by every request with the same key while it runs), or
 * `{done: false}` when it has not finished within `waitMs`. A rejection is thrown to the request
 * that sees it, and forgotten.
 */
export async function continueWait<T>(key: string, waitMs: number, start: () => Promise<T>): Promise<Waited<T>> {
  let entry = entries.get(key);
  if (!entry) {
    if (entries.size >= MAX_ENTRIES) return { done: true, value: await start() };
    const promise = start();
    entry = { promise };
    entries.set(key, entry);
    const mine = entry;
    const forgetLater = () => {
      setTimeout(() => {
        if (entries.get(key) === mine) entries.delete(key);
      }, KEEP_FINISHED_MS).unref();
    };
    promise.then(forgetLater, forgetLater);
  }
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<Waited<T>>((resolve) => {
    timer = setTimeout(() => resolve({ done: false }), waitMs);
  });
  try {
    const outcome = await Promise.race([(entry.promise as Promise<T>).then((value) => ({ done: true as const, value })), waited]);
    if (outcome.done && entries.get(key) === entry) entries.delete(key);
    return outcome;
  } catch (error) {
    if (entries.get(key) === entry) entries.delete(key);
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/** Queries currently held (tests and diagnostics). */
export const heldQueries = (): number => entries.size;
