import type pg from 'pg';
import type { Config } from '../config/index.js';
import { asSystem } from '../db/tenancy.js';
import { derive, open, seal } from '../auth/crypto.js';
import { LIVE_CHANNEL, MAX_PAYLOAD_BYTES, type LiveEvent, type LivePublisher } from './events.js';

/** The wire format of one notification: tenant, event, time raised. */
export interface Notification {
  t: string;
  e: LiveEvent;
  at: string;
}

/**
 * Any login role of the database may NOTIFY and LISTEN on any channel: PostgreSQL has no privilege
 * for either, and both work in a read-only transaction, so a tenant's BI role can do both. Sealing
 * every notification (AES-256-GCM under a key only the instances derive) means a forged or altered
 * one fails to open and is dropped, and a listener outside the application reads neither the
 * tenant nor the event. Every instance derives the same key from OAUTH_ENCRYPTION_KEY.
 */
export const liveKey = (config: Pick<Config, 'oauthEncryptionKey'>): Buffer => derive(config.oauthEncryptionKey, 'live-events');

/** Sealed with the channel as associated data, so a ciphertext made for another purpose does not open here. */
export function sealNotification(key: Buffer, note: Notification): string {
  return seal(key, JSON.stringify(note), LIVE_CHANNEL);
}

/** The notification, or null when the payload was not sealed by an instance (forged, altered, truncated). */
export function openNotification(key: Buffer, payload: string): Notification | null {
  try {
    const note = JSON.parse(open(key, payload, LIVE_CHANNEL)) as Notification;
    return typeof note?.t === 'string' ? note : null;
  } catch {
    return null;
  }
}

/**
 * Publishes through `pg_notify` on the ordinary pool (a transaction pooler is fine for NOTIFY;
 * only LISTEN needs a session of its own). Works from any process, a CLI command included.
 */
export function createLivePublisher(pool: pg.Pool, config: Pick<Config, 'oauthEncryptionKey'>): LivePublisher {
  const key = liveKey(config);
  return {
    async publish(tenantId, event, options = {}) {
      const payload = sealNotification(key, { t: tenantId, e: event, at: new Date().toISOString() });
      const bytes = Buffer.byteLength(payload);
      if (bytes > MAX_PAYLOAD_BYTES) {
        throw new Error(`live event ${event.kind} is ${bytes} bytes sealed; the limit is ${MAX_PAYLOAD_BYTES}`);
      }
      if (options.executor) {
        await options.executor.query('select pg_notify($1, $2)', [LIVE_CHANNEL, payload]);
        return;
      }
      // A NOTIFY reads no table; as system work it reuses the connection the webhook batch just
      // used as is, instead of switching its role and back (src/db/client.ts) on every request.
      await asSystem('live-events', () => pool.query('select pg_notify($1, $2)', [LIVE_CHANNEL, payload]));
    },
  };
}
