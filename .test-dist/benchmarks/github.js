const LOW_WATER = 100;
const DEFAULT_SECONDARY_WAIT_MS = 6e4;
class CorpusPaused extends Error {
  constructor(until) {
    super(`The code host's rate limit is exhausted until ${until.toISOString()}`);
    this.until = until;
  }
  until;
}
class CodeHostFailed extends Error {
}
function sleep(ms, signal) {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });
}
function secondaryWaitUntil(headers, now) {
  const retryAfter = Number(headers.get("retry-after"));
  if (headers.get("retry-after") !== null && Number.isFinite(retryAfter)) return now + retryAfter * 1e3;
  if (headers.get("x-ratelimit-remaining") === "0") {
    const reset = Number(headers.get("x-ratelimit-reset"));
    if (Number.isFinite(reset) && reset > 0) return reset * 1e3;
  }
  return now + DEFAULT_SECONDARY_WAIT_MS;
}
function graphqlClient(options) {
  const now = options.now ?? Date.now;
  let notBefore = 0;
  const wait = async (until) => {
    const ms = until - now();
    if (ms <= 0) return;
    if (ms > options.maxWaitMs) throw new CorpusPaused(new Date(until));
    await sleep(ms, options.signal);
  };
  return {
    async query(query, variables) {
      for (let attempt = 1; ; attempt++) {
        options.signal.throwIfAborted();
        await wait(notBefore);
        await options.onRequest?.();
        let response;
        try {
          response = await fetch(options.url, {
            method: "POST",
            headers: { authorization: `bearer ${options.token}`, "content-type": "application/json", accept: "application/json", "user-agent": "delivery-analytics-benchmarks" },
            body: JSON.stringify({ query, variables }),
            signal: options.signal
          });
        } catch (error) {
          if (options.signal.aborted) throw error;
          throw new CodeHostFailed("The code host could not be reached");
        }
        if (response.status === 403 || response.status === 429) {
          await response.arrayBuffer().catch(() => void 0);
          if (attempt >= 10) throw new CodeHostFailed(`The code host kept refusing (HTTP ${response.status})`);
          notBefore = secondaryWaitUntil(response.headers, now());
          continue;
        }
        if (!response.ok) {
          await response.arrayBuffer().catch(() => void 0);
          throw new CodeHostFailed(`The code host answered HTTP ${response.status}`);
        }
        const body = await response.json();
        const limit = body.data?.rateLimit;
        if (body.errors?.some((e) => e.type === "RATE_LIMITED")) {
          if (attempt >= 10) throw new CodeHostFailed("The code host kept answering RATE_LIMITED");
          notBefore = limit ? Date.parse(limit.resetAt) : secondaryWaitUntil(response.headers, now());
          continue;
        }
        if (body.errors?.length) throw new CodeHostFailed(`The code host answered GraphQL errors: ${body.errors.map((e) => e.type ?? "error").join(", ")}`);
        if (!body.data) throw new CodeHostFailed("The code host answered no data");
        if (limit && limit.remaining < LOW_WATER) notBefore = Date.parse(limit.resetAt);
        return body.data;
      }
    }
  };
}
export {
  CodeHostFailed,
  CorpusPaused,
  LOW_WATER,
  graphqlClient
};
