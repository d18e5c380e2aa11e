const DATA_CHANGED_WINDOW_MS = 1e3;
class DataChangeNotifier {
  constructor(live, onError, windowMs = DATA_CHANGED_WINDOW_MS) {
    this.live = live;
    this.onError = onError;
    this.windowMs = windowMs;
  }
  live;
  onError;
  windowMs;
  pending = /* @__PURE__ */ new Map();
  changed(tenantId, fact) {
    const facts = this.pending.get(tenantId);
    if (facts) {
      facts.add(fact);
      return;
    }
    this.pending.set(tenantId, /* @__PURE__ */ new Set([fact]));
    setTimeout(() => this.flush(tenantId), this.windowMs).unref();
  }
  flush(tenantId) {
    const facts = this.pending.get(tenantId);
    this.pending.delete(tenantId);
    if (!facts) return;
    this.live.publish(tenantId, { kind: "data.changed", facts: [...facts].sort() }).catch(this.onError);
  }
}
export {
  DATA_CHANGED_WINDOW_MS,
  DataChangeNotifier
};
