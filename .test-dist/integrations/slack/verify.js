import { createHmac, timingSafeEqual } from "node:crypto";
const REPLAY_WINDOW_SECONDS = 5 * 60;
function verifySlackRequest(secret, headers, body, nowMs = Date.now()) {
  const { timestamp, signature } = headers;
  if (!/^\d{1,12}$/.test(timestamp) || !/^v0=[0-9a-f]{64}$/.test(signature)) return { ok: false, reason: "missing headers" };
  if (Math.abs(nowMs / 1e3 - Number(timestamp)) > REPLAY_WINDOW_SECONDS) return { ok: false, reason: "stale timestamp" };
  const expected = createHmac("sha256", secret).update(`v0:${timestamp}:`).update(body).digest();
  const given = Buffer.from(signature.slice(3), "hex");
  return timingSafeEqual(expected, given) ? { ok: true } : { ok: false, reason: "bad signature" };
}
function signSlackRequest(secret, body, timestamp = Math.floor(Date.now() / 1e3)) {
  const digest = createHmac("sha256", secret).update(`v0:${timestamp}:`).update(body).digest("hex");
  return { "x-slack-request-timestamp": String(timestamp), "x-slack-signature": `v0=${digest}` };
}
export {
  REPLAY_WINDOW_SECONDS,
  signSlackRequest,
  verifySlackRequest
};
