import { createHmac } from "node:crypto";
import { safeEqual } from "../auth/secrets.js";
import { derive } from "../oauth/crypto.js";
const proofKey = (master) => derive(master, "billing-checkout");
function checkoutCustomData(master, tenantId) {
  return { tenantId, tenantProof: createHmac("sha256", proofKey(master)).update(tenantId).digest("base64url") };
}
function isProvenTenant(master, data) {
  if (!data || typeof data.tenantId !== "string" || typeof data.tenantProof !== "string") return false;
  return safeEqual(checkoutCustomData(master, data.tenantId).tenantProof, data.tenantProof);
}
export {
  checkoutCustomData,
  isProvenTenant
};
