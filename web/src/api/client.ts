/**
 * The only fetch of the app: same-origin cookies, the CSRF header on every change, and one error
 * type carrying the server's message, code, field details and request id. General API errors are
 * `{error: {code, message, details}}`; the Cube surface's are `{error, code, details}`.
 */
export const CSRF_HEADER = 'X-CSRF-Token';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: { path: string; message: string; line?: number; column?: string }[] = [],
    readonly requestId = '',
    /** A 429's Retry-After, in seconds. */
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(message);
  }
}

function csrfToken(): string {
  return document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')?.content ?? '';
}

export function signInUrl(): string {
  return `/login?returnUrl=${encodeURIComponent(location.pathname + location.search)}`;
}

/** `signInOn401: false` for a credential typed into a form (the administrator secret): its 401 is that form's error, not a lost session. */
export async function api<T>(path: string, { json, signInOn401 = true, ...init }: RequestInit & { json?: unknown; signInOn401?: boolean } = {}): Promise<T> {
  const method = init.method ?? 'GET';
  const headers = new Headers(init.headers);
  headers.set('Accept', 'application/json');
  if (json !== undefined) headers.set('Content-Type', 'application/json');
  if (method !== 'GET' && method !== 'HEAD') headers.set(CSRF_HEADER, csrfToken());
  let res: Response;
  try {
    res = await fetch(path, { ...init, method, headers, credentials: 'same-origin', body: json === undefined ? init.body : JSON.stringify(json) });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new ApiError(0, 'network', 'The server could not be reached. Check your connection and retry.');
  }
  if (res.status === 401 && signInOn401) {
    location.assign(signInUrl());
  }
  if (res.status === 204) return undefined as T;
  if (!res.ok) throw await errorOf(res);
  return (await res.json().catch(() => null)) as T;
}

/** The refusal a response carries, in either envelope. */
export async function errorOf(res: Response): Promise<ApiError> {
  const body = await res.json().catch(() => null);
  const e = typeof body?.error === 'string' ? { ...body, message: body.error } : (body?.error ?? {});
  const retryAfter = Number(res.headers.get('retry-after'));
  return new ApiError(res.status, e.code ?? 'internal', e.message ?? `HTTP ${res.status}`, e.details ?? [], res.headers.get('x-request-id') ?? '', retryAfter > 0 ? retryAfter : null);
}

/** A POST answered with JSON lines (a notebook run): each line is handed to `onLine` as it arrives. */
export async function apiLines(path: string, onLine: (value: unknown) => void, signal?: AbortSignal): Promise<void> {
  const res = await fetch(path, { method: 'POST', headers: { Accept: 'application/x-ndjson', [CSRF_HEADER]: csrfToken() }, credentials: 'same-origin', signal });
  if (res.status === 401) location.assign(signInUrl());
  if (!res.ok || !res.body) {
    const body = await res.json().catch(() => null);
    throw new ApiError(res.status, body?.error?.code ?? 'internal', body?.error?.message ?? `HTTP ${res.status}`, [], res.headers.get('x-request-id') ?? '');
  }
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    const lines = buffer.split('\n');
    buffer = lines.pop() ?? '';
    for (const line of lines) if (line.trim() !== '') onLine(JSON.parse(line));
  }
}
