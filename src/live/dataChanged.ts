/**
 * `data.changed`: tells a tenant's open dashboards that facts changed (a webhook stored an issue or
 * a deployment), so they refetch. Webhooks arrive by the thousand a second, so changes are gathered
 * per tenant on this instance and published at most once per window (trailing): one NOTIFY a second
 * per busy tenant instead of one per request. Jobs (syncs, imports) already announce themselves
 * with `job.finished`.
 */
import type { LivePublisher } from './events.js';

export const DATA_CHANGED_WINDOW_MS = 1000;

export class DataChangeNotifier {
  private readonly pending = new Map<string, Set<string>>();

  constructor(
    private readonly live: LivePublisher,
    private readonly onError: (error: unknown) => void,
    private readonly windowMs = DATA_CHANGED_WINDOW_MS,
  ) {}

  changed(tenantId: string, fact: string): void {
    const facts = this.pending.get(tenantId);
    if (facts) {
      facts.add(fact);
      return;
    }
    this.pending.set(tenantId, new Set([fact]));
    setTimeout(() => this.flush(tenantId), this.windowMs).unref();
  }

  private flush(tenantId: string): void {
    const facts = this.pending.get(tenantId);
    this.pending.delete(tenantId);
    if (!facts) return;
    this.live.publish(tenantId, { kind: 'data.changed', facts: [...facts].sort() }).catch(this.onError);
  }
}
