import Router from '@koa/router';
import { reviewFailures, sessionListExtras } from './reviewState.js';
import type { AppContext } from '../context.js';
import { presentAssessment, presentCreatedSession, presentSession, presentSessionDetails, presentSessionMetrics, presentSummary } from './presenters.js';
import { upsertSessionByExternalId } from './upsert.js';
import { captureScript } from './captureScript.js';
import { createSession, deleteSession, findSession, listSessions, readTranscript, rerunSessionReview, sessionLinks, sessionMetrics, sessionReview } from './service.js';
import { listEnvelope, route, type ApiRouter } from '../http/route.js';
import { allowedOn } from '../auth/policies.js';
import { CaptureBody, DetailQuery, ExternalIdParams, ListQuery, SESSION_BODY_LIMIT, SessionBody, SessionParams } from './schemas.js';

const SESSION_ACTIONS = ['session.readTranscript', 'session.delete'] as const;

export function sessionRoutes(app: AppContext) {
  const router: ApiRouter = new Router();
  const { db } = app.database;

  router.post('/api/sessions', route(app, { auth: 'required', body: SessionBody, bodyLimit: SESSION_BODY_LIMIT, whenReadOnly: 'allowed' }, async ({ principal, body }) => {
    const { session, transcript } = await createSession(app, principal, body);
    return { status: 201, body: { data: presentCreatedSession(session, transcript), meta: {} } };
  }));

  // The capture hook's idempotent upsert (docs/api.md "Sessions"): 201 when new, 200 when it replaced the caller's own.
  router.put('/api/sessions/by-external-id/:externalId', route(app, { auth: 'required', params: ExternalIdParams, body: CaptureBody, bodyLimit: SESSION_BODY_LIMIT, whenReadOnly: 'allowed' }, async ({ principal, params, body }) => {
    const { session, transcript, created } = await upsertSessionByExternalId(app, principal, params.externalId, body);
    return { status: created ? 201 : 200, body: { data: presentCreatedSession(session, transcript), meta: {} } };
  }));

  // The capture hook as one file for `node` (docs/ai-capture.md); public, like the program it is.
  router.get('/capture.mjs', route(app, { auth: 'none' }, async () => ({
    type: 'text/javascript; charset=utf-8',
    headers: { 'Cache-Control': 'no-cache' },
    body: await captureScript(),
  })));

  router.get('/api/sessions', route(app, { auth: 'required', query: ListQuery }, async ({ principal, query }) => {
    const { rows, total } = await listSessions(db, principal, query, query);
    const extras = await sessionListExtras(app, principal.tenantId, rows);
    return { body: listEnvelope(rows.map((row) => ({ ...presentSession(row), ...extras(row) })), query, total) };
  }));

  router.get('/api/sessions/:id', route(app, { auth: 'required', params: SessionParams, query: DetailQuery }, async ({ principal, params, query }) => {
    const session = await findSession(db, principal, params.id);
    const transcript = query.include === 'transcript' ? await readTranscript(app, principal, session) : undefined;
    const [{ summary, assessment }, failures] = await Promise.all([sessionReview(app, principal.tenantId, session.id), reviewFailures(app, principal.tenantId, [session.id])]);
    const details = presentSessionDetails(session, await sessionLinks(db, session), transcript);
    const failed = failures.get(session.id) ?? {};
    const reviewFailed = { summary: failed.summary ?? null, assessment: failed.assessment ?? null };
    // What the caller may do with this session (read its transcript and re-run its review, delete it).
    const actions = allowedOn(principal, SESSION_ACTIONS, session);
    return { body: { data: { ...details, summary: presentSummary(summary), assessment: presentAssessment(assessment), reviewFailed, actions }, meta: {} } };
  }));

  // Re-run on demand: the uploader or an owner (those who may read the transcript it is made from).
  const rerun = (kind: 'summary' | 'assessment') => route(app, { auth: 'required', params: SessionParams }, async ({ principal, params }) => {
    const jobId = await rerunSessionReview(app, principal, kind, params.id);
    return { status: 202, body: { data: { sessionId: params.id, kind, jobId }, meta: {} } };
  });
  router.post('/api/sessions/:id/summary', rerun('summary'));
  router.post('/api/sessions/:id/assessment', rerun('assessment'));

  router.get('/api/sessions/:id/metrics', route(app, { auth: 'required', params: SessionParams }, async ({ principal, params }) => {
    const { session, metrics, links } = await sessionMetrics(db, principal, params.id);
    return { body: { data: presentSessionMetrics(session, metrics, links), meta: {} } };
  }));

  router.delete('/api/sessions/:id', route(app, { auth: 'required', params: SessionParams, whenReadOnly: 'allowed' }, async ({ principal, params }) => {
    const deleted = await deleteSession(app, principal, params.id);
    return { body: { data: { id: deleted.id, deleted: true, transcriptDeleted: deleted.transcriptKey !== null }, meta: {} } };
  }));

  return router;
}
