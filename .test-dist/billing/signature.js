import { createHmac, timingSafeEqual } from "node:crypto";
const REPLAY_WINDOW_SECONDS = 5 * 60;
function verifyPaddleSignature(secret, header, body, nowMs = Date.now()) {
  let ts = null;
  const digests = [];
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === "ts" && /^\d{1,12}$/.test(value)) ts = value;
    else if (key === "h1" && /^[0-9a-f]{64}$/.test(value)) digests.push(Buffer.from(value, "hex"));
  }
  if (ts === null || digests.length === 0 || digests.length > 4) return { ok: false, reason: "missing or malformed header" };
  if (Math.abs(nowMs / 1e3 - Number(ts)) > REPLAY_WINDOW_SECONDS) return { ok: false, reason: "stale timestamp" };
  const expected = createHmac("sha256", secret).update(`${ts}:`).update(body).digest();
  let match = false;
  for (const digest of digests) match = timingSafeEqual(expected, digest) || match;
  return match ? { ok: true } : { ok: false, reason: "bad signature" };
}
function signPaddleNotification(secret, body, ts = Math.floor(Date.now() / 1e3)) {
  const digest = createHmac("sha256", secret).update(`${ts}:`).update(body).digest("hex");
  return `ts=${ts};h1=${digest}`;
}
export {
  REPLAY_WINDOW_SECONDS,
  signPaddleNotification,
  verifyPaddleSignature
};
