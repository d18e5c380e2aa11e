/**
 * The code host's GraphQL API (GitHub's `POST /graphql`) for the benchmark corpus, within its
 * rate limits (docs/benchmarks.md "Rate limits"):
 * - every query asks for `rateLimit { cost remaining resetAt }`; when `remaining` falls below
 *   LOW_WATER the next request waits until `resetAt`;
 * - a secondary limit (403 or 429) waits its `retry-after` seconds, else until `x-ratelimit-reset`
 *   when `x-ratelimit-remaining` is 0, else a minute, then asks again; so does a GraphQL error of
 *   type RATE_LIMITED;
 * - a wait longer than the caller's `maxWaitMs` is not slept here: `CorpusPaused` hands the
 *   instant back, and the workflow reschedules itself for then.
 * Plain fetch rather than an SDK: the protocol is one POST, and the limits need the raw status and
 * headers. The token never appears in a log line or an error.
 */

export const LOW_WATER = 100;
const DEFAULT_SECONDARY_WAIT_MS = 60_000;

export class CorpusPaused extends Error {
  constructor(readonly until: Date) {
    super(`The code host's rate limit is exhausted until ${until.toISOString()}`);
  }
}

export class CodeHostFailed extends Error {}

export interface RateLimit {
  cost: number;
  remaining: number;
  resetAt: string;
}

export interface GraphqlClient {
  /** Runs one query; every HTTP attempt (a retried one too) calls `onRequest` first. */
  query<T>(query: string, variables: Record<string, unknown>): Promise<T>;
}

export interface ClientOptions {
  url: string;
  token: string;
  signal: AbortSignal;
  /** Longest wait slept in place; longer ones throw CorpusPaused. */
  maxWaitMs: number;
  onRequest?: () => void | Promise<void>;
  now?: () => number;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });
}

/** When a secondary-limit answer may be retried (GitHub's documented order of headers). */
function secondaryWaitUntil(headers: Headers, now: number): number {
  const retryAfter = Number(headers.get('retry-after'));
  if (headers.get('retry-after') !== null && Number.isFinite(retryAfter)) return now + retryAfter * 1000;
  if (headers.get('x-ratelimit-remaining') === '0') {
    const reset = Number(headers.get('x-ratelimit-reset'));
    if (Number.isFinite(reset) && reset > 0) return reset * 1000;
  }
  return now + DEFAULT_SECONDARY_WAIT_MS;
}

export function graphqlClient(options: ClientOptions): GraphqlClient {
  const now = options.now ?? Date.now;
  let notBefore = 0;

  const wait = async (until: number) => {
    const ms = until - now();
    if (ms <= 0) return;
    if (ms > options.maxWaitMs) throw new CorpusPaused(new Date(until));
    await sleep(ms, options.signal);
  };

  return {
    async query<T>(query: string, variables: Record<string, unknown>): Promise<T> {
      for (let attempt = 1; ; attempt++) {
        options.signal.throwIfAborted();
        await wait(notBefore);
        await options.onRequest?.();
        let response: Response;
        try {
          response = await fetch(options.url, {
            method: 'POST',
            headers: { authorization: `bearer ${options.token}`, 'content-type': 'application/json', accept: 'application/json', 'user-agent': 'delivery-analytics-benchmarks' },
            body: JSON.stringify({ query, variables }),
            signal: options.signal,
          });
        } catch (error) {
          if (options.signal.aborted) throw error;
          throw new CodeHostFailed('The code host could not be reached');
        }
        if (response.status === 403 || response.status === 429) {
          await response.arrayBuffer().catch(() => undefined);
          if (attempt >= 10) throw new CodeHostFailed(`The code host kept refusing (HTTP ${response.status})`);
          notBefore = secondaryWaitUntil(response.headers, now());
          continue;
        }
        if (!response.ok) {
          await response.arrayBuffer().catch(() => undefined);
          throw new CodeHostFailed(`The code host answered HTTP ${response.status}`);
        }
        const body = (await response.json()) as { data?: T & { rateLimit?: RateLimit }; errors?: { type?: string; message?: string }[] };
        const limit = body.data?.rateLimit;
        if (body.errors?.some((e) => e.type === 'RATE_LIMITED')) {
          if (attempt >= 10) throw new CodeHostFailed('The code host kept answering RATE_LIMITED');
          notBefore = limit ? Date.parse(limit.resetAt) : secondaryWaitUntil(response.headers, now());
          continue;
        }
        if (body.errors?.length) throw new CodeHostFailed(`The code host answered GraphQL errors: ${body.errors.map((e) => e.type ?? 'error').join(', ')}`);
        if (!body.data) throw new CodeHostFailed('The code host answered no data');
        // Low on points: the next request (of this run, or of its continuation) waits for the reset.
        if (limit && limit.remaining < LOW_WATER) notBefore = Date.parse(limit.resetAt);
        return body.data;
      }
    },
  };
}
