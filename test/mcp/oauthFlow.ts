/**
 * The browser and the MCP client of the OAuth tests: the SDK's own client-side OAuth (discovery,
 * registration, PKCE, token exchange, refresh) through an in-memory OAuthClientProvider, and a
 * tiny cookie jar that follows the consent redirects the way a browser would.
 */
import { auth, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';

export const REDIRECT_URI = 'http://127.0.0.1:53682/callback';

let ipCounter = 0;
/** A client address of its own per flow (X-Forwarded-For; the app trusts its proxy), so the per-address rate limits of one test never touch another. */
export function nextIp(): string {
  ipCounter += 1;
  return `198.51.${Math.floor(ipCounter / 250) % 250}.${(ipCounter % 250) + 1}`;
}

/** fetch with a fixed client address, for the SDK's own requests. */
export function fetchFrom(ip: string): typeof fetch {
  return (input, init = {}) => {
    const headers = new Headers(init.headers);
    headers.set('x-forwarded-for', ip);
    return fetch(input, { ...init, headers });
  };
}

export class MemoryOAuthClient implements OAuthClientProvider {
  info: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = '';
  authorizationUrl: URL | null = null;
  discovery: unknown;
  readonly ip = nextIp();

  constructor(readonly metadataOverrides: Partial<OAuthClientMetadata> = {}) {}

  get redirectUrl() {
    return REDIRECT_URI;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Test Assistant',
      redirect_uris: [REDIRECT_URI],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      ...this.metadataOverrides,
    } as OAuthClientMetadata;
  }
  state() {
    return 'state-123';
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

interface Cookie {
  name: string;
  value: string;
  path: string;
}

/** Cookies by name and path, sent to matching paths: enough of a browser for these flows. */
export class Jar {
  cookies: Cookie[] = [];

  constructor(readonly ip = nextIp()) {}

  add(name: string, value: string, path = '/'): void {
    this.cookies = this.cookies.filter((c) => !(c.name === name && c.path === path));
    this.cookies.push({ name, value, path });
  }

  absorb(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';');
      const eq = (pair as string).indexOf('=');
      const name = (pair as string).slice(0, eq).trim();
      const value = (pair as string).slice(eq + 1).trim();
      const path = attrs.map((a) => a.trim()).find((a) => a.toLowerCase().startsWith('path='))?.slice(5) ?? '/';
      const expired = attrs.some((a) => /max-age=0|expires=thu, 01 jan 1970/i.test(a.trim()));
      this.cookies = this.cookies.filter((c) => !(c.name === name && c.path === path));
      if (!expired && value !== '') this.cookies.push({ name, value, path });
    }
  }

  header(path: string): string {
    return this.cookies
      .filter((c) => path === c.path || path.startsWith(c.path.endsWith('/') ? c.path : `${c.path}/`) || path.startsWith(`${c.path}?`))
      .map((c) => `${c.name}=${c.value}`)
      .join('; ');
  }

  get(name: string): Cookie | undefined {
    return this.cookies.find((c) => c.name === name);
  }
}

/** One browser request: manual redirects, cookies in and out. */
export async function browse(jar: Jar, url: string, init: RequestInit = {}): Promise<Response> {
  const u = new URL(url);
  const headers = new Headers(init.headers);
  const cookie = jar.header(u.pathname);
  if (cookie) headers.set('cookie', [cookie, headers.get('cookie')].filter(Boolean).join('; '));
  if (!headers.has('x-forwarded-for')) headers.set('x-forwarded-for', jar.ip);
  const res = await fetch(url, { ...init, headers, redirect: 'manual' });
  jar.absorb(res);
  return res;
}

export function formFields(html: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) fields[m[1] as string] = m[2] as string;
  return fields;
}

export function tenantOptions(html: string): string[] {
  return [...html.matchAll(/<option value="([^"]+)">/g)].map((m) => m[1] as string);
}

export interface Started {
  client: MemoryOAuthClient;
  jar: Jar;
  /** The consent page's hidden fields (interaction, csrf, maybe tenantId). */
  fields: Record<string, string>;
  html: string;
}

/**
 * Discovery, registration and the authorization request (SDK), then the browser part up to the
 * consent page of a signed-in user.
 */
export async function startConsent(baseUrl: string, sessionCookie: string, client = new MemoryOAuthClient(), jar = new Jar(client.ip), discover = true): Promise<Started> {
  if (discover) {
    const result = await auth(client, { serverUrl: `${baseUrl}/mcp`, fetchFn: fetchFrom(client.ip) });
    if (result !== 'REDIRECT') throw new Error(`expected a redirect, got ${result}`);
  }
  if (!client.authorizationUrl) throw new Error('no authorization URL');
  const first = await browse(jar, client.authorizationUrl.href);
  if (first.status !== 303) throw new Error(`authorize answered ${first.status}: ${await first.text()}`);
  const [name, value] = sessionCookie.split('=') as [string, string];
  jar.add(name, value);
  const page = await browse(jar, new URL(first.headers.get('location') as string, baseUrl).href);
  const html = await page.text();
  if (page.status !== 200) throw new Error(`consent page answered ${page.status}: ${html}`);
  return { client, jar, fields: formFields(html), html };
}

export async function approve(baseUrl: string, started: Started, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<Response> {
  return browse(started.jar, `${baseUrl}/mcp/authorize/approve`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields).toString(),
  });
}

/** Approve → resume → the client's redirect URI; returns the code from it. */
export async function approveAndGetCode(baseUrl: string, started: Started, tenantId: string): Promise<string> {
  const approved = await approve(baseUrl, started, { ...started.fields, tenantId, action: 'approve' });
  if (approved.status !== 303) throw new Error(`approve answered ${approved.status}: ${await approved.text()}`);
  const resumed = await browse(started.jar, new URL(approved.headers.get('location') as string, baseUrl).href);
  const location = resumed.headers.get('location') ?? '';
  if (resumed.status !== 303 || !location.startsWith(REDIRECT_URI)) throw new Error(`resume answered ${resumed.status} ${location} ${await resumed.text()}`);
  const code = new URL(location).searchParams.get('code');
  if (!code) throw new Error(`no code in ${location}`);
  return code;
}

export async function finishWithCode(baseUrl: string, client: MemoryOAuthClient, code: string): Promise<OAuthTokens> {
  const result = await auth(client, { serverUrl: `${baseUrl}/mcp`, authorizationCode: code, fetchFn: fetchFrom(client.ip) });
  if (result !== 'AUTHORIZED' || !client.saved) throw new Error(`token exchange: ${result}`);
  return client.saved;
}
