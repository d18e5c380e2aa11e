/**
 * The only fetch of the app: same-origin cookies, the CSRF header on every change, and one error
 * type carrying the server's message, code, field details and request id. General API errors are
 * `{error: {code, message, details}}`; the Cube surface's are `{error, code, details}`.
 */
import type { Routes } from '../../../src/app';
import type { BodyKind } from '../../../src/http/body';
import type { RawBody } from '../../../src/http/route';

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

/** A route of the server's table (`Routes`, src/app.ts): `'GET /api/users/me'`, method and path. */
export type RouteKey = keyof Routes & string;
/** What the route answers: the type its presenters build, taken from the server. */
export type Answer<K extends RouteKey> = Routes[K]['response'];
type Of<K extends RouteKey, F extends 'params' | 'query' | 'body'> = Routes[K][F];

type ParamsOption<K extends RouteKey> = keyof Of<K, 'params'> extends never ? { params?: undefined } : { params: Of<K, 'params'> };
type QueryOption<K extends RouteKey> = Of<K, 'query'> extends undefined ? { query?: undefined } : Partial<Of<K, 'query'>> extends Of<K, 'query'> ? { query?: Of<K, 'query'> } : { query: Of<K, 'query'> };
/** A JSON body is the route's schema input (`json`); a text, form or byte body is sent as it is (`body`). */
type BodyOption<K extends RouteKey> = Of<K, 'body'> extends undefined ? { json?: undefined } : Of<K, 'body'> extends RawBody<BodyKind> ? { body: BodyInit } : { json: Of<K, 'body'> };
export type ApiOptions<K extends RouteKey> = Omit<RequestInit, 'method' | 'body'> & { signInOn401?: boolean } & ParamsOption<K> & QueryOption<K> & BodyOption<K>;
/** The options may be left out when the route needs none (no path parameter, query or body required). */
export type ApiArgs<K extends RouteKey> = Partial<ApiOptions<K>> extends ApiOptions<K> ? [options?: ApiOptions<K>] : [options: ApiOptions<K>];

/** The URL of a route: its `:name` segments filled (encoded), then the query (empty values left out). */
export function pathOf(key: RouteKey, params: Record<string, string> = {}, query: Record<string, unknown> = {}): string {
  const path = key.slice(key.indexOf(' ') + 1).replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null && v !== '') search.set(k, String(v));
  const qs = search.toString();
  return qs ? `${path}?${qs}` : path;
}

/**
 * A call of a route of the server's table, named by its key: the path parameters, query and body
 * are checked against the route's schemas and the answer is what its presenters build, so a
 * server change that breaks a page fails `npm run lint` (docs/web.md "Typing").
 * `signInOn401: false` for a credential typed into a form (the administrator secret): its 401 is that form's error, not a lost session.
 */
export async function api<K extends RouteKey>(key: K, ...[options]: ApiArgs<K>): Promise<Answer<K>> {
  const { params, query, json, body, signInOn401 = true, ...init } = (options ?? {}) as RequestInit & { params?: Record<string, string>; query?: Record<string, unknown>; json?: unknown; signInOn401?: boolean };
  const method = key.slice(0, key.indexOf(' '));
  const headers = new Headers(init.headers);
  headers.set('Accept', 'application/json');
  if (json !== undefined) headers.set('Content-Type', 'application/json');
  if (method !== 'GET' && method !== 'HEAD') headers.set(CSRF_HEADER, csrfToken());
  let res: Response;
  try {
    res = await fetch(pathOf(key, params, query), { ...init, method, headers, credentials: 'same-origin', body: json === undefined ? body : JSON.stringify(json) });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new ApiError(0, 'network', 'The server could not be reached. Check your connection and retry.');
  }
  if (res.status === 401 && signInOn401) {
    location.assign(signInUrl());
  }
  if (res.status === 204) return undefined as Answer<K>;
  if (!res.ok) throw await errorOf(res);
  return (await res.json().catch(() => null)) as Answer<K>;
}

/** The refusal a response carries, in either envelope. */
export async function errorOf(res: Response): Promise<ApiError> {
  const body = await res.json().catch(() => null);
  const e = typeof body?.error === 'string' ? { ...body, message: body.error } : (body?.error ?? {});
  const retryAfter = Number(res.headers.get('retry-after'));
  return new ApiError(res.status, e.code ?? 'internal', e.message ?? `HTTP ${res.status}`, e.details ?? [], res.headers.get('x-request-id') ?? '', retryAfter > 0 ? retryAfter : null);
}

/** A POST answered with JSON lines (a notebook run): each line is handed to `onLine` as it arrives. */
export async function apiLines(key: RouteKey & `POST ${string}`, params: Record<string, string>, onLine: (value: unknown) => void, signal?: AbortSignal): Promise<void> {
  const res = await fetch(pathOf(key, params), { method: 'POST', headers: { Accept: 'application/x-ndjson', [CSRF_HEADER]: csrfToken() }, credentials: 'same-origin', signal });
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
