import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from "node:crypto";
const STATE_TTL_SECONDS = 10 * 60;
const stateKey = (master) => Buffer.from(hkdfSync("sha256", master, Buffer.alloc(0), "delivery-analytics/integration-state", 32));
function sign(master, body) {
  return createHmac("sha256", stateKey(master)).update(body).digest("base64url");
}
function createState(master, claims, now = Date.now()) {
  const expires = Math.floor(now / 1e3) + STATE_TTL_SECONDS;
  const body = Buffer.from(JSON.stringify([claims.tenantId, claims.userId, claims.kind, expires, randomBytes(9).toString("base64url")])).toString("base64url");
  return `${body}.${sign(master, body)}`;
}
function stateValid(master, presented, expected, now = Date.now()) {
  if (typeof presented !== "string" || presented.length > 512) return false;
  const [body, signature, extra] = presented.split(".");
  if (!body || !signature || extra !== void 0) return false;
  const want = Buffer.from(sign(master, body));
  const given = Buffer.from(signature);
  if (want.length !== given.length || !timingSafeEqual(want, given)) return false;
  let claims;
  try {
    claims = JSON.parse(Buffer.from(body, "base64url").toString("utf8"));
  } catch {
    return false;
  }
  if (!Array.isArray(claims) || claims.length !== 5) return false;
  const [tenantId, userId, kind, expires] = claims;
  return tenantId === expected.tenantId && userId === expected.userId && kind === expected.kind && typeof expires === "number" && expires * 1e3 > now;
}
export {
  STATE_TTL_SECONDS,
  createState,
  stateValid
};
