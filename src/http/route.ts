/**
 * Declarative routes: a route names its authentication, rate limit and zod schemas; the handler
 * receives validated input and the principal, calls one service, and returns what to send.
 */
import type Koa from 'koa';
import type Router from '@koa/router';
import contentDisposition from 'content-disposition';
import { z } from 'zod';
import type { Principal, TenantPrincipal } from '../auth/principal.js';
import { authorize, type TenantAction } from '../auth/policies.js';
import type { AppContext } from '../context.js';
import { AppError, zodDetails } from '../errors.js';
import { checkJsonValue } from '../shared/limits.js';
import { readBody, type BodyKind, type BodyOf } from './body.js';
import { issueMessage } from './issueMessages.js';
import { consume, headersOf, LIMITS, type Limit } from './rateLimit.js';
import { asSystem, withTenant, type SystemReason } from '../db/tenancy.js';

/**
 * Who must be signed in: nobody (`none`, `optional`), a tenant's user (`required`), the global
 * administrator (`admin`), or a tenant's user whom a rule of the policy table allows (`{ policy }`).
 * A route never writes a role rule of its own: `{ policy }` runs the rule its service also checks,
 * so the API answers 403 before it reads the body (docs/authorization.md).
 */
export type AuthRule = 'none' | 'optional' | 'required' | 'admin' | { policy: TenantAction };

type PrincipalFor<A extends AuthRule> = A extends 'required' | { policy: TenantAction } ? TenantPrincipal : A extends 'admin' ? Principal : Principal | null;
type Infer<S> = S extends z.ZodType ? z.infer<S> : undefined;
/** A body with a schema is what the schema parses; without one, what its kind reads (text, form, bytes). */
type BodyInput<B, K> = B extends z.ZodType ? z.infer<B> : K extends BodyKind ? BodyOf[K] : undefined;

export interface RouteSpec<A extends AuthRule, Q, B, P, K extends BodyKind | undefined = undefined> {
  auth: A;
  /** Only `Authorization: Bearer gai_…` is accepted (no cookie): the webhook and export APIs. */
  apiKeyOnly?: boolean;
  /** Default: `general` (per principal, or per address when anonymous). */
  limit?: 'general' | 'none';
  query?: Q;
  params?: P;
  body?: B;
  bodyKind?: K;
  /** Bytes; default 1 MiB. */
  bodyLimit?: number;
  /**
   * The handler's work spans tenants by design (signing in, a personal token link, an inbound
   * vendor call): it runs as system work for this reason, whatever the principal (docs/tenancy.md).
   */
  system?: SystemReason;
  /**
   * A change that stays open while the tenant is read-only for billing (docs/billing.md): a read
   * sent as a POST (the Cube API), ingest (no data may be lost), the caller's own account, and
   * revoking a credential. Every other change of a tenant's principal is checked once, here.
   */
  whenReadOnly?: 'allowed';
}

export interface RouteResult {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
  type?: string;
}

/** A file to download (`download()`): part of the route's typed answer only as JSON text (`jsonText`). */
export interface FileResult<B = unknown> extends RouteResult {
  file: true;
  body: B;
}

declare const JSON_OF: unique symbol;
/** JSON text typed by the value it encodes: a downloaded JSON document keeps its type for the client. */
export type JsonText<T> = string & { readonly [JSON_OF]: T };
export const jsonText = <T>(value: T): JsonText<T> => JSON.stringify(value) as JsonText<T>;
type JsonOf<B> = B extends JsonText<infer T> ? T : never;

/** What a route's handler answers, as the client reads it: the body, or undefined (204, a redirect). */
type Answer<R> = R extends FileResult<infer B> ? JsonOf<B> : R extends { body: infer B } ? B : undefined;
/** What a client sends: the schemas' input types (before defaults and transforms). */
type Sent<S> = S extends z.ZodType ? z.input<S> : undefined;
type SentBody<B, K> = B extends z.ZodType ? z.input<B> : K extends BodyKind ? RawBody<K> : undefined;
/** A body read as its kind says (text, a form, bytes), not as JSON: the client sends it as it is. */
export interface RawBody<K extends BodyKind> {
  readonly kind: K;
}

/**
 * The types of one route: what the client sends (query, body) and what it answers (the handler's
 * body, as built by its presenters). Type-only: the table of them is `Routes` (src/app.ts).
 */
export interface RouteTypes {
  query: unknown;
  body: unknown;
  response: unknown;
}

/** The route's spec, kept on its middleware for the runtime table (the OpenAPI document). */
export const ROUTE_SPEC = Symbol('routeSpec');
declare const TYPES: unique symbol;
export type RouteMiddleware<T extends RouteTypes> = Koa.Middleware & { readonly [ROUTE_SPEC]: AnyRouteSpec; readonly [TYPES]?: T };
export type AnyRouteSpec = RouteSpec<AuthRule, z.ZodType | undefined, z.ZodType | undefined, z.ZodType | undefined, BodyKind | undefined>;

