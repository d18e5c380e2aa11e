import { permissionsOf } from "../auth/principal.js";
import { CLI_CLIENT_ID, CLI_SCOPE } from "../oauth/constants.js";
import { recordGrant, roleIn } from "../oauth/grants.js";
import { MACHINE_NAME } from "../oauth/provider.js";
const CHARSET = /^[BCDFGHJKLMNPQRSTVWXZ]{8}$/;
function normalizeUserCode(input) {
  const normalized = input.toUpperCase().replace(/[\s-]/g, "");
  return CHARSET.test(normalized) ? normalized : null;
}
const formatUserCode = (normalized) => `${normalized.slice(0, 4)}-${normalized.slice(4)}`;
async function findPendingLogin(provider, input) {
  const normalized = normalizeUserCode(input);
  if (normalized === null) return null;
  const code = await provider.DeviceCode.findByUserCode(normalized);
  if (!code || code.isExpired || code.clientId !== CLI_CLIENT_ID || code.error || code.accountId || code.inFlight) return null;
  const machine = code.params?.[MACHINE_NAME];
  return { code, userCode: formatUserCode(normalized), machineName: typeof machine === "string" ? machine : null };
}
async function approveLogin(db, provider, login, userId, tenantId, resource) {
  const role = await roleIn(db, tenantId, userId);
  if (!role) return null;
  const ttl = login.code.remainingTTL;
  const grant = new provider.Grant({ accountId: userId, clientId: CLI_CLIENT_ID, expiresIn: ttl });
  grant.addResourceScope(resource, CLI_SCOPE);
  const grantId = await grant.save();
  await recordGrant(db, { grantId, tenantId, userId, clientId: CLI_CLIENT_ID, permissions: permissionsOf(role), expiresAt: new Date(Date.now() + ttl * 1e3) });
  Object.assign(login.code, { accountId: userId, grantId, scope: CLI_SCOPE, resource, authTime: Math.floor(Date.now() / 1e3) });
  await login.code.save();
  return role;
}
async function denyLogin(login) {
  Object.assign(login.code, { error: "access_denied", errorDescription: "the user denied the CLI login" });
  await login.code.save();
}
export {
  approveLogin,
  denyLogin,
  findPendingLogin,
  normalizeUserCode
};
