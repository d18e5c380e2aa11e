import Router from '@koa/router';
import type { AppContext } from '../context.js';
import { DEPLOYMENT_SOURCES } from '../db/schema/index.js';
import { listEnvelope, Paging, route, type ApiRouter } from '../http/route.js';
import { presentDeploymentSource } from './presenters.js';
import { requestBackfill, requestPatternBackfills, resumeStalledBackfills } from '../codehost/backfill.js';
import { getDeploymentSource, getOrganisationPattern, listDeploymentSources, setDeploymentSource, setOrganisationPattern } from './service.js';
import { DeploymentSourceBody, OrganisationPatternBody, ProjectParams } from './schemas.js';

export function deploymentSourceRoutes(app: AppContext) {
  const router: ApiRouter = new Router();
  const { db } = app.database;
  const meta = { sources: [...DEPLOYMENT_SOURCES] };

  router.get('/api/deployment-sources', route(app, { auth: 'required', query: Paging }, async ({ principal, query }) => {
    // A backfill whose worker died goes on now, not after its job expires (its state then reads running).
    await resumeStalledBackfills(app, principal.tenantId);
    const { rows, total } = await listDeploymentSources(db, principal.tenantId, query);
    const list = listEnvelope(rows.map(presentDeploymentSource), query, total);
    return { body: { ...list, meta: { ...list.meta, ...meta } } };
  }));

  // Before the project routes: `organisation` is not a project id.
  router.get('/api/deployment-sources/organisation', route(app, { auth: 'required' }, async ({ principal }) => {
    return { body: { data: { pattern: await getOrganisationPattern(db, principal.tenantId) }, meta } };
  }));

  router.put('/api/deployment-sources/organisation', route(app, { auth: { policy: 'deploymentSource.manage' }, body: OrganisationPatternBody }, async ({ principal, body }) => {
    const pattern = body.pattern && { workflow: body.pattern.workflow, branch: body.pattern.branch ?? null };
    const saved = await setOrganisationPattern(db, principal, pattern);
    // The projects the pattern applies to read their runs of the last 90 days (docs/codehost-deployments-backfill.md "Backfill").
    if (saved) await requestPatternBackfills(app, principal.tenantId);
    return { body: { data: { pattern: saved }, meta } };
  }));

  router.get('/api/deployment-sources/:projectId', route(app, { auth: 'required', params: ProjectParams }, async ({ principal, params }) => {
    await resumeStalledBackfills(app, principal.tenantId);
    return { body: { data: presentDeploymentSource(await getDeploymentSource(db, principal.tenantId, params.projectId)), meta } };
  }));

  router.put('/api/deployment-sources/:projectId', route(app, { auth: { policy: 'deploymentSource.manage' }, params: ProjectParams, body: DeploymentSourceBody }, async ({ principal, params, body }) => {
    const row = await setDeploymentSource(db, principal, params.projectId, body);
    // The code host's records of the last 90 days, read once the project takes them (docs/codehost-deployments-backfill.md "Backfill").
    if (row.source !== null && row.source !== 'webhook') await requestBackfill(app, { tenantId: principal.tenantId, projectId: row.projectId });
    return { body: { data: presentDeploymentSource(row), meta } };
  }));

  return router;
}
