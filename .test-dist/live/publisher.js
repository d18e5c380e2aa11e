import { asSystem } from "../db/tenancy.js";
import { derive, open, seal } from "../oauth/crypto.js";
import { LIVE_CHANNEL, MAX_PAYLOAD_BYTES } from "./events.js";
const liveKey = (config) => derive(config.oauthEncryptionKey, "live-events");
function sealNotification(key, note) {
  return seal(key, JSON.stringify(note), LIVE_CHANNEL);
}
function openNotification(key, payload) {
  try {
    const note = JSON.parse(open(key, payload, LIVE_CHANNEL));
    return typeof note?.t === "string" ? note : null;
  } catch {
    return null;
  }
}
function createLivePublisher(pool, config) {
  const key = liveKey(config);
  return {
    async publish(tenantId, event, options = {}) {
      const payload = sealNotification(key, { t: tenantId, e: event, at: (/* @__PURE__ */ new Date()).toISOString() });
      const bytes = Buffer.byteLength(payload);
      if (bytes > MAX_PAYLOAD_BYTES) {
        throw new Error(`live event ${event.kind} is ${bytes} bytes sealed; the limit is ${MAX_PAYLOAD_BYTES}`);
      }
      if (options.executor) {
        await options.executor.query("select pg_notify($1, $2)", [LIVE_CHANNEL, payload]);
        return;
      }
      await asSystem("live-events", () => pool.query("select pg_notify($1, $2)", [LIVE_CHANNEL, payload]));
    }
  };
}
export {
  createLivePublisher,
  liveKey,
  openNotification,
  sealNotification
};
