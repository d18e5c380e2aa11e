import { createHmac, hkdfSync, timingSafeEqual } from "node:crypto";
import { isUuid } from "../shared/schemas.js";
function surveyLinkKey(databaseUrl) {
  return Buffer.from(hkdfSync("sha256", databaseUrl, "delivery-analytics", "survey-links/v1", 32));
}
function signSurveyToken(key, invitationId, expiresAt) {
  const payload = `${invitationId}.${Math.floor(expiresAt.getTime() / 1e3)}`;
  const mac = createHmac("sha256", key).update(payload).digest("base64url");
  return `${Buffer.from(payload).toString("base64url")}.${mac}`;
}
function verifySurveyToken(key, token, now = /* @__PURE__ */ new Date()) {
  const [encoded, mac, ...rest] = token.split(".");
  if (!encoded || !mac || rest.length > 0 || token.length > 200) return { ok: false, reason: "invalid" };
  const payload = Buffer.from(encoded, "base64url").toString("utf8");
  const expected = createHmac("sha256", key).update(payload).digest();
  const given = Buffer.from(mac, "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: "invalid" };
  const [invitationId, seconds] = payload.split(".");
  if (!invitationId || !isUuid(invitationId) || !seconds || !/^\d+$/.test(seconds)) return { ok: false, reason: "invalid" };
  const expiresAt = new Date(Number(seconds) * 1e3);
  if (expiresAt.getTime() <= now.getTime()) return { ok: false, reason: "expired" };
  return { ok: true, invitationId, expiresAt };
}
function responseKey(key, invitationId) {
  return createHmac("sha256", key).update(`response:${invitationId}`).digest("hex");
}
function linkExpiry(closesOn) {
  return new Date(Date.parse(`${closesOn}T00:00:00Z`) + 24 * 36e5);
}
export {
  linkExpiry,
  responseKey,
  signSurveyToken,
  surveyLinkKey,
  verifySurveyToken
};
