import Router from "@koa/router";
import { z } from "zod";
import { presentFeatures, presentMe } from "./presenters.js";
import { getMe, updateMe } from "./service.js";
import { route } from "../http/route.js";
import { Uuid } from "../shared/schemas.js";
const UpdateMeBody = z.strictObject({
  displayName: z.string().trim().max(100).transform((v) => v === "" ? null : v).nullable().optional(),
  activeTenantId: Uuid.optional()
}).refine((b) => b.displayName !== void 0 || b.activeTenantId !== void 0, { message: "Nothing to update: send displayName or activeTenantId" });
function userRoutes(app) {
  const router = new Router();
  const { db } = app.database;
  router.get("/api/users/me", route(app, { auth: "required" }, async ({ principal }) => {
    return { body: { data: presentMe(await getMe(db, principal)), meta: { features: presentFeatures(app.config) } } };
  }));
  router.patch("/api/users/me", route(app, { auth: "required", body: UpdateMeBody, whenReadOnly: "allowed" }, async ({ principal, body }) => {
    return { body: { data: presentMe(await updateMe(db, principal, body)), meta: {} } };
  }));
  return router;
}
export {
  UpdateMeBody,
  userRoutes
};
