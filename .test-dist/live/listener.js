import pg from "pg";
class NotifyListener {
  constructor(options) {
    this.options = options;
    this.ready = this.connect();
    this.healthTimer = setInterval(() => {
      this.client?.query("select 1").catch(() => this.lost());
    }, options.healthCheckMs ?? 15e3);
    this.healthTimer.unref();
  }
  options;
  client = null;
  stopped = false;
  attempt = 0;
  retryTimer = null;
  healthTimer = null;
  everConnected = false;
  /** Resolves once the first LISTEN is in place, or the first attempt failed. */
  ready;
  get connected() {
    return this.client !== null;
  }
  async connect() {
    if (this.stopped) return;
    const client = new pg.Client({ connectionString: this.options.url, application_name: "delivery-analytics-live", keepAlive: true });
    client.on("error", () => this.lost(client));
    client.on("end", () => this.lost(client));
    client.on("notification", (message) => {
      if (message.channel === this.options.channel && message.payload) this.options.onNotification(message.payload);
    });
    try {
      await client.connect();
      await client.query(`listen ${pg.escapeIdentifier(this.options.channel)}`);
    } catch (error) {
      client.removeAllListeners("end");
      client.on("error", () => {
      });
      await client.end().catch(() => {
      });
      this.options.log.warn({ err: error, attempt: this.attempt }, "live listener could not connect; retrying");
      this.scheduleReconnect();
      return;
    }
    if (this.stopped) {
      await client.end().catch(() => {
      });
      return;
    }
    this.client = client;
    this.attempt = 0;
    if (this.everConnected) {
      this.options.log.info("live listener reconnected");
      this.options.onGap();
    }
    this.everConnected = true;
  }
  lost(client = this.client) {
    if (this.stopped || client === null || client !== this.client) return;
    this.client = null;
    client.removeAllListeners("end");
    client.on("error", () => {
    });
    void client.end().catch(() => {
    });
    this.options.log.warn("live listener lost its connection; reconnecting");
    this.scheduleReconnect();
  }
  scheduleReconnect() {
    if (this.stopped || this.retryTimer) return;
    const delay = Math.min(5e3, 100 * 2 ** this.attempt++);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      void this.connect();
    }, delay);
  }
  async stop() {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.healthTimer) clearInterval(this.healthTimer);
    const client = this.client;
    this.client = null;
    if (client) {
      client.removeAllListeners("end");
      client.on("error", () => {
      });
      await client.end().catch(() => {
      });
    }
  }
}
export {
  NotifyListener
};
