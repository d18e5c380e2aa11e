import Router from "@koa/router";
import { z } from "zod";
import { createTenantForUser, renameTenant } from "./service.js";
import { route } from "../http/route.js";
import { Uuid } from "../shared/schemas.js";
const TenantBody = z.strictObject({ name: z.string().trim().min(1, "A name is required").max(200) });
const TenantParams = z.object({ id: Uuid }).catch({ id: "00000000-0000-0000-0000-000000000000" });
function tenantRoutes(app) {
  const router = new Router();
  const { db } = app.database;
  router.post("/api/tenants", route(app, { auth: "required", body: TenantBody, whenReadOnly: "allowed" }, async ({ principal, body }) => {
    const tenant = await createTenantForUser(db, principal.userId, body.name);
    return { status: 201, body: { data: { ...tenant, role: "owner" }, meta: {} } };
  }));
  router.patch("/api/tenants/:id", route(app, { auth: { policy: "tenant.manage" }, params: TenantParams, body: TenantBody }, async ({ principal, params, body }) => {
    return { body: { data: await renameTenant(db, principal, params.id, body.name), meta: {} } };
  }));
  return router;
}
export {
  TenantBody,
  tenantRoutes
};
