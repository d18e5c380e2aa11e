import Router from '@koa/router';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { presentInstallation } from '../../presenters/codehost.js';
import { codehostUrls, linkInstallation, listInstallations, requireCodehostApp, unlinkInstallation } from '../../services/codehostInstallations.js';
import { receiveCodehostWebhook } from '../../services/codehostWebhook.js';
import { AppError } from '../../errors.js';
import { route } from '../route.js';

/** The code host caps webhook payloads at 25 MB. */
const WEBHOOK_BODY_LIMIT = 25 * 1024 * 1024;

const InstallationId = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const LinkBody = z.strictObject({ installationId: InstallationId });
const InstallationParams = z.object({ installationId: InstallationId });
const SetupQuery = z.object({ installation_id: InstallationId, setup_action: z.string().max(50).optional() });

export function codehostRoutes(app: AppContext): Router {
  const router = new Router();
  const { db } = app.database;

  // Authenticated by its signature, not by a principal; unsigned floods are refused before any query.
  router.post('/api/integrations/codehost/webhook', route(app, { auth: 'none', limit: 'none', bodyKind: 'raw', bodyLimit: WEBHOOK_BODY_LIMIT }, async ({ ctx, body }) => {
    const deliveryId = ctx.get('x-github-delivery');
    const event = ctx.get('x-github-event');
    const outcome = await receiveCodehostWebhook(app, { event, deliveryId, signature: ctx.get('x-hub-signature-256'), body: body as unknown as Buffer });
    const { status, ...rest } = outcome;
    return { status, body: { data: { delivery: deliveryId, event, ...rest }, meta: {} } };
  }));

  router.get('/api/integrations/codehost', route(app, { auth: 'required' }, async ({ principal }) => {
    const codehost = app.config.codehostApp;
    const installations = codehost ? (await listInstallations(db, principal)).map(presentInstallation) : [];
    return {
      body: {
        data: { enabled: codehost !== null, webhooksAccepted: Boolean(codehost?.webhookSecret), appName: codehost?.name ?? null, ...codehostUrls(app), installations },
        meta: {},
      },
    };
  }));

  router.post('/api/integrations/codehost/installations', route(app, { auth: 'owner', body: LinkBody }, async ({ principal, body }) => {
    requireCodehostApp(app);
    const { row, created } = await linkInstallation(db, principal, body.installationId);
    return { status: created ? 201 : 200, body: { data: presentInstallation(row), meta: {} } };
  }));

  router.delete('/api/integrations/codehost/installations/:installationId', route(app, { auth: 'owner', params: InstallationParams }, async ({ principal, params }) => {
    requireCodehostApp(app);
    return { body: { data: presentInstallation(await unlinkInstallation(db, principal, params.installationId)), meta: {} } };
  }));

  // The application's setup URL: the code host sends the installer here after an install.
  router.get('/api/integrations/codehost/setup', route(app, { auth: 'optional', query: SetupQuery }, async ({ ctx, principal, query }) => {
    requireCodehostApp(app);
    if (!principal) {
      const returnUrl = ctx.originalUrl;
      return { status: 302, headers: { location: `${app.config.appUrl}/login?returnUrl=${encodeURIComponent(returnUrl)}` } };
    }
    if (principal.kind === 'admin') throw new AppError('forbidden', 'The global administrator has no tenant; use an account of the tenant');
    if (principal.role !== 'owner') throw new AppError('forbidden', 'Only an owner of the tenant can link a code-host installation');
    await linkInstallation(db, principal, query.installation_id);
    return { status: 302, headers: { location: `${app.config.appUrl}/settings/integrations?codehost=linked&installation=${query.installation_id}` } };
  }));

  return router;
}
