/**
 * OTLP/HTTP intake of AI coding tools' telemetry: POST /api/otlp/v1/metrics and /api/otlp/v1/logs,
 * where an exporter configured with OTEL_EXPORTER_OTLP_ENDPOINT=<APP_URL>/api/otlp sends; bearer
 * API key only (OTEL_EXPORTER_OTLP_HEADERS=Authorization=Bearer gai_…). Answers and errors are
 * OTLP's own (an Export…ServiceResponse, or a google.rpc.Status), in the request's encoding.
 * GET /api/ai-telemetry/status shows what arrived.
 */
import Router from '@koa/router';
import type Koa from 'koa';
import type { AppContext } from '../context.js';
import { AppError } from '../errors.js';
import { readRawBody } from '../http/body.js';
import { toAppError } from '../http/errors.js';
import { route, type ApiRouter } from '../http/route.js';
import { decodeRequest, encodeResponse, encodeStatus, encodingOf, type Encoding, type Signal } from './otlp.js';
import { presentIntakeStatus } from './presenters.js';
import { OTLP_BODY_LIMIT, OTLP_INFLATED_LIMIT, OTLP_MAX_IN_FLIGHT, OTLP_RETRY_AFTER_SECONDS } from './schemas.js';
import { ingestLogs, ingestMetrics, intakeStatus } from './service.js';

const requestEncoding = (ctx: Koa.Context): Encoding => encodingOf(ctx.get('content-type')) ?? 'protobuf';

/**
 * The OTLP surface's error envelope: a google.rpc.Status in the request's encoding (protobuf when
 * it named neither), the status and headers (Retry-After) of the AppError code as everywhere.
 * Logged as the general error middleware logs (src/http/errors.ts).
 */
function otlpErrors(app: AppContext): Koa.Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (caught) {
      const error = toAppError(caught);
      if (error.code === 'internal') app.log.error({ err: caught, requestId: ctx.state.requestId, path: ctx.path }, 'unhandled error');
      const { body, type } = encodeStatus(requestEncoding(ctx), error.code, error.code === 'internal' ? 'Internal server error' : error.message);
      ctx.status = error.status;
      for (const [name, value] of Object.entries(error.headers ?? {})) ctx.set(name, value);
      ctx.type = type;
      ctx.body = body;
    }
  };
}

/** Load shedding per instance: beyond OTLP_MAX_IN_FLIGHT exports at once, 503 and retry. */
function admission(): Koa.Middleware {
  let inFlight = 0;
  return async (_ctx, next) => {
    if (inFlight >= OTLP_MAX_IN_FLIGHT) {
      throw new AppError('unavailable', 'The intake is busy; retry after the time given in Retry-After', undefined, { 'Retry-After': String(OTLP_RETRY_AFTER_SECONDS) });
    }
    inFlight += 1;
    try {
      await next();
    } finally {
      inFlight -= 1;
    }
  };
}

export function aiTelemetryRoutes(app: AppContext) {
  const router: ApiRouter = new Router();
  const admit = admission();
  const ingest = { metrics: ingestMetrics, logs: ingestLogs } as const;

  for (const signal of ['metrics', 'logs'] as const satisfies Signal[]) {
    // Ingest stays open while a tenant is read-only for billing: no data may be lost.
    router.post(`/api/otlp/v1/${signal}`, otlpErrors(app), admit, route(app, { auth: 'required', apiKeyOnly: true, limit: 'none', whenReadOnly: 'allowed' }, async ({ ctx, principal }) => {
      const encoding = encodingOf(ctx.get('content-type'));
      if (!encoding) throw new AppError('unsupported_media_type', 'Content-Type must be application/x-protobuf or application/json');
      const request = decodeRequest(signal, encoding, await readRawBody(ctx, OTLP_BODY_LIMIT, OTLP_INFLATED_LIMIT));
      const partial = signal === 'metrics'
        ? await ingest.metrics(app, principal, request as Parameters<typeof ingestMetrics>[2])
        : await ingest.logs(app, principal, request as Parameters<typeof ingestLogs>[2]);
      const { body, type } = encodeResponse(signal, encoding, partial);
      return { status: 200, body, type };
    }));
  }

  router.get('/api/ai-telemetry/status', route(app, { auth: 'required' }, async ({ principal }) => {
    return { body: { data: presentIntakeStatus(await intakeStatus(app, principal)), meta: {} } };
  }));

  return router;
}
