/**
 * Webhook requests that arrive together are written together: requests of one kind waiting for the
 * database go as ONE statement (gate + upsert, src/webhooks/upsertStatement.ts), each still
 * answered on its own (its own 401/429, counts, created/updated). A statement's fixed cost (round
 * trip, executor start-up, locks, commit) is most of a single-row upsert's, so under load the
 * database does a fraction of the work per request; alone, a request is sent at once, with no wait.
 *
 * Rules:
 * - at most `inFlight` statements per kind at a time (one: measured, two in flight made smaller
 *   batches and 20% fewer requests a second); whatever arrives meanwhile waits, and the next
 *   statement takes all of it (up to `maxBatch`);
 * - one externalId at most once per statement (a later request for it waits for the next one), so
 *   requests for the same record keep their order and one INSERT never meets a row twice;
 * - when a statement fails (a deadlock with another instance, a lost connection), each of its
 *   requests is run again alone, so one request's failure is never another's.
 */
import { asSystem } from '../db/tenancy.js';
import type { Pool } from 'pg';
import { batchSql, batchValues, type Kind } from './service.js';
import { GATE_COLUMNS, GATE_CTES, type GateRow } from './gate.js';

export interface BatchRow extends GateRow {
  record_id: string | null;
  created: boolean | null;
}

interface Pending<I> {
  keyHash: string;
  input: I;
  resolve: (row: BatchRow | undefined) => void;
  reject: (error: unknown) => void;
}

const TAIL = `SELECT ${GATE_COLUMNS}, rec.id AS record_id, rec.created
FROM admitted a LEFT JOIN rec ON rec.tenant_id = a.tenant_id AND rec.external_id = a.external_id`;

export class WebhookBatcher<I extends { externalId: string }> {
  private queue: Pending<I>[] = [];
  private running = 0;
  private readonly text: string;

  constructor(
    private readonly pool: Pick<Pool, 'query'>,
    private readonly name: string,
    private readonly kind: Kind<I>,
    private readonly options: { inFlight: number; maxBatch: number } = { inFlight: 1, maxBatch: 64 },
  ) {
    this.text = batchSql(kind, [GATE_CTES], TAIL);
  }

  /** The request's gate row with its record (`record_id` null: admitted, but its project was being created by another statement); undefined: unknown key. */
  submit(keyHash: string, input: I): Promise<BatchRow | undefined> {
    return new Promise((resolve, reject) => {
      this.queue.push({ keyHash, input, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    while (this.running < this.options.inFlight && this.queue.length > 0) {
      const batch = this.take();
      this.running += 1;
      void this.run(batch).finally(() => {
        this.running -= 1;
        this.pump();
      });
    }
  }

  /** The next statement's requests (in arrival order, one per externalId); the rest stay queued. */
  private take(): Pending<I>[] {
    const seen = new Set<string>();
    const batch: Pending<I>[] = [];
    const rest: Pending<I>[] = [];
    for (const item of this.queue) {
      const id = item.input.externalId;
      if (batch.length < this.options.maxBatch && !seen.has(id)) {
        seen.add(id);
        batch.push(item);
      } else {
        rest.push(item);
      }
    }
    this.queue = rest;
    return batch;
  }

  private async run(batch: Pending<I>[]): Promise<void> {
    try {
      const rows = await this.execute(batch);
      batch.forEach((item, ord) => item.resolve(rows.get(ord)));
    } catch (error) {
      if (batch.length === 1) {
        batch[0]!.reject(error);
        return;
      }
      for (const item of batch) await this.run([item]);
    }
  }

  private async execute(batch: Pending<I>[]): Promise<Map<number, BatchRow>> {
    const values = batchValues(this.kind, batch);
    // One statement carries the requests of several API keys; each row is admitted by its own
    // key inside the statement (GATE_CTES), so the statement itself spans tenants.
    const { rows } = await asSystem('ingest-batch', () => this.pool.query<BatchRow>({ name: this.name, text: this.text, values }));
    return new Map(rows.map((row) => [row.ord, row]));
  }
}
