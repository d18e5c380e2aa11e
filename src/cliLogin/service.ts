/**
 * The CLI login's domain (docs/auth.md): a device code started by the CLI (RFC 8628) is approved or
 * denied by a signed-in user on our page; the approval binds it to a tenant the user belongs to.
 * The provider (oidc-provider's DeviceCode) keeps codes, expiry and single use; the fields set here
 * are the ones its own verification flow sets (lib/actions/authorization/device.js).
 */
import { permissionsOf, type Role } from '../auth/principal.js';
import type { Db } from '../db/client.js';
import { CLI_CLIENT_ID, CLI_SCOPE } from '../oauth/constants.js';
import { recordGrant, roleIn } from '../oauth/grants.js';
import type { Provider } from '../oauth/oidc.js';
import { MACHINE_NAME } from '../oauth/provider.js';

type DeviceCode = NonNullable<Awaited<ReturnType<Provider['DeviceCode']['findByUserCode']>>>;

/** A CLI login waiting for its approval. */
export interface PendingLogin {
  code: DeviceCode;
  /** As shown in the terminal: XXXX-XXXX. */
  userCode: string;
  /** The CLI's own account of the machine it runs on: shown, and the new key's name. */
  machineName: string | null;
}

/** The provider's user-code alphabet (`base-20`: no vowels, no look-alikes) and length (mask ****-****). */
const CHARSET = /^[BCDFGHJKLMNPQRSTVWXZ]{8}$/;

/** What the provider stores: upper case, separators dropped. Null when it cannot be a user code. */
export function normalizeUserCode(input: string): string | null {
  const normalized = input.toUpperCase().replace(/[\s-]/g, '');
  return CHARSET.test(normalized) ? normalized : null;
}

const formatUserCode = (normalized: string) => `${normalized.slice(0, 4)}-${normalized.slice(4)}`;

/**
 * The pending login of a user code, or null when the code is unknown, expired, already approved or
 * denied, or belongs to another client: the page says the same for all of these.
 */
export async function findPendingLogin(provider: Provider, input: string): Promise<PendingLogin | null> {
  const normalized = normalizeUserCode(input);
  if (normalized === null) return null;
  const code = await provider.DeviceCode.findByUserCode(normalized);
  if (!code || code.isExpired || code.clientId !== CLI_CLIENT_ID || code.error || code.accountId || code.inFlight) return null;
  const machine = (code.params as Record<string, unknown> | undefined)?.[MACHINE_NAME];
  return { code, userCode: formatUserCode(normalized), machineName: typeof machine === 'string' ? machine : null };
}

/**
 * Approves a login for one of the user's tenants; returns the role the key will carry, or null
 * when the user is not a member of that tenant (nothing is written then).
 */
export async function approveLogin(db: Db, provider: Provider, login: PendingLogin, userId: string, tenantId: string, resource: string): Promise<Role | null> {
  const role = await roleIn(db, tenantId, userId);
  if (!role) return null;
  // The grant only has to outlive the device code: the exchange destroys it at once.
  const ttl = login.code.remainingTTL;
  const grant = new provider.Grant({ accountId: userId, clientId: CLI_CLIENT_ID, expiresIn: ttl } as ConstructorParameters<Provider['Grant']>[0]);
  grant.addResourceScope(resource, CLI_SCOPE);
  const grantId = await grant.save();
  await recordGrant(db, { grantId, tenantId, userId, clientId: CLI_CLIENT_ID, permissions: permissionsOf(role), expiresAt: new Date(Date.now() + ttl * 1000) });
  Object.assign(login.code, { accountId: userId, grantId, scope: CLI_SCOPE, resource, authTime: Math.floor(Date.now() / 1000) });
  await login.code.save();
  return role;
}

/** The CLI's next poll answers `access_denied`. */
export async function denyLogin(login: PendingLogin): Promise<void> {
  Object.assign(login.code, { error: 'access_denied', errorDescription: 'the user denied the CLI login' });
  await login.code.save();
}
