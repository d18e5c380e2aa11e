/**
 * Calls to the vendors' report APIs. A 429 is waited out for its `Retry-After` (seconds or an HTTP
 * date) when that is no longer than `maxWaitSeconds`, and asked again; a longer wait, or too many
 * in a row, ends the run with `VendorRateLimited` so the job comes back then instead of holding a
 * worker. The wait goes through `pace.sleep`, which tests replace to observe it without waiting.
 */
export interface Pace {
  sleep(ms: number, signal: AbortSignal): Promise<void>;
  /** Longest Retry-After waited in place. */
  maxWaitSeconds: number;
}

/** The vendor refused the key (401, or 403 where the key lacks the role): an owner must save another. */
export class VendorKeyRefused extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
    this.name = 'VendorKeyRefused';
  }
}

/** The vendor asked us to come back later than we wait in place. */
export class VendorRateLimited extends Error {
  constructor(readonly retryAfterSeconds: number, vendor: string) {
    super(`${vendor} limited our requests; the pull resumes in ${retryAfterSeconds} s`);
    this.name = 'VendorRateLimited';
  }
}

/** Any other failure (5xx, network, an answer we cannot read): the run fails and is retried later. */
export class VendorUnavailable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'VendorUnavailable';
  }
}

const REQUEST_TIMEOUT_MS = 30_000;
const MAX_RATE_LIMITS = 5;

export function realSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });
}

/** Retry-After as seconds: a number, or an HTTP date; `fallback` when absent or unreadable. */
export function retryAfterSeconds(header: string | null, fallback = 60, now = Date.now()): number {
  if (!header) return fallback;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text);
  const at = Date.parse(text);
  return Number.isNaN(at) ? fallback : Math.max(0, Math.ceil((at - now) / 1000));
}

export interface CallOptions {
  vendor: string;
  pace: Pace;
  signal: AbortSignal;
}

/** One request, again after each 429 whose wait is short enough. Any other status is the caller's to read. */
export async function vendorFetch(url: string, init: RequestInit, o: CallOptions): Promise<Response> {
  for (let attempt = 1; ; attempt++) {
    let res: Response;
    try {
      res = await fetch(url, { ...init, signal: AbortSignal.any([AbortSignal.timeout(REQUEST_TIMEOUT_MS), o.signal]) });
    } catch (error) {
      o.signal.throwIfAborted();
      throw new VendorUnavailable(`${o.vendor} could not be reached (${(error as Error).message})`);
    }
    if (res.status !== 429) return res;
    await res.body?.cancel();
    const wait = retryAfterSeconds(res.headers.get('retry-after'));
    if (wait > o.pace.maxWaitSeconds || attempt >= MAX_RATE_LIMITS) throw new VendorRateLimited(Math.max(wait, 1), o.vendor);
    await o.pace.sleep(wait * 1000, o.signal);
  }
}

/** The body of a successful answer as JSON; a refusal or failure as the errors above. */
export async function jsonOf<T>(res: Response, vendor: string, what: string): Promise<T> {
  if (res.status === 401 || res.status === 403) {
    await res.body?.cancel();
    throw new VendorKeyRefused(res.status, `${vendor} refused the key (HTTP ${res.status}) for ${what}`);
  }
  if (!res.ok) {
    await res.body?.cancel();
    throw new VendorUnavailable(`${vendor} answered HTTP ${res.status} for ${what}`);
  }
  try {
    return (await res.json()) as T;
  } catch {
    throw new VendorUnavailable(`${vendor} answered ${what} with something other than JSON`);
  }
}

/** Newline-delimited JSON: one record a line; blank lines skipped, an unreadable line fails the file. */
export function parseNdjson(text: string, what: string): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (trimmed === '') continue;
    try {
      const value = JSON.parse(trimmed) as unknown;
      if (value && typeof value === 'object' && !Array.isArray(value)) out.push(value as Record<string, unknown>);
    } catch {
      throw new VendorUnavailable(`${what} has a line that is not JSON`);
    }
  }
  return out;
}

export const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : 0);
export const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);
export const obj = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
export const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
