import Router from "@koa/router";
import { z } from "zod";
import { checkFormToken, checkOrigin, CSRF_FIELD, issueCsrfToken } from "../auth/csrf.js";
import { can } from "../auth/policies.js";
import { presentCodehostStatus, presentInstallation } from "./presenters.js";
import { renderSetupPage } from "./setupPage.js";
import { codehostUrls, linkInstallation, listInstallations, previewSetup, requireCodehostApp, unlinkInstallation } from "./installations.js";
import { receiveCodehostWebhook } from "./webhook.js";
import { AppError } from "../errors.js";
import { sendPage } from "../http/html.js";
import { route, zodDetails } from "../http/route.js";
const WEBHOOK_BODY_LIMIT = 25 * 1024 * 1024;
const InstallationId = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const LinkBody = z.strictObject({ installationId: InstallationId });
const InstallationParams = z.object({ installationId: InstallationId });
const SetupQuery = z.object({ installation_id: InstallationId, setup_action: z.string().max(50).optional() });
const SetupForm = z.object({ installation_id: InstallationId });
const SETUP_PATH = "/api/integrations/codehost/setup";
const SETUP_FORM_LIMIT = 4 * 1024;
function setupOwner(principal) {
  if (principal.kind === "admin") throw new AppError("forbidden", "The global administrator has no tenant; use an account of the tenant");
  if (!can(principal, "codehost.link")) throw new AppError("forbidden", "Only an owner of the tenant can link a code-host installation");
  return principal;
}
function codehostRoutes(app) {
  const router = new Router();
  const { db } = app.database;
  const linkedUrl = (installationId) => `${app.config.appUrl}/app/settings/integrations?codehost=linked&installation=${installationId}`;
  router.post("/api/integrations/codehost/webhook", route(app, { auth: "none", system: "inbound-routing", limit: "none", bodyKind: "raw", bodyLimit: WEBHOOK_BODY_LIMIT }, async ({ ctx, body }) => {
    const deliveryId = ctx.get("x-github-delivery");
    const event = ctx.get("x-github-event");
    const outcome = await receiveCodehostWebhook(app, { event, deliveryId, signature: ctx.get("x-hub-signature-256"), body });
    const { status, ...rest } = outcome;
    return { status, body: { data: { delivery: deliveryId, event, ...rest }, meta: {} } };
  }));
  router.get("/api/integrations/codehost", route(app, { auth: "required" }, async ({ principal }) => {
    const codehost = app.config.codehostApp;
    const installations = codehost ? await listInstallations(db, principal) : [];
    return { body: { data: presentCodehostStatus(codehost, codehostUrls(app), installations), meta: {} } };
  }));
  router.post("/api/integrations/codehost/installations", route(app, { auth: { policy: "codehost.link" }, body: LinkBody }, async ({ principal, body }) => {
    requireCodehostApp(app);
    const { row, created } = await linkInstallation(db, principal, body.installationId);
    return { status: created ? 201 : 200, body: { data: presentInstallation(row), meta: {} } };
  }));
  router.delete("/api/integrations/codehost/installations/:installationId", route(app, { auth: { policy: "codehost.link" }, params: InstallationParams, whenReadOnly: "allowed" }, async ({ principal, params }) => {
    requireCodehostApp(app);
    return { body: { data: presentInstallation(await unlinkInstallation(db, principal, params.installationId)), meta: {} } };
  }));
  router.get(SETUP_PATH, route(app, { auth: "optional", query: SetupQuery }, async ({ ctx, principal, query }) => {
    requireCodehostApp(app);
    if (!principal) {
      const returnUrl = ctx.originalUrl;
      return { status: 302, headers: { location: `${app.config.appUrl}/login?returnUrl=${encodeURIComponent(returnUrl)}` } };
    }
    const owner = setupOwner(principal);
    const preview = await previewSetup(db, owner, query.installation_id);
    sendPage(ctx, preview.state === "unknown" ? 404 : 200, renderSetupPage({
      preview,
      action: SETUP_PATH,
      csrfToken: issueCsrfToken(ctx, app.config.production),
      continueUrl: linkedUrl(query.installation_id)
    }));
  }));
  router.post(SETUP_PATH, route(app, { auth: "optional", bodyKind: "form", bodyLimit: SETUP_FORM_LIMIT }, async ({ ctx, principal, body }) => {
    requireCodehostApp(app);
    if (!principal) throw new AppError("unauthorized", "Missing or invalid credentials");
    const owner = setupOwner(principal);
    checkOrigin(ctx, app.config.appUrl);
    const form = body;
    checkFormToken(ctx, form[CSRF_FIELD]);
    const parsed = SetupForm.safeParse(form);
    if (!parsed.success) throw new AppError("validation_failed", "Validation failed", zodDetails(parsed.error, void 0, form));
    await linkInstallation(db, owner, parsed.data.installation_id);
    return { status: 303, headers: { location: linkedUrl(parsed.data.installation_id) } };
  }));
  return router;
}
export {
  LinkBody,
  codehostRoutes
};
