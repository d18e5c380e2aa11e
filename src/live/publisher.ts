import type pg from 'pg';
import { asSystem } from '../db/tenancy.js';
import { LIVE_CHANNEL, MAX_PAYLOAD_BYTES, type LiveEvent, type LivePublisher } from './events.js';

/** The wire format of one notification: tenant, event, time raised. */
export interface Notification {
  t: string;
  e: LiveEvent;
  at: string;
}

/**
 * Publishes through `pg_notify` on the ordinary pool (a transaction pooler is fine for NOTIFY;
 * only LISTEN needs a session of its own). Works from any process, a CLI command included.
 */
export function createLivePublisher(pool: pg.Pool): LivePublisher {
  return {
    async publish(tenantId, event, options = {}) {
      const payload = JSON.stringify({ t: tenantId, e: event, at: new Date().toISOString() } satisfies Notification);
      if (Buffer.byteLength(payload) > MAX_PAYLOAD_BYTES) {
        throw new Error(`live event ${event.kind} is ${Buffer.byteLength(payload)} bytes; the limit is ${MAX_PAYLOAD_BYTES}`);
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
