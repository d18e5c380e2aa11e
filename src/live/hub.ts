/**
 * `/api/live`: the websocket of live progress. The upgrade is authenticated like any request
 * (`Authorization: Bearer gai_…` or the `sessionId` cookie); a connection belongs to the
 * principal's tenant and receives that tenant's events only. Events come from NOTIFY (listener.ts),
 * so an event raised on any instance reaches the tenant's clients on every instance. Only
 * notifications sealed by an instance (publisher.ts) are delivered: any database role can NOTIFY.
 *
 * The server pings every 30 s (the spec's interval; injectable for tests) and drops a client that
 * did not answer the previous ping. Clients only listen: anything they send is ignored. On shutdown
 * every socket is closed with 1012 (Service Restart), which tells a client to reconnect, with
 * backoff, to whichever instance the load balancer picks.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { AppContext } from '../context.js';
import { LIVE_CHANNEL, type LiveMessage } from './events.js';
import { NotifyListener } from './listener.js';
import { liveKey, openNotification } from './publisher.js';

export const LIVE_PATH = '/api/live';
export const PING_INTERVAL_MS = 30_000;
/** Close code sent on shutdown: "Service Restart", reconnect later. */
export const CLOSE_RESTART = 1012;
/** Dropped notifications are reported at most this often, so a flood of them cannot flood the log. */
const FORGED_LOG_INTERVAL_MS = 60_000;

export interface LiveHubOptions {
  pingIntervalMs?: number;
  listenerHealthCheckMs?: number;
}

interface Client {
  socket: WebSocket;
  tenantId: string;
  alive: boolean;
}

