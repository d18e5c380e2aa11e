const MAX_ENTRIES = 1e3;
const KEEP_FINISHED_MS = 6e4;
const entries = /* @__PURE__ */ new Map();
async function continueWait(key, waitMs, start) {
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
  let timer;
  const waited = new Promise((resolve) => {
    timer = setTimeout(() => resolve({ done: false }), waitMs);
  });
  try {
    const outcome = await Promise.race([entry.promise.then((value) => ({ done: true, value })), waited]);
    if (outcome.done && entries.get(key) === entry) entries.delete(key);
    return outcome;
  } catch (error) {
    if (entries.get(key) === entry) entries.delete(key);
    throw error;
  } finally {
    clearTimeout(timer);
  }
}
const heldQueries = () => entries.size;
export {
  continueWait,
  heldQueries
};
