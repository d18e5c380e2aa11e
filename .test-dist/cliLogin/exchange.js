import { eq } from "drizzle-orm";
import { permissionsOf } from "../auth/principal.js";
import { mcpGrants } from "../db/schema/index.js";
import { CLI_CLIENT_ID } from "../oauth/constants.js";
import { roleIn } from "../oauth/grants.js";
import { MACHINE_NAME } from "../oauth/provider.js";
import { createApiKey } from "../apiKeys/service.js";
const DEFAULT_KEY_NAME = "delivery-analytics CLI";
async function exchangeForApiKey(app, ctx) {
  const oidc = ctx.oidc;
  if (ctx.status !== 200 || oidc?.client?.clientId !== CLI_CLIENT_ID) return;
  const { db } = app.database;
  const { AccessToken: token, DeviceCode: code, Grant: grant } = oidc.entities;
  if (!token || !code || !grant) return invalidGrant(ctx, "the device code could not be exchanged");
  const props = token.extra;
  await token.destroy();
  await grant.destroy();
  await db.delete(mcpGrants).where(eq(mcpGrants.grantId, grant.jti));
  const role = props?.tenantId && props.userId ? await roleIn(db, props.tenantId, props.userId) : null;
  if (!props?.tenantId || !props.userId || !role) return invalidGrant(ctx, "the approving user is no longer a member of the chosen tenant");
  const machine = code.params?.[MACHINE_NAME];
  const { key, secret } = await createApiKey(
    db,
    { kind: "oauth", tenantId: props.tenantId, userId: props.userId, role, permissions: permissionsOf(role) },
    { name: typeof machine === "string" ? machine : DEFAULT_KEY_NAME }
  );
  ctx.body = { access_token: secret, token_type: "Bearer", key_id: key.id, key_name: key.name, tenant_id: props.tenantId };
}
function invalidGrant(ctx, description) {
  ctx.status = 400;
  ctx.body = { error: "invalid_grant", error_description: description };
}
export {
  exchangeForApiKey
};
