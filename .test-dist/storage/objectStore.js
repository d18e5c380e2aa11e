import { LocalObjectStore } from "./local.js";
import { S3ObjectStore } from "./s3.js";
const stores = /* @__PURE__ */ new WeakMap();
function objectStoreFor(config) {
  if (config.kind === "none") return null;
  let store = stores.get(config);
  if (store === void 0) {
    store = config.kind === "s3" ? new S3ObjectStore(config) : new LocalObjectStore(config.dir);
    stores.set(config, store);
  }
  return store;
}
function transcriptKey(tenantId, sessionId) {
  return `tenants/${tenantId}/sessions/${sessionId}.jsonl`;
}
export {
  objectStoreFor,
  transcriptKey
};
