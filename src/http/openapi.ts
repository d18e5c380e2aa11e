/**
 * The route table at run time, read from the routers (each `route()` keeps its spec on its
 * middleware), and the general API's OpenAPI 3.1 document generated from it: the same table whose
 * types the web app's `api()` is checked against (`Routes`, src/app.ts). Request schemas are the
 * zod schemas that validate, as JSON Schema 2020-12 (`z.toJSONSchema`, input types); answers are
 * described, their schema given where a route declares one (docs/api.md "OpenAPI").
 */
import { z } from 'zod';
import { ROUTE_SPEC, type AnyRouteSpec } from './route.js';

export interface TableRoute {
  method: string;
  path: string;
  spec: AnyRouteSpec;
}

interface RouterLike {
  stack: { path: string | RegExp; methods: string[]; stack: unknown[] }[];
}

/** Every `route()` registered on the routers, in mount order (HEAD, answered by GET, left out). */
export function routeTable(routers: RouterLike[]): TableRoute[] {
  const table: TableRoute[] = [];
  for (const router of routers) {
    for (const layer of router.stack) {
      const handler = layer.stack[layer.stack.length - 1] as { [ROUTE_SPEC]?: AnyRouteSpec } | undefined;
      const spec = handler?.[ROUTE_SPEC];
      if (!spec || typeof layer.path !== 'string') continue;
      for (const method of layer.methods) if (method !== 'HEAD') table.push({ method, path: layer.path, spec });
    }
  }
  return table;
}

type Json = Record<string, unknown>;

/** A schema as JSON Schema; schemas registered with an id become components (refs into the document). */
function jsonSchema(schema: z.ZodType, components: Json): Json {
  const generated = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any', cycles: 'ref' });
  // A schema's own definitions become the document's components, and its references follow them.
  const { $schema: _schema, $defs, ...rest } = JSON.parse(JSON.stringify(generated).replaceAll('"#/$defs/', '"#/components/schemas/')) as Json;
  for (const [id, def] of Object.entries(($defs ?? {}) as Record<string, Json>)) components[id] ??= def;
  return rest;
}

const ERROR = { $ref: '#/components/schemas/Error' };
const errorResponse = (description: string) => ({ description, content: { 'application/json': { schema: ERROR } } });
const BODY_TYPES: Record<string, string> = { json: 'application/json', text: 'text/plain', form: 'application/x-www-form-urlencoded', raw: 'application/octet-stream' };

function security(spec: AnyRouteSpec): Json[] | undefined {
  if (spec.auth === 'none') return [];
  if (spec.auth === 'optional') return [{}, { apiKey: [] }, { session: [] }];
  if (spec.auth === 'admin') return [{ adminSecret: [] }];
  return spec.apiKeyOnly ? [{ apiKey: [] }] : [{ apiKey: [] }, { session: [] }];
}

function parameters(where: 'path' | 'query', schema: z.ZodType | undefined, path: string, components: Json): Json[] {
  if (where === 'path') {
    const names = [...path.matchAll(/:(\w+)/g)].map((m) => m[1] as string);
    const properties = (schema ? (jsonSchema(schema, components).properties as Record<string, Json> | undefined) : undefined) ?? {};
    return names.map((name) => ({ name, in: 'path', required: true, schema: properties[name] ?? { type: 'string' } }));
  }
  if (!schema) return [];
  const object = jsonSchema(schema, components);
  const required = new Set((object.required as string[] | undefined) ?? []);
  return Object.entries((object.properties ?? {}) as Record<string, Json>).map(([name, property]) => ({ name, in: 'query', required: required.has(name), schema: property }));
}

function operation(route: TableRoute, components: Json): Json {
  const { spec } = route;
  const op: Json = { operationId: `${route.method} ${route.path}`, security: security(spec) };
  if (typeof spec.auth === 'object') op['x-policy'] = spec.auth.policy;
  const params = [...parameters('path', spec.params, route.path, components), ...parameters('query', spec.query, route.path, components)];
  if (params.length > 0) op.parameters = params;
  if (spec.body || spec.bodyKind) {
    const type = BODY_TYPES[spec.bodyKind ?? 'json'] ?? 'application/json';
    op.requestBody = { required: true, content: { [type]: { schema: spec.body ? jsonSchema(spec.body, components) : {} } } };
  }
  const responses: Json = { '2XX': { description: 'Success: the general envelope `{data, meta}` (lists: meta `{page, perPage, total}`), a file, or no content' } };
  if (spec.query || spec.params || spec.body || spec.bodyKind) responses['400'] = errorResponse('Validation failed: `details` lists every problem');
  if (spec.auth !== 'none' && spec.auth !== 'optional') responses['401'] = errorResponse('Missing or invalid credentials');
  if (typeof spec.auth === 'object' || spec.auth === 'admin' || spec.auth === 'required') responses['403'] = errorResponse('Valid credentials without the right (or the tenant is read-only)');
  if (spec.limit !== 'none') responses['429'] = errorResponse('Rate limited: see `Retry-After`');
  op.responses = responses;
  return op;
}

/** The general API's routes of the table: `/api/…`, test hooks left out. */
export function generalApiRoutes(table: TableRoute[]): TableRoute[] {
  return table.filter((r) => r.path.startsWith('/api/') && !r.path.startsWith('/api/test/'));
}

/**
 * The OpenAPI 3.1 document of the general API, joined with a document of other operations (the
 * webhook API's, written by hand from its schemas: src/webhooks/openapi.ts), whose paths win.
 */
export function openApiDocument(table: TableRoute[], base: { paths: Record<string, Json>; components: { schemas: Json; securitySchemes: Json } } & Json): Json {
  const components: Json = { ...base.components.schemas };
  const paths: Record<string, Json> = {};
  for (const route of generalApiRoutes(table)) {
    const path = route.path.replace(/:(\w+)/g, '{$1}');
    const item = (paths[path] ??= {});
    item[route.method.toLowerCase()] = operation(route, components);
  }
  components.Error = {
    type: 'object',
    required: ['error'],
    properties: {
      error: {
        type: 'object',
        required: ['code', 'message'],
        properties: { code: { type: 'string' }, message: { type: 'string' }, details: { type: 'array', items: { type: 'object', properties: { path: { type: 'string' }, message: { type: 'string' } } } } },
      },
    },
  };
  return {
    ...base,
    paths: { ...paths, ...base.paths },
    components: {
      securitySchemes: {
        ...base.components.securitySchemes,
        session: { type: 'apiKey', in: 'cookie', name: 'sessionId', description: "The web app's session (changes also need the X-CSRF-Token header)" },
        adminSecret: { type: 'apiKey', in: 'header', name: 'X-Admin-Secret', description: 'The global administrator (ADMIN_SECRET)' },
      },
      schemas: components,
    },
  };
}
