/**
 * Group commit of log exports, per tenant and instance: while one statement of a tenant runs, the
 * exports arriving meanwhile wait and then go together as the next statement. One export alone
 * goes at once; under load many share a statement, its planning, triggers and commit, the way the
 * webhook API batches its upserts (src/webhooks/batch.ts). An export writing a row that another
 * export of the round writes waits for the next round, so each row takes one export's
 * contribution, and its batch digest, per statement (service.ts).
 */
import { withTenant } from '../db/tenancy.js';

/** What an export contributes, and how two exports' contributions combine. */
export interface Contribution<T> {
  /** Whether the two write no row in common. */
  disjoint(other: T): boolean;
  /** Adds `other` (a disjoint one) to this. */
  absorb(other: T): void;
}

/** Exports in one statement at most: a larger statement holds its row locks longer. */
const MAX_ROUND = 64;

interface Waiting<T> {
  contribution: T;
  resolve: () => void;
  reject: (error: unknown) => void;
}

export class GroupCommit<T extends Contribution<T>> {
  private readonly queues = new Map<string, Waiting<T>[]>();

  constructor(
    private readonly empty: () => T,
    private readonly write: (tenantId: string, contribution: T) => Promise<void>,
  ) {}

  /** Resolves once the export's counts are committed; rejects when its statement failed (nothing of it was kept). */
  submit(tenantId: string, contribution: T): Promise<void> {
    return new Promise((resolve, reject) => {
      const queue = this.queues.get(tenantId);
      if (queue) {
        queue.push({ contribution, resolve, reject });
        return;
      }
      this.queues.set(tenantId, [{ contribution, resolve, reject }]);
      void withTenant(tenantId, () => this.drain(tenantId));
    });
  }

  private async drain(tenantId: string): Promise<void> {
    const queue = this.queues.get(tenantId)!;
    while (queue.length > 0) {
      const round: Waiting<T>[] = [];
      const merged = this.empty();
      for (let i = 0; i < queue.length && round.length < MAX_ROUND; ) {
        const item = queue[i]!;
        if (!merged.disjoint(item.contribution)) {
          i += 1;
          continue;
        }
        merged.absorb(item.contribution);
        round.push(item);
        queue.splice(i, 1);
      }
      try {
        await this.write(tenantId, merged);
        for (const item of round) item.resolve();
      } catch (error) {
        if (round.length === 1) {
          round[0]!.reject(error);
          continue;
        }
        // One export the database refuses must not fail the others of its round: each alone.
        for (const item of round) await this.write(tenantId, item.contribution).then(item.resolve, item.reject);
      }
    }
    this.queues.delete(tenantId);
  }
}
