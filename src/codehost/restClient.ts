/**
 * The code-host application acting as one of its installations over the REST API (GitHub's): a
 * JSON Web Token signed with the application's private key (RS256, as GitHub requires) is
 * exchanged at `POST /app/installations/{id}/access_tokens` for an installation token; pages are
 * followed by their `Link: <…>; rel="next"` header. A rate limit (429, or 403 with
 * `x-ratelimit-remaining: 0` or `retry-after`) is thrown as `CodehostRateLimited` with the time it
 * resets, for the caller to come back then rather than wait in place.
 */
import { createPrivateKey, type KeyObject } from 'node:crypto';
import { SignJWT } from 'jose';
import type { CodehostAppConfig } from '../config/codehost.js';

type App = NonNullable<CodehostAppConfig>;

const HEADERS = { accept: 'application/vnd.github+json', 'x-github-api-version': '2022-11-28', 'user-agent': 'delivery-analytics' };
/** One request may take this long before it counts as a failure of the code host. */
const REQUEST_TIMEOUT_MS = 30_000;

export class CodehostRateLimited extends Error {
  constructor(readonly resetAt: Date) {
    super(`the code host's rate limit is reached until ${resetAt.toISOString()}`);
  }
}

/**
 * The code host answered with an error (other than a rate limit); `status` 0: no answer. `permanent`:
 * asking again cannot help (no access, not found, the application's key unreadable).
 */
export class CodehostApiError extends Error {
  readonly permanent: boolean;
  constructor(readonly status: number, message: string, permanent?: boolean) {
    super(message);
    this.permanent = permanent ?? [401, 403, 404, 410, 422].includes(status);
  }
}

export interface Page<T> {
  body: T;
  /** The next page's URL (`Link` rel="next"), or null on the last page. */
  next: string | null;
}

/** `<url>; rel="next"` of a Link header, read by splitting, not by a backtracking pattern. */
export function nextLink(header: string | null): string | null {
  for (const part of (header ?? '').split(',')) {
    const [target, ...params] = part.split(';').map((p) => p.trim());
    if (!target || !target.startsWith('<') || !target.endsWith('>') || target.length < 3) continue;
    if (params.some((p) => p.replace(/\s/g, '').replaceAll('"', '') === 'rel=next')) return target.slice(1, -1);
  }
  return null;
}

/** When a refused request may be made again: `retry-after` seconds, else `x-ratelimit-reset`, else a minute. */
function rateLimitOf(res: Response, now = Date.now()): CodehostRateLimited | null {
  const remaining = res.headers.get('x-ratelimit-remaining');
  const retryAfter = res.headers.get('retry-after');
  if (res.status !== 429 && !(res.status === 403 && (remaining === '0' || retryAfter !== null))) return null;
  if (retryAfter !== null && /^\d+$/.test(retryAfter)) return new CodehostRateLimited(new Date(now + Number(retryAfter) * 1000));
  const reset = res.headers.get('x-ratelimit-reset');
  if (reset !== null && /^\d+$/.test(reset)) return new CodehostRateLimited(new Date(Math.max(now, Number(reset) * 1000)));
  return new CodehostRateLimited(new Date(now + 60_000));
}

export class CodehostRestClient {
  private key: KeyObject | null = null;
  private tokens = new Map<number, { token: string; expiresAt: number }>();
  private installations = new Map<string, number | null>();

  constructor(private readonly app: App, private readonly signal?: AbortSignal) {}

  /** The application's own token, valid ten minutes (issued a minute back, for clock drift). */
  private async appJwt(): Promise<string> {
    try {
      this.key ??= createPrivateKey(this.app.privateKey);
    } catch {
      throw new CodehostApiError(0, 'CODEHOST_APP_PRIVATE_KEY is not a PEM private key', true);
    }
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({}).setProtectedHeader({ alg: 'RS256' }).setIssuer(this.app.appId).setIssuedAt(now - 60).setExpirationTime(now + 540).sign(this.key);
  }

  private url(path: string): string {
    return path.startsWith('http://') || path.startsWith('https://') ? path : `${this.app.apiUrl}${path}`;
  }

  private async call(method: string, url: string, authorization: string): Promise<Response> {
    // A page's next link is followed only on the configured API: the token never leaves for another host.
    if (new URL(url).origin !== new URL(this.app.apiUrl).origin) throw new CodehostApiError(0, `the code host linked to another origin (${new URL(url).origin})`, true);
    const signals = [AbortSignal.timeout(REQUEST_TIMEOUT_MS), ...(this.signal ? [this.signal] : [])];
    let res: Response;
    try {
      res = await fetch(url, { method, headers: { ...HEADERS, authorization }, signal: AbortSignal.any(signals) });
    } catch (error) {
      this.signal?.throwIfAborted();
      throw new CodehostApiError(0, `the code host could not be reached (${(error as Error).message})`);
    }
    const limited = rateLimitOf(res);
    if (limited) {
      await res.body?.cancel();
      throw limited;
    }
    return res;
  }

  private async json<T>(res: Response, what: string): Promise<T> {
    if (!res.ok) {
      const text = await res.text().catch(() => '');
      let message = text.slice(0, 200);
      try {
        message = String((JSON.parse(text) as { message?: unknown }).message ?? message);
      } catch { /* not JSON: the text itself */ }
      throw new CodehostApiError(res.status, `${what}: the code host answered ${res.status}${message ? ` (${message})` : ''}`);
    }
    return (await res.json()) as T;
  }

  /**
   * The installation of the application on `owner/repo`, or null when it is not installed there;
   * asked once per client (one run: its deployment and pull-request walks share the answer).
   */
  async repositoryInstallation(repository: string): Promise<number | null> {
    const known = this.installations.get(repository.toLowerCase());
    if (known !== undefined) return known;
    const res = await this.call('GET', this.url(`/repos/${repoPath(repository)}/installation`), `Bearer ${await this.appJwt()}`);
    let id: number | null = null;
    if (res.status === 404) await res.body?.cancel();
    else id = (await this.json<{ id: number }>(res, `the installation of ${repository}`)).id;
    this.installations.set(repository.toLowerCase(), id);
    return id;
  }

  /** An installation token, reused until five minutes before it expires. */
  private async installationToken(installationId: number): Promise<string> {
    const cached = this.tokens.get(installationId);
    if (cached && cached.expiresAt - 5 * 60_000 > Date.now()) return cached.token;
    const res = await this.call('POST', this.url(`/app/installations/${installationId}/access_tokens`), `Bearer ${await this.appJwt()}`);
    const body = await this.json<{ token: string; expires_at?: string }>(res, `a token of installation ${installationId}`);
    this.tokens.set(installationId, { token: body.token, expiresAt: body.expires_at ? Date.parse(body.expires_at) : Date.now() + 3600_000 });
    return body.token;
  }

  /** One page of `path` (or a next link) as the installation. */
  async get<T>(installationId: number, path: string): Promise<Page<T>> {
    const res = await this.call('GET', this.url(path), `Bearer ${await this.installationToken(installationId)}`);
    const next = nextLink(res.headers.get('link'));
    return { body: await this.json<T>(res, `GET ${new URL(this.url(path)).pathname}`), next };
  }
}

/** `owner/repo` as a URL path, each part escaped. */
export const repoPath = (repository: string): string => repository.split('/').map(encodeURIComponent).join('/');
