import { createCipheriv, createDecipheriv, createHash, createHmac, hkdfSync, randomBytes, timingSafeEqual } from "node:crypto";
const derive = (master, purpose) => Buffer.from(hkdfSync("sha256", master, Buffer.alloc(0), `delivery-analytics/${purpose}`, 32));
const cache = /* @__PURE__ */ new WeakMap();
function oauthKeys(master) {
  let keys = cache.get(master);
  if (!keys) {
    keys = {
      storage: derive(master, "oauth-storage"),
      cookies: [derive(master, "oauth-cookies").toString("base64url")],
      csrf: derive(master, "oauth-csrf")
    };
    cache.set(master, keys);
  }
  return keys;
}
function seal(key, plaintext, aad) {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(Buffer.from(aad, "utf8"));
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url");
}
function open(key, sealed, aad) {
  const raw = Buffer.from(sealed, "base64url");
  const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, 12));
  decipher.setAAD(Buffer.from(aad, "utf8"));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
}
function sha256hex(value) {
  return createHash("sha256").update(value).digest("hex");
}
function csrfToken(key, sessionId, interactionUid) {
  return createHmac("sha256", key).update(`${sessionId}
${interactionUid}`).digest("base64url");
}
function csrfValid(key, sessionId, interactionUid, presented) {
  if (typeof presented !== "string" || presented.length > 100) return false;
  const expected = Buffer.from(csrfToken(key, sessionId, interactionUid));
  const given = Buffer.from(presented);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
export {
  csrfToken,
  csrfValid,
  derive,
  oauthKeys,
  open,
  seal,
  sha256hex
};
