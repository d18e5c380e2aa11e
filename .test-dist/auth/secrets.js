import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
function sha256(value) {
  return createHash("sha256").update(value).digest("hex");
}
function randomToken(bytes = 32) {
  return randomBytes(bytes).toString("base64url");
}
function safeEqual(a, b) {
  const left = createHash("sha256").update(a).digest();
  const right = createHash("sha256").update(b).digest();
  return timingSafeEqual(left, right) && a.length === b.length;
}
export {
  randomToken,
  safeEqual,
  sha256
};