export interface RouteInput<A extends AuthRule, Q, B, P, K extends BodyKind | undefined = undefined> {
  ctx: Koa.Context;
  principal: PrincipalFor<A>;
  query: Infer<Q>;
  body: BodyInput<B, K>;
  params: Infer<P>;
}

export const DEFAULT_BODY_LIMIT = 1024 * 1024;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function parse<S extends z.ZodType | undefined>(schema: S, value: unknown, where: 'query' | 'params' | 'body'): Infer<S> {
  if (!schema) return undefined as Infer<S>;
  // Bodies are checked as they are read (body.ts); query strings and path segments here.
  if (where !== 'body') {
    const details = checkJsonValue(value, 2, where);
    if (details.length > 0) throw new AppError('validation_failed', 'Validation failed', details);
  }
  const result = schema.safeParse(value, { error: issueMessage });
  if (!result.success) {
    throw new AppError('validation_failed', 'Validation failed', zodDetails(result.error, where === 'body' ? undefined : where, value));
  }
  return result.data as Infer<S>;
}

function limitsFor(spec: { limit?: string }, principal: Principal | null): { key: string; limits: Limit[] } | null {
  if (spec.limit === 'none') return null;
  if (!principal) return null;
  const key = principal.kind === 'admin' ? 'admin' : principal.kind === 'api_key' ? `key:${principal.apiKeyId}` : `user:${principal.tenantId}:${principal.userId}`;
  return { key, limits: [LIMITS.general] };
}

/** Runs a handler's work in the scope its route and principal give it (docs/tenancy.md). */
function inScopeOf<T>(spec: { system?: SystemReason }, principal: Principal | null, work: () => Promise<T>): Promise<T> {
  if (spec.system) return asSystem(spec.system, work);
  if (principal?.tenantId) return withTenant(principal.tenantId, work);
  if (principal?.kind === 'admin') return asSystem('operator', work);
  return work();
}

export function route<
  A extends AuthRule,
  Q extends z.ZodType | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
  P extends z.ZodType | undefined = undefined,
  K extends BodyKind | undefined = undefined,
  R extends RouteResult | void = RouteResult | void,
>(
  app: AppContext,
  spec: RouteSpec<A, Q, B, P, K>,
  handler: (input: RouteInput<A, Q, B, P, K>) => Promise<R> | R,
): RouteMiddleware<{ query: Sent<Q>; body: SentBody<B, K>; response: Answer<R> }> {
  const middleware: Koa.Middleware = async (ctx) => {
    let principal: Principal | null = null;
    if (spec.auth !== 'none') {
      const hasBearer = ctx.get('authorization') !== '';
      principal = spec.apiKeyOnly && !hasBearer ? null : await app.requestHooks.authenticate(app, ctx.req, ctx.res);
      if (spec.apiKeyOnly && principal && principal.kind !== 'api_key') principal = null;
    }

    const limited = limitsFor(spec, principal) ?? (spec.limit === 'none' ? null : { key: `ip:${ctx.ip}`, limits: [LIMITS.anonymous] });
    if (limited) {
      // In the scope the handler's work will have: a connection the pool hands back keeps its
      // role and tenant, so the handler's first statement pays no switch (src/db/client.ts).
      const state = await inScopeOf(spec, principal, () => consume(app, limited.key, limited.limits));
      ctx.set(headersOf(state));
    }

    const tenantUser = spec.auth === 'required' || typeof spec.auth === 'object';
    if (tenantUser || spec.auth === 'admin') {
      if (!principal) throw new AppError('unauthorized', 'Missing or invalid credentials');
    }
    if (tenantUser && principal?.kind === 'admin') {
      throw new AppError('forbidden', 'The global administrator has no tenant; use an account of the tenant');
    }
    if (typeof spec.auth === 'object') authorize(principal as TenantPrincipal, spec.auth.policy);
    if (spec.auth === 'admin' && principal?.kind !== 'admin') throw new AppError('forbidden', 'Only the global administrator can do this');
    // A cookie-authenticated change from another origin was refused before routing (auth/csrf.ts).
    // A lapsed subscription makes the tenant's own changes read-only; system routes are not the tenant's.
    if (principal?.tenantId && !spec.system && !spec.whenReadOnly && !SAFE_METHODS.has(ctx.method) && app.config.billing) {
      const tenantId = principal.tenantId;
      await withTenant(tenantId, () => app.requestHooks.assertWritable(app, tenantId));
    }

    const params = parse(spec.params as P, ctx.params, 'params');
    const query = parse(spec.query as Q, ctx.query, 'query');
    let body = undefined as BodyInput<B, K>;
    if (spec.body || spec.bodyKind) {
      const raw = await readBody(ctx, spec.bodyKind ?? 'json', spec.bodyLimit ?? DEFAULT_BODY_LIMIT);
      body = (spec.body ? parse(spec.body, raw, 'body') : raw) as BodyInput<B, K>;
    }

    // The handler's database work is the principal's tenant's, and nobody else's (docs/tenancy.md);
    // the global administrator has no tenant, so its routes are operator work by definition.
    const work = () => Promise.resolve(handler({ ctx, principal: principal as PrincipalFor<A>, query, body, params }));
    const result = await inScopeOf(spec, principal, work);
    if (!result) return;
    if (result.headers) ctx.set(result.headers);
    if (result.type) ctx.type = result.type;
    ctx.status = result.status ?? 200;
    if (result.body !== undefined) ctx.body = result.body;
  };
  return Object.assign(middleware, { [ROUTE_SPEC]: spec as AnyRouteSpec });
}

