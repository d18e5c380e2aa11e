/** Test-only route, mounted only under TEST_HOOKS (see testHooks.ts); an empty router otherwise. */
import Router from '@koa/router';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { route, withoutRoutes, type ApiRouter } from '../http/route.js';

const LiveBody = z.object({ sentAt: z.number(), seq: z.number().int() });

export function testHookRoutes(app: AppContext) {
  const router: ApiRouter = new Router();
  if (!app.config.testHooks) return withoutRoutes(router);
  router.post('/api/test/live', route(app, { auth: 'required', limit: 'none', body: LiveBody }, async ({ principal, body }) => {
    await app.live.publish(principal.tenantId, { kind: 'test.ping', sentAt: body.sentAt, seq: body.seq });
    return { status: 202, body: { data: { published: true }, meta: {} } };
  }));
  return router;
}
