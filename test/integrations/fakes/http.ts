/** The small HTTP plumbing the tracker fakes share. */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Handler = (req: IncomingMessage, url: URL, body: Buffer, res: ServerResponse) => Promise<void> | void;

export function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

export async function listen(handler: Handler): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    try {
      await handler(req, new URL(req.url ?? '/', 'http://fake'), Buffer.concat(chunks), res);
    } catch (error) {
      send(res, 500, { error: String(error) });
    }
  });
  // 127.0.0.1: @linear/sdk accepts plain http only for localhost addresses.
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

/** Grants of a fake vendor: codes, access and rotating refresh tokens, revocation. */
export class Grants {
  private codes = new Map<string, string>();
  readonly access = new Map<string, { expires: number }>();
  private refresh = new Set<string>();
  private n = 0;
  /** Seconds an access token lives. */
  lifetime = 3600;
  revoked = false;
  refreshes = 0;

  code(redirectUri: string): string {
    const code = `code-${++this.n}`;
    this.codes.set(code, redirectUri);
    return code;
  }

  private issue() {
    const accessToken = `access-${++this.n}-${Math.random().toString(36).slice(2)}`;
    const refreshToken = `refresh-${++this.n}-${Math.random().toString(36).slice(2)}`;
    this.access.set(accessToken, { expires: Date.now() + this.lifetime * 1000 });
    this.refresh.add(refreshToken);
    return { access_token: accessToken, refresh_token: refreshToken, expires_in: this.lifetime, token_type: 'Bearer', scope: 'read' };
  }

  /** The token endpoint: `null` is invalid_grant. Refresh tokens rotate (the old one stops working). */
  token(params: Record<string, string>): Record<string, unknown> | null {
    if (this.revoked) return null;
    if (params.grant_type === 'authorization_code') {
      if (this.codes.get(params.code ?? '') !== params.redirect_uri) return null;
      this.codes.delete(params.code!);
      return this.issue();
    }
    if (params.grant_type === 'refresh_token' && this.refresh.delete(params.refresh_token ?? '')) {
      this.refreshes++;
      return this.issue();
    }
    return null;
  }

  valid(authorization: string | undefined): boolean {
    const token = /^Bearer (.+)$/.exec(authorization ?? '')?.[1] ?? authorization ?? '';
    const grant = this.access.get(token);
    return !this.revoked && grant !== undefined && grant.expires > Date.now();
  }

  /** Every access token stops working now (expired); refresh still works unless revoked. */
  expireAll(): void {
    for (const grant of this.access.values()) grant.expires = 0;
  }
}

/** A vendor's authorize endpoint: back to redirect_uri with the state and a code of these grants (error=access_denied when denied). */
export function authorizeRedirect(res: ServerResponse, url: URL, grants: Grants, deny: boolean): void {
  const redirect = new URL(url.searchParams.get('redirect_uri')!);
  redirect.searchParams.set('state', url.searchParams.get('state') ?? '');
  if (deny) redirect.searchParams.set('error', 'access_denied');
  else redirect.searchParams.set('code', grants.code(url.searchParams.get('redirect_uri')!));
  res.writeHead(302, { location: redirect.href }).end();
}

/** The authorize endpoint of a fake that approves at once: back to redirect_uri with this code and the state. */
export function approveRedirect(res: ServerResponse, url: URL, code: string): void {
  const back = new URL(url.searchParams.get('redirect_uri') as string);
  back.searchParams.set('code', code);
  back.searchParams.set('state', url.searchParams.get('state') ?? '');
  res.writeHead(302, { location: back.toString() });
  res.end();
}