/** `:name` segments of a path, as the object `api()` fills them from. */
type PathParams<P extends string> = P extends `${string}:${infer Name}/${infer Rest}` ? Name | PathParams<`/${Rest}`> : P extends `${string}:${infer Name}` ? Name : never;
/** No entry (a plain middleware, a router without the table's type): the identity of `&`, not `unknown`, which would swallow a union. */
type NoRoutes = Record<never, never>;
type Entry<M extends string, P extends string, W> =
  W extends RouteMiddleware<infer T> ? { [K in `${M} ${P}`]: T & { params: { [N in PathParams<P>]: string } } } : NoRoutes;

declare const TABLE: unique symbol;
/** A router's route table, type-only: `'GET /api/users/me'` → {params, query, body, response}. */
export interface HasRoutes<T> {
  readonly [TABLE]: T;
}

/**
 * A router whose registrations add up to its route table's type. Each `router.get(path, route(…))`
 * narrows the router's type (an assertion signature), so the statements stay as they are and the
 * factory's inferred return type carries the table; `Routes` in src/app.ts joins them. A route
 * registered in a loop or under a condition is not narrowed: write it out, or register the loop's
 * routes on a router of their own (a function of the loop's variable) and mount it. Declare it with its
 * type (`const router: ApiRouter = new Router()`) and leave the factory's return type inferred.
 */
interface TypedMethods {
  get<P extends string, W extends Koa.Middleware>(path: P, ...middleware: [...Koa.Middleware[], W]): asserts this is HasRoutes<Entry<'GET', P, W>>;
  post<P extends string, W extends Koa.Middleware>(path: P, ...middleware: [...Koa.Middleware[], W]): asserts this is HasRoutes<Entry<'POST', P, W>>;
  put<P extends string, W extends Koa.Middleware>(path: P, ...middleware: [...Koa.Middleware[], W]): asserts this is HasRoutes<Entry<'PUT', P, W>>;
  patch<P extends string, W extends Koa.Middleware>(path: P, ...middleware: [...Koa.Middleware[], W]): asserts this is HasRoutes<Entry<'PATCH', P, W>>;
  delete<P extends string, W extends Koa.Middleware>(path: P, ...middleware: [...Koa.Middleware[], W]): asserts this is HasRoutes<Entry<'DELETE', P, W>>;
}
/** Koa's router (`Router` has an index signature, so its other members are named, not omitted). */
export interface ApiRouter extends Pick<Router, 'use' | 'all' | 'options' | 'routes' | 'allowedMethods' | 'stack' | 'middleware'>, TypedMethods {}

/**
 * A factory's early return, nothing registered (a feature that is off), typed apart from the
 * router: a factory's inferred return type is the subtype-reduced union of its returns, so a bare
 * `return router` would swallow the table the later registrations assert.
 */
export function withoutRoutes(router: ApiRouter): ApiRouter & { readonly off: true } {
  return router as ApiRouter & { readonly off: true };
}

type Joined<U> = (U extends unknown ? (table: U) => void : never) extends (table: infer I) => void ? I : never;
/** The table of a router (or a union of them): the entries its registrations asserted. */
export type TableOf<R> = Joined<R extends HasRoutes<infer T> ? T : NoRoutes>;

/** Paging of general-API lists: `page` from 1 (default 1), `perPage` 1–100 (default 25). */
export const Paging = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  perPage: z.coerce.number().int().min(1).max(100).default(25),
});
export type Paging = z.infer<typeof Paging>;

export function listEnvelope<T>(data: T[], paging: Paging, total: number) {
  return { data, meta: { page: paging.page, perPage: paging.perPage, total } };
}

/**
 * A file to download (exports, link lists): never cached, since it carries tenant data. The file
 * name can hold request text (a team key), so the header is built by RFC 6266/5987 rules (quotes
 * escaped, anything outside Latin-1 or a control character only in `filename*`, percent-encoded),
 * never by interpolation.
 */
export function download<B>(file: { contentType: string; filename: string; body: B }): FileResult<B> {
  return {
    file: true,
    type: file.contentType,
    headers: { 'Content-Disposition': contentDisposition(file.filename), 'Cache-Control': 'no-store' },
    body: file.body,
  };
}
