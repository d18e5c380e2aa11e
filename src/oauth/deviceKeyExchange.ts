/**
 * The last step of a CLI login: the CLI exchanges its approved device code at the token endpoint
 * (RFC 8628 §3.4), and this replaces the provider's answer with a new API key. An API key is a
 * bearer access token of our API, so the answer stays an RFC 6749 token response
 * (`access_token`, `token_type`; no `expires_in`: a key lives until it is revoked), plus the key's
 * id and name. The provider's own token is destroyed before the answer is sent, and the grant with
 * it: a device code yields one key, once.
 */
import type Koa from 'koa';
import { eq } from 'drizzle-orm';
import { permissionsOf } from '../auth/principal.js';
import type { AppContext } from '../context.js';
import { mcpGrants } from '../db/schema/index.js';
import { CLI_CLIENT_ID } from './constants.js';
import { roleIn, type OAuthProps } from './grants.js';
import type { KoaContextWithOIDC } from './oidc.js';
import { MACHINE_NAME } from './provider.js';
import { createApiKey } from '../apiKeys/service.js';

/** The key's name when the CLI sent none. */
const DEFAULT_KEY_NAME = 'delivery-analytics CLI';

export async function exchangeForApiKey(app: AppContext, ctx: Koa.Context): Promise<void> {
  const oidc = (ctx as Partial<KoaContextWithOIDC>).oidc;
  if (ctx.status !== 200 || oidc?.client?.clientId !== CLI_CLIENT_ID) return;
  const { db } = app.database;
  const { AccessToken: token, DeviceCode: code, Grant: grant } = oidc.entities;
  if (!token || !code || !grant) return invalidGrant(ctx, 'the device code could not be exchanged');
  const props = token.extra as Partial<OAuthProps> | undefined;
  await token.destroy();
  await grant.destroy();
  await db.delete(mcpGrants).where(eq(mcpGrants.grantId, grant.jti));

  const role = props?.tenantId && props.userId ? await roleIn(db, props.tenantId, props.userId) : null;
  if (!props?.tenantId || !props.userId || !role) return invalidGrant(ctx, 'the approving user is no longer a member of the chosen tenant');
  const machine = (code.params as Record<string, unknown> | undefined)?.[MACHINE_NAME];
  const { key, secret } = await createApiKey(
    db,
    { kind: 'oauth', tenantId: props.tenantId, userId: props.userId, role, permissions: permissionsOf(role) },
    { name: typeof machine === 'string' ? machine : DEFAULT_KEY_NAME },
  );
  ctx.body = { access_token: secret, token_type: 'Bearer', key_id: key.id, key_name: key.name, tenant_id: props.tenantId };
}

function invalidGrant(ctx: Koa.Context, description: string): void {
  ctx.status = 400;
  ctx.body = { error: 'invalid_grant', error_description: description };
}