export class LiveHub {
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: 4096 });
  private readonly byTenant = new Map<string, Set<Client>>();
  /** Session cookies rotated while authenticating an upgrade, sent with its 101 answer. */
  private readonly upgradeCookies = new WeakMap<IncomingMessage, string[]>();
  private readonly listener: NotifyListener;
  private readonly pingTimer: NodeJS.Timeout;
  private readonly key: Buffer;
  private forged = { count: 0, loggedAt: 0 };
  private closing = false;
  readonly pingIntervalMs: number;

  constructor(
    private readonly app: AppContext,
    options: LiveHubOptions = {},
  ) {
    this.pingIntervalMs = options.pingIntervalMs ?? PING_INTERVAL_MS;
    this.key = liveKey(app.config);
    this.listener = new NotifyListener({
      url: app.config.database.directUrl ?? app.config.database.url,
      channel: LIVE_CHANNEL,
      log: app.log,
      healthCheckMs: options.listenerHealthCheckMs,
      onNotification: (payload) => this.deliver(payload),
      onGap: () => {
        // A `keys.changed` may have been missed: every cached key principal is read again.
        app.requestHooks.forgetKeyPrincipals(app, null);
        this.broadcastAll({ kind: 'live.gap', at: new Date().toISOString() });
      },
    });
    this.pingTimer = setInterval(() => this.ping(), this.pingIntervalMs);
    this.wss.on('headers', (headers: string[], req: IncomingMessage) => {
      for (const cookie of this.upgradeCookies.get(req) ?? []) headers.push(`Set-Cookie: ${cookie}`);
    });
  }

  /** Resolves once the LISTEN session is up (or its first attempt failed and retries run on). */
  get ready(): Promise<void> {
    return this.listener.ready;
  }

  get listening(): boolean {
    return this.listener.connected;
  }

  /** Number of open client sockets on this instance. */
  get clientCount(): number {
    let n = 0;
    for (const set of this.byTenant.values()) n += set.size;
    return n;
  }

  private openFor(tenantId: string): number {
    return this.byTenant.get(tenantId)?.size ?? 0;
  }

  attach(server: Server): void {
    server.on('upgrade', (req, socket, head) => {
      void this.upgrade(req, socket, head).catch((error) => {
        this.app.log.error({ err: error }, 'live upgrade failed');
        refuse(socket, 500, 'internal', 'Internal error');
      });
    });
  }

  private async upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    socket.on('error', () => {});
    const path = (req.url ?? '').split('?')[0];
    if (path !== LIVE_PATH) return refuse(socket, 404, 'not_found', 'Not found');
    if (this.closing) return refuse(socket, 503, 'unavailable', 'Instance is shutting down');
    // Authenticating may rotate the session id (once a day): the new cookie must reach the
    // browser whatever the answer, or the old one no longer works and the person is signed out.
    const cookies: string[] = [];
    const collector = { headersSent: false, appendHeader: (_name: string, value: string) => cookies.push(value) } as unknown as ServerResponse;
    const principal = await this.app.requestHooks.authenticate(this.app, req, collector);
    this.upgradeCookies.set(req, cookies);
    if (!principal) return refuse(socket, 401, 'unauthorized', 'Missing or invalid credentials');
    if (principal.tenantId === null) return refuse(socket, 403, 'forbidden', 'The global administrator has no tenant; use an account of the tenant');
    // Browsers send cookies on cross-site websocket upgrades: a cookie-authenticated socket must
    // come from our own origin (API keys are not sent by browsers on their own).
    const origin = req.headers.origin;
    if (principal.kind === 'session' && origin !== undefined && origin !== new URL(this.app.config.appUrl).origin) {
      return refuse(socket, 403, 'forbidden', 'Cross-origin websocket refused', cookies);
    }
    const tenantId = principal.tenantId;
    // One tenant cannot exhaust an instance's sockets (each costs memory and a share of every
    // fan-out); the load balancer spreads a legitimate crowd over the instances.
    const cap = this.app.config.live.maxConnectionsPerTenant;
    if (this.openFor(tenantId) >= cap) {
      return refuse(socket, 429, 'rate_limited', `Too many live connections for this tenant on this instance (at most ${cap}); retry later`, cookies, ['Retry-After: 30']);
    }
    // Without verifyClient, ws completes the upgrade synchronously: no other upgrade can pass the
    // check above before this one is counted.
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      if (this.closing) return ws.close(CLOSE_RESTART, 'server restarting');
      const client: Client = { socket: ws, tenantId, alive: true };
      let set = this.byTenant.get(tenantId);
      if (!set) this.byTenant.set(tenantId, (set = new Set()));
      set.add(client);
      ws.on('pong', () => (client.alive = true));
      ws.on('error', () => {});
      ws.on('close', () => {
        set.delete(client);
        if (set.size === 0 && this.byTenant.get(tenantId) === set) this.byTenant.delete(tenantId);
      });
      send(client, { kind: 'live.ready', at: new Date().toISOString(), pingIntervalMs: this.pingIntervalMs });
    });
  }

  private deliver(payload: string): void {
    const note = openNotification(this.key, payload);
    if (!note) return this.dropForged();
    if (note.e.kind === 'keys.changed') return this.app.requestHooks.forgetKeyPrincipals(this.app, note.t);
    const set = this.byTenant.get(note.t);
    if (!set) return;
    const text = JSON.stringify({ ...note.e, at: note.at });
    for (const client of set) client.socket.send(text);
  }

  /**
   * Any database role can NOTIFY on our channel (a BI role included): what does not open is
   * dropped. Never logged with its payload, which is the sender's to choose.
   */
  private dropForged(): void {
    this.forged.count += 1;
    const now = Date.now();
    if (now - this.forged.loggedAt < FORGED_LOG_INTERVAL_MS) return;
    this.app.log.warn({ channel: LIVE_CHANNEL, dropped: this.forged.count }, 'live notifications not sealed by an instance dropped');
    this.forged = { count: 0, loggedAt: now };
  }

  private broadcastAll(message: LiveMessage): void {
    for (const set of this.byTenant.values()) for (const client of set) send(client, message);
  }

  private ping(): void {
    for (const set of this.byTenant.values()) {
      for (const client of set) {
        if (!client.alive) {
          client.socket.terminate();
          continue;
        }
        client.alive = false;
        client.socket.ping();
      }
    }
  }

  /** Closes every socket with 1012, waits up to `waitMs` for the close handshakes, stops listening. */
  async close(waitMs = 1000): Promise<void> {
    this.closing = true;
    clearInterval(this.pingTimer);
    const sockets = [...this.byTenant.values()].flatMap((set) => [...set].map((c) => c.socket));
    await Promise.all(
      sockets.map(
        (ws) =>
          new Promise<void>((resolve) => {
            const timer = setTimeout(() => {
              ws.terminate();
              resolve();
            }, waitMs);
            ws.once('close', () => {
              clearTimeout(timer);
              resolve();
            });
            ws.close(CLOSE_RESTART, 'server restarting');
          }),
      ),
    );
    this.wss.close();
    await this.listener.stop();
  }
}

function send(client: Client, message: LiveMessage): void {
  client.socket.send(JSON.stringify(message));
}

/** Answers a refused upgrade with the general API's error envelope and closes the socket. */
function refuse(socket: Duplex, status: number, code: string, message: string, cookies: string[] = [], extra: string[] = []): void {
  const body = JSON.stringify({ error: { code, message } });
  const reason = { 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 429: 'Too Many Requests', 500: 'Internal Server Error', 503: 'Service Unavailable' }[status] ?? 'Error';
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\n${[...cookies.map((c) => `Set-Cookie: ${c}`), ...extra].map((h) => `${h}\r\n`).join('')}Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}
