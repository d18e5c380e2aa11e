/**
 * The CLI talking to a server over HTTP (login, whoami, logout, exports with --url): the server's
 * address, the version agreement (spec "Versioning" 2), and requests with the stored key.
 */
import semver from 'semver';
import { PRODUCT } from '../version.js';
import { UsageError } from '../cli/args.js';
import { trimEnd } from '../shared/text.js';

const LOOPBACK = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** A failure the user must read; main prints the message and exits 1. */
export class RemoteError extends Error {}

/**
 * The server's base URL as the credentials file keys it: origin plus path, no trailing slash, no
 * query. Plain http only to this machine: a key must not cross a network in the clear.
 */
export function serverUrl(raw: string): string {
  const url = URL.parse(raw);
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) throw new UsageError('--url must be the server address, https://…');
  if (url.protocol === 'http:' && !LOOPBACK.has(url.hostname)) {
    throw new UsageError('--url must use https (plain http is only accepted for this machine: localhost, 127.0.0.1, [::1])');
  }
  if (url.username || url.password) throw new UsageError('--url must not contain a user name or password');
  return `${url.origin}${trimEnd(url.pathname, '/')}`;
}

/** A release number, or null when unknown (`dev`, or anything that is not a version). */
export function knownVersion(version: unknown): string | null {
  if (typeof version !== 'string' || version === 'dev') return null;
  return semver.valid(semver.clean(version) ?? '') ?? null;
}

/** How a version is shown to a person: `dev` never is (spec "Versioning" 2). */
export const describeVersion = (version: unknown): string => knownVersion(version) ?? 'unknown';

export interface ServerVersion {
  version: string | null;
  minimumClientVersion: string | null;
}

async function call(url: string, init: RequestInit = {}): Promise<Response> {
  try {
    return await fetch(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(30_000) });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message;
    throw new RemoteError(`cannot reach ${new URL(url).origin}: ${cause}`);
  }
}

/**
 * Reads GET /api/version first, and stops when this CLI is older than the server's
 * minimumClientVersion. A CLI of unknown version (`dev`: built from source) is not stopped.
 */
export async function checkServer(server: string, ownVersion: string): Promise<ServerVersion> {
  const res = await call(`${server}/api/version`);
  const body = (await res.json().catch(() => null)) as Record<string, unknown> | null;
  if (!res.ok || !body || body.product !== PRODUCT) throw new RemoteError(`${server} is not a ${PRODUCT} server (GET /api/version answered ${res.status})`);
  const version = knownVersion(body.version);
  const minimum = knownVersion(body.minimumClientVersion);
  const own = knownVersion(ownVersion);
  if (own && minimum && semver.lt(own, minimum)) {
    throw new RemoteError(
      `this ${PRODUCT} CLI is version ${own}, but the server at ${server} (version ${describeVersion(version)}) needs version ${minimum} or later: install a newer ${PRODUCT} and try again`,
    );
  }
  return { version, minimumClientVersion: minimum };
}

/** A request with the stored key; 401 means the key was revoked (or never was). */
export async function withKey(server: string, apiKey: string, path: string, init: RequestInit = {}): Promise<Response> {
  return call(`${server}${path}`, { ...init, headers: { ...(init.headers as Record<string, string>), authorization: `Bearer ${apiKey}` } });
}

/** The general API's `{error: {code, message}}`, or the status when the body is something else. */
export async function errorMessage(res: Response): Promise<string> {
  const body = (await res.json().catch(() => null)) as { error?: { message?: string; details?: { path: string; message: string }[] } } | null;
  const message = body?.error?.message ?? `HTTP ${res.status}`;
  const details = body?.error?.details?.map((d) => `${d.path}: ${d.message}`).join('; ');
  return details ? `${message} (${details})` : message;
}

/** Posts an application/x-www-form-urlencoded body (OAuth endpoints) and reads the JSON answer. */
export async function postForm(url: string, fields: Record<string, string>): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await call(url, { method: 'POST', body: new URLSearchParams(fields), headers: { accept: 'application/json' } });
  const body = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  return { status: res.status, body };
}
