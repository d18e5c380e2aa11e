/**
 * Live-progress events: what `/api/live` pushes to a tenant's clients. Every message is one JSON
 * object with a `kind`; the kinds and their fields are documented in docs/live.md. Payloads carry
 * ids and counts, never records: a client that wants the record reloads it through the API.
 */

/** The long work an event is about. `type` names the resource whose id follows. */
export interface LiveSubject {
  type: 'register_import' | 'seat_import' | 'backfill' | 'export' | 'survey' | 'job' | (string & {});
  id: string;
}

export interface JobRef {
  id: string;
  name: string;
}

export type LiveEvent =
  | {
      kind: 'job.progress';
      job: JobRef;
      subject?: LiveSubject;
      /** Workflows: the step just finished (1-based index). */
      step?: { name: string; index: number; count: number };
      done?: number;
      total?: number;
      message?: string;
    }
  | {
      kind: 'job.finished';
      job: JobRef;
      subject?: LiveSubject;
      outcome: 'completed' | 'failed' | 'retrying';
      error?: string;
    }
  | {
      kind: 'progress';
      subject: LiveSubject;
      phase: string;
      done?: number;
      total?: number;
      message?: string;
    }
  | {
      /** Facts of the tenant changed (e.g. a webhook batch stored issues or deployments): refetch what shows them. */
      kind: 'data.changed';
      facts: string[];
    }
  | {
      /**
       * Who the tenant's API keys act as changed (a key revoked, a role changed, a member removed):
       * each instance forgets the principals it cached for them (src/apiKeys/principal.ts). Not
       * sent to clients.
       */
      kind: 'keys.changed';
    }
  | { kind: 'test.ping'; sentAt: number; seq: number };

/** What a client receives: the event plus the server time it was raised at. */
export type LiveMessage =
  | (LiveEvent & { at: string })
  | { kind: 'live.ready'; at: string; pingIntervalMs: number }
  | { kind: 'live.gap'; at: string };

/** The NOTIFY channel every instance listens on. */
export const LIVE_CHANNEL = 'da_live';

/** PostgreSQL refuses NOTIFY payloads of 8000 bytes or more; we stay well below. */
export const MAX_PAYLOAD_BYTES = 7500;

export interface LivePublisher {
  /**
   * Sends an event to every client of the tenant on every instance. With `executor` (a client
   * inside a transaction) the event is delivered only if and when that transaction commits.
   */
  publish(tenantId: string, event: LiveEvent, options?: { executor?: { query(text: string, values?: unknown[]): Promise<unknown> } }): Promise<void>;
}
