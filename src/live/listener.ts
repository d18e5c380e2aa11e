/**
 * The instance's one LISTEN session. It needs a real session, so it connects to
 * DATABASE_URL_DIRECT when set (a transaction pooler would drop the LISTEN), else DATABASE_URL.
 * When the connection is lost (a database restart, a failover, a killed backend) it reconnects
 * with backoff (100 ms doubling to 5 s) and reports the gap, since notifications sent meanwhile
 * are lost. A `select 1` every `healthCheckMs` finds a connection that died silently.
 */
import pg from 'pg';
import type { Logger } from '../log.js';

export interface ListenerOptions {
  url: string;
  channel: string;
  log: Logger;
  onNotification(payload: string): void;
  /** Called after a reconnect (not after the first connect). */
  onGap(): void;
  healthCheckMs?: number;
}

export class NotifyListener {
  private client: pg.Client | null = null;
  private stopped = false;
  private attempt = 0;
  private retryTimer: NodeJS.Timeout | null = null;
  private healthTimer: NodeJS.Timeout | null = null;
  private everConnected = false;
  /** Resolves once the first LISTEN is in place, or the first attempt failed. */
  readonly ready: Promise<void>;

  constructor(private readonly options: ListenerOptions) {
    this.ready = this.connect();
    this.healthTimer = setInterval(() => {
      this.client?.query('select 1').catch(() => this.lost());
    }, options.healthCheckMs ?? 15_000);
    this.healthTimer.unref();
  }

  get connected(): boolean {
    return this.client !== null;
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const client = new pg.Client({ connectionString: this.options.url, application_name: 'delivery-analytics-live', keepAlive: true });
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    client.on('notification', (message) => {
      if (message.channel === this.options.channel && message.payload) this.options.onNotification(message.payload);
    });
    try {
      await client.connect();
      await client.query(`listen ${pg.escapeIdentifier(this.options.channel)}`);
    } catch (error) {
      client.removeAllListeners('end');
      client.on('error', () => {});
      await client.end().catch(() => {});
      this.options.log.warn({ err: error, attempt: this.attempt }, 'live listener could not connect; retrying');
      this.scheduleReconnect();
      return;
    }
    if (this.stopped) {
      await client.end().catch(() => {});
      return;
    }
    this.client = client;
    this.attempt = 0;
    if (this.everConnected) {
      this.options.log.info('live listener reconnected');
      this.options.onGap();
    }
    this.everConnected = true;
  }

  private lost(client: pg.Client | null = this.client): void {
    if (this.stopped || client === null || client !== this.client) return;
    this.client = null;
    client.removeAllListeners('end');
    client.on('error', () => {});
    void client.end().catch(() => {});
    this.options.log.warn('live listener lost its connection; reconnecting');
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.stopped || this.retryTimer) return;
    const delay = Math.min(5000, 100 * 2 ** this.attempt++);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      void this.connect();
    }, delay);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.healthTimer) clearInterval(this.healthTimer);
    const client = this.client;
    this.client = null;
    if (client) {
      client.removeAllListeners('end');
      client.on('error', () => {});
      await client.end().catch(() => {});
    }
  }
}
