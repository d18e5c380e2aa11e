import { WebSocketServer } from "ws";
import { authenticate } from "../auth/authenticate.js";
import { LIVE_CHANNEL } from "./events.js";
import { NotifyListener } from "./listener.js";
import { liveKey, openNotification } from "./publisher.js";
const LIVE_PATH = "/api/live";
const PING_INTERVAL_MS = 3e4;
const CLOSE_RESTART = 1012;
const FORGED_LOG_INTERVAL_MS = 6e4;
class LiveHub {
  constructor(app, options = {}) {
    this.app = app;
    this.pingIntervalMs = options.pingIntervalMs ?? PING_INTERVAL_MS;
    this.key = liveKey(app.config);
    this.listener = new NotifyListener({
      url: app.config.database.directUrl ?? app.config.database.url,
      channel: LIVE_CHANNEL,
      log: app.log,
      healthCheckMs: options.listenerHealthCheckMs,
      onNotification: (payload) => this.deliver(payload),
      onGap: () => this.broadcastAll({ kind: "live.gap", at: (/* @__PURE__ */ new Date()).toISOString() })
    });
    this.pingTimer = setInterval(() => this.ping(), this.pingIntervalMs);
    this.wss.on("headers", (headers, req) => {
      for (const cookie of this.upgradeCookies.get(req) ?? []) headers.push(`Set-Cookie: ${cookie}`);
    });
  }
  app;
  wss = new WebSocketServer({ noServer: true, maxPayload: 4096 });
  byTenant = /* @__PURE__ */ new Map();
  /** Session cookies rotated while authenticating an upgrade, sent with its 101 answer. */
  upgradeCookies = /* @__PURE__ */ new WeakMap();
  listener;
  pingTimer;
  key;
  forged = { count: 0, loggedAt: 0 };
  closing = false;
  pingIntervalMs;
  /** Resolves once the LISTEN session is up (or its first attempt failed and retries run on). */
  get ready() {
    return this.listener.ready;
  }
  get listening() {
    return this.listener.connected;
  }
  /** Number of open client sockets on this instance. */
  get clientCount() {
    let n = 0;
    for (const set of this.byTenant.values()) n += set.size;
    return n;
  }
  openFor(tenantId) {
    return this.byTenant.get(tenantId)?.size ?? 0;
  }
  attach(server) {
    server.on("upgrade", (req, socket, head) => {
      void this.upgrade(req, socket, head).catch((error) => {
        this.app.log.error({ err: error }, "live upgrade failed");
        refuse(socket, 500, "internal", "Internal error");
      });
    });
  }
  async upgrade(req, socket, head) {
    socket.on("error", () => {
    });
    const path = (req.url ?? "").split("?")[0];
    if (path !== LIVE_PATH) return refuse(socket, 404, "not_found", "Not found");
    if (this.closing) return refuse(socket, 503, "unavailable", "Instance is shutting down");
    const cookies = [];
    const collector = { headersSent: false, appendHeader: (_name, value) => cookies.push(value) };
    const principal = await authenticate(this.app, req, collector);
    this.upgradeCookies.set(req, cookies);
    if (!principal) return refuse(socket, 401, "unauthorized", "Missing or invalid credentials");
    if (principal.tenantId === null) return refuse(socket, 403, "forbidden", "The global administrator has no tenant; use an account of the tenant");
    const origin = req.headers.origin;
    if (principal.kind === "session" && origin !== void 0 && origin !== new URL(this.app.config.appUrl).origin) {
      return refuse(socket, 403, "forbidden", "Cross-origin websocket refused", cookies);
    }
    const tenantId = principal.tenantId;
    const cap = this.app.config.live.maxConnectionsPerTenant;
    if (this.openFor(tenantId) >= cap) {
      return refuse(socket, 429, "rate_limited", `Too many live connections for this tenant on this instance (at most ${cap}); retry later`, cookies, ["Retry-After: 30"]);
    }
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      if (this.closing) return ws.close(CLOSE_RESTART, "server restarting");
      const client = { socket: ws, tenantId, alive: true };
      let set = this.byTenant.get(tenantId);
      if (!set) this.byTenant.set(tenantId, set = /* @__PURE__ */ new Set());
      set.add(client);
      ws.on("pong", () => client.alive = true);
      ws.on("error", () => {
      });
      ws.on("close", () => {
        set.delete(client);
        if (set.size === 0 && this.byTenant.get(tenantId) === set) this.byTenant.delete(tenantId);
      });
      send(client, { kind: "live.ready", at: (/* @__PURE__ */ new Date()).toISOString(), pingIntervalMs: this.pingIntervalMs });
    });
  }
  deliver(payload) {
    const note = openNotification(this.key, payload);
    if (!note) return this.dropForged();
    const set = this.byTenant.get(note.t);
    if (!set) return;
    const text = JSON.stringify({ ...note.e, at: note.at });
    for (const client of set) client.socket.send(text);
  }
  /**
   * Any database role can NOTIFY on our channel (a BI role included): what does not open is
   * dropped. Never logged with its payload, which is the sender's to choose.
   */
  dropForged() {
    this.forged.count += 1;
    const now = Date.now();
    if (now - this.forged.loggedAt < FORGED_LOG_INTERVAL_MS) return;
    this.app.log.warn({ channel: LIVE_CHANNEL, dropped: this.forged.count }, "live notifications not sealed by an instance dropped");
    this.forged = { count: 0, loggedAt: now };
  }
  broadcastAll(message) {
    for (const set of this.byTenant.values()) for (const client of set) send(client, message);
  }
  ping() {
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
  async close(waitMs = 1e3) {
    this.closing = true;
    clearInterval(this.pingTimer);
    const sockets = [...this.byTenant.values()].flatMap((set) => [...set].map((c) => c.socket));
    await Promise.all(
      sockets.map(
        (ws) => new Promise((resolve) => {
          const timer = setTimeout(() => {
            ws.terminate();
            resolve();
          }, waitMs);
          ws.once("close", () => {
            clearTimeout(timer);
            resolve();
          });
          ws.close(CLOSE_RESTART, "server restarting");
        })
      )
    );
    this.wss.close();
    await this.listener.stop();
  }
}
function send(client, message) {
  client.socket.send(JSON.stringify(message));
}
function refuse(socket, status, code, message, cookies = [], extra = []) {
  const body = JSON.stringify({ error: { code, message } });
  const reason = { 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 429: "Too Many Requests", 500: "Internal Server Error", 503: "Service Unavailable" }[status] ?? "Error";
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r
Connection: close\r
${[...cookies.map((c) => `Set-Cookie: ${c}`), ...extra].map((h) => `${h}\r
`).join("")}Content-Type: application/json; charset=utf-8\r
Content-Length: ${Buffer.byteLength(body)}\r
\r
${body}`
  );
}
export {
  CLOSE_RESTART,
  LIVE_PATH,
  LiveHub,
  PING_INTERVAL_MS
};
