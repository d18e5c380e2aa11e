import { asSystem } from "../db/tenancy.js";
import { batchSql, batchValues } from "./service.js";
import { GATE_COLUMNS, GATE_CTES } from "./gate.js";
const TAIL = `SELECT ${GATE_COLUMNS}, rec.id AS record_id, rec.created
FROM admitted a LEFT JOIN rec ON rec.tenant_id = a.tenant_id AND rec.external_id = a.external_id`;
class WebhookBatcher {
  constructor(pool, name, kind, options = { inFlight: 1, maxBatch: 64 }) {
    this.pool = pool;
    this.name = name;
    this.kind = kind;
    this.options = options;
    this.text = batchSql(kind, [GATE_CTES], TAIL);
  }
  pool;
  name;
  kind;
  options;
  queue = [];
  running = 0;
  text;
  /** The request's gate row with its record (`record_id` null: admitted, but its project was being created by another statement); undefined: unknown key. */
  submit(keyHash, input) {
    return new Promise((resolve, reject) => {
      this.queue.push({ keyHash, input, resolve, reject });
      this.pump();
    });
  }
  pump() {
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
  take() {
    const seen = /* @__PURE__ */ new Set();
    const batch = [];
    const rest = [];
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
  async run(batch) {
    try {
      const rows = await this.execute(batch);
      batch.forEach((item, ord) => item.resolve(rows.get(ord)));
    } catch (error) {
      if (batch.length === 1) {
        batch[0].reject(error);
        return;
      }
      for (const item of batch) await this.run([item]);
    }
  }
  async execute(batch) {
    const values = batchValues(this.kind, batch);
    const { rows } = await asSystem("ingest-batch", () => this.pool.query({ name: this.name, text: this.text, values }));
    return new Map(rows.map((row) => [row.ord, row]));
  }
}
export {
  WebhookBatcher
};
