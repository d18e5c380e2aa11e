import Router from '@koa/router';
import type { AppContext } from '../context.js';
import { presentImport, presentImportRecord, presentPerson, presentTeam } from './presenters.js';
import { importRegister, listRegisterImports } from './registerImport.js';
import { enqueueRegisterImport, getRegisterImportJob } from './registerImportJobs.js';
import { importSeats } from './seats.js';
import { setManualIdentities } from './identities.js';
import { addManualMembership, removeManualMembership } from './memberships.js';
import { getPerson, getTeam, listPeople, listTeams, updateTeam } from './teams.js';
import { listEnvelope, Paging, route, type ApiRouter } from '../http/route.js';
import { IMPORT_BODY_LIMIT, ImportQuery, JobParams, MemberBody, MemberParams, PeopleQuery, PersonPatch, TeamParams, TeamPatch, TeamsQuery } from './schemas.js';

export function organisationRoutes(app: AppContext) {
  const router: ApiRouter = new Router();
  const { db } = app.database;
  // Open dashboards refetch after a synchronous import; the asynchronous one ends with job.finished.
  const announce = (tenantId: string, fact: string) =>
    app.live.publish(tenantId, { kind: 'data.changed', facts: [fact] }).catch((error: unknown) => app.log.warn({ err: error }, 'data.changed event not published'));

  router.post('/api/register/imports', route(app, { auth: { policy: 'register.import' }, query: ImportQuery, bodyKind: 'text', bodyLimit: IMPORT_BODY_LIMIT }, async ({ principal, query, body }) => {
    if (query.mode === 'async') {
      // Validated here in full, applied by the `register.import` workflow (docs/register.md).
      const jobId = await enqueueRegisterImport(app, principal, body);
      return { status: 202, body: { data: { jobId, status: 'queued' }, meta: {} } };
    }
    const result = await importRegister(db, principal, body);
    if (result.recorded) await announce(principal.tenantId, 'register');
    return { status: result.recorded ? 201 : 200, body: { data: presentImport(result), meta: {} } };
  }));

  router.get('/api/register/imports/jobs/:jobId', route(app, { auth: 'required', params: JobParams }, async ({ principal, params }) => {
    return { body: { data: await getRegisterImportJob(app, principal.tenantId, params.jobId), meta: {} } };
  }));

  router.get('/api/register/imports', route(app, { auth: 'required', query: Paging }, async ({ principal, query }) => {
    const { rows, total } = await listRegisterImports(db, principal.tenantId, query);
    return { body: listEnvelope(rows.map(presentImportRecord), query, total) };
  }));

  router.post('/api/seats/imports', route(app, { auth: { policy: 'seats.import' }, bodyKind: 'text', bodyLimit: IMPORT_BODY_LIMIT }, async ({ principal, body }) => {
    const result = await importSeats(db, principal, body);
    if (result.recorded) await announce(principal.tenantId, 'seats');
    return { status: result.recorded ? 201 : 200, body: { data: presentImport(result), meta: {} } };
  }));

  router.get('/api/teams', route(app, { auth: 'required', query: TeamsQuery }, async ({ principal, query }) => {
    const enabled = query.enabled === undefined ? undefined : query.enabled === 'true';
    const { rows, total } = await listTeams(db, principal.tenantId, query, { enabled });
    return { body: listEnvelope(rows.map(presentTeam), query, total) };
  }));

  router.get('/api/teams/:id', route(app, { auth: 'required', params: TeamParams }, async ({ principal, params }) => {
    return { body: { data: presentTeam(await getTeam(db, principal.tenantId, params.id)), meta: {} } };
  }));

  router.patch('/api/teams/:id', route(app, { auth: { policy: 'team.manage' }, params: TeamParams, body: TeamPatch }, async ({ principal, params, body }) => {
    return { body: { data: presentTeam(await updateTeam(db, principal, params.id, body)), meta: {} } };
  }));

  router.post('/api/teams/:id/members', route(app, { auth: { policy: 'team.manage' }, params: TeamParams, body: MemberBody }, async ({ principal, params, body }) => {
    const added = await addManualMembership(db, principal, params.id, body.personId);
    return { status: added ? 201 : 200, body: { data: presentTeam(await getTeam(db, principal.tenantId, params.id)), meta: {} } };
  }));

  router.delete('/api/teams/:id/members/:personId', route(app, { auth: { policy: 'team.manage' }, params: MemberParams }, async ({ principal, params }) => {
    await removeManualMembership(db, principal, params.id, params.personId);
    return { body: { data: presentTeam(await getTeam(db, principal.tenantId, params.id)), meta: {} } };
  }));

  router.get('/api/people', route(app, { auth: 'required', query: PeopleQuery }, async ({ principal, query }) => {
    const { rows, total } = await listPeople(db, principal.tenantId, query, { team: query.team, q: query.q });
    return { body: listEnvelope(rows.map(presentPerson), query, total) };
  }));

  router.get('/api/people/:id', route(app, { auth: 'required', params: TeamParams }, async ({ principal, params }) => {
    return { body: { data: presentPerson(await getPerson(db, principal.tenantId, params.id)), meta: {} } };
  }));

  /** Sets the person's manual identities (register ones are the register's). */
  router.patch('/api/people/:id', route(app, { auth: { policy: 'person.manage' }, params: TeamParams, body: PersonPatch }, async ({ principal, params, body }) => {
    await setManualIdentities(db, principal, params.id, body.identities);
    return { body: { data: presentPerson(await getPerson(db, principal.tenantId, params.id)), meta: {} } };
  }));

  return router;
}
