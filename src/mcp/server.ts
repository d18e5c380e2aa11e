/**
 * /mcp: a fresh, stateless MCP server per request over Streamable HTTP (any instance can serve
 * any request; there is no MCP session to share). The bearer is an OAuth access token issued for
 * this resource, or an API key (`gai_…`). Cookies are never accepted here.
 */
import Router from '@koa/router';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type Koa from 'koa';
import { API_KEY_PREFIX, principalFromApiKey } from '../apiKeys/principal.js';
import type { TenantPrincipal } from '../auth/principal.js';
import { asSystem, withTenant } from '../db/tenancy.js';
import type { AppContext } from '../context.js';
import { AppError } from '../errors.js';
import { readBody } from '../http/body.js';
import { consume, headersOf, LIMITS } from '../http/rateLimit.js';
import { MCP_PATH, MCP_SCOPE, mcpResource, resourceMetadataUrl } from '../oauth/constants.js';
import { principalFromProps, type OAuthProps } from '../oauth/grants.js';
import { providerFor } from '../oauth/provider.js';
import { PRODUCT } from '../version.js';
import { cubeAnalytics, type AnalyticsService } from './cubeAnalytics.js';
import { serverInstructions } from './instructions.js';
import { registerPrompts } from './prompts.js';
import { registerResources } from './resources.js';
import { registerTools } from './tools.js';

const BODY_LIMIT = 1024 * 1024;

/**
 * The server's JSON Schema validator (used for elicitation answers only) holds no request state:
 * one for the process. Made per server, its Ajv instance was a tenth of each /mcp request's CPU.
 */
const jsonSchemaValidator = new AjvJsonSchemaValidator();

function cors(ctx: Koa.Context): void {
  ctx.set('Access-Control-Allow-Origin', '*');
  ctx.set('Access-Control-Allow-Methods', 'GET, POST, DELETE, OPTIONS');
  ctx.set('Access-Control-Allow-Headers', 'Authorization, Content-Type, Accept, Mcp-Protocol-Version, Mcp-Session-Id, Last-Event-ID');
  ctx.set('Access-Control-Expose-Headers', 'WWW-Authenticate, Mcp-Session-Id, Mcp-Protocol-Version');
  ctx.set('Access-Control-Max-Age', '3600');
}

/**
 * The MCP transport's DNS-rebinding rule: a request that carries an `Origin` must come from
 * APP_URL's origin, else 403. The Host header is no help here (a rebound name sends its own host),
 * so unlike the cookie routes' check this allows nothing but APP_URL.
 */
function checkMcpOrigin(ctx: Koa.Context, appUrl: string): void {
  const origin = ctx.get('origin');
  if (origin !== '' && origin !== new URL(appUrl).origin) throw new AppError('forbidden', 'Origin not allowed');
}

/**
 * Refusals on /mcp (403, 401, 405, 429…) are JSON-RPC error responses, with the status and headers
 * (WWW-Authenticate, Retry-After) kept; the id is the refused request's when it is known (a rate
 * limit), else null, as in the transport's own errors.
 * Unexpected errors go on to the general error middleware (logged, 500).
 */
async function jsonRpcErrors(ctx: Koa.Context, body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } catch (error) {
    if (!(error instanceof AppError) || error.code === 'internal') throw error;
    ctx.status = error.status;
    for (const [name, value] of Object.entries(error.headers ?? {})) ctx.set(name, value);
    ctx.body = { jsonrpc: '2.0', error: { code: -32000, message: error.message }, id: (ctx.state as { rpcId?: unknown }).rpcId ?? null };
  }
}

type RpcId = string | number;

/**
 * The JSON-RPC requests in a POST body (messages with a method and an id). Notifications and
 * responses are not requests: they cost nothing against the rate limit.
 */
export function requestIds(body: unknown): RpcId[] {
  const messages = Array.isArray(body) ? body : [body];
  return messages.flatMap((m) => {
    if (typeof m !== 'object' || m === null || typeof (m as { method?: unknown }).method !== 'string') return [];
    const id = (m as { id?: unknown }).id;
    return typeof id === 'string' || typeof id === 'number' ? [id] : [];
  });
}

/**
 * The principal of a bearer on /mcp, or null. An access token must be unexpired, carry `mcp:read`,
 * be issued for exactly this resource, and its user must still be a member of its tenant.
 */
export async function mcpPrincipal(app: AppContext, authorization: string | undefined): Promise<TenantPrincipal | null> {
  const match = authorization ? /^Bearer\s+(\S+)$/i.exec(authorization) : null;
  if (!match) return null;
  const bearer = match[1] as string;
  if (bearer.startsWith(API_KEY_PREFIX)) return principalFromApiKey(app.database.db, bearer);
  if (bearer.length > 200) return null;
  const token = await providerFor(app).AccessToken.find(bearer);
  if (!token || token.isExpired) return null;
  if (token.aud !== mcpResource(app.config.appUrl) || !token.scopes.has(MCP_SCOPE)) return null;
  return principalFromProps(app.database.db, token.extra as Partial<OAuthProps> | undefined);
}

export function mcpRoutes(app: AppContext, service: AnalyticsService = cubeAnalytics(app.database.pool)): Router {
  const router = new Router();
  const challenge = `Bearer resource_metadata="${resourceMetadataUrl(app.config.appUrl)}"`;

  // Preflight comes before authentication: browsers never send credentials on it.
  router.options(MCP_PATH, (ctx) =>
    jsonRpcErrors(ctx, async () => {
      cors(ctx);
      checkMcpOrigin(ctx, app.config.appUrl);
      ctx.status = 204;
    }),
  );

  router.all(MCP_PATH, (ctx) => jsonRpcErrors(ctx, async () => {
    cors(ctx);
    checkMcpOrigin(ctx, app.config.appUrl);
    const principal = await asSystem('authentication', () => mcpPrincipal(app, ctx.get('authorization') || undefined));
    if (!principal) throw new AppError('unauthorized', 'Missing or invalid bearer token', undefined, { 'WWW-Authenticate': challenge });
    const key = principal.kind === 'api_key' ? `key:${principal.apiKeyId}` : `user:${principal.tenantId}:${principal.userId}`;

    // Stateless: no server-initiated stream (GET) and no session to end (DELETE).
    if (ctx.method !== 'POST') {
      ctx.set('Allow', 'POST, OPTIONS');
      ctx.status = 405;
      ctx.body = { jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this MCP server is stateless, send requests with POST' }, id: null };
      return;
    }
    const body = await readBody(ctx, 'json', BODY_LIMIT);
    const ids = requestIds(body);
    if (ids.length > 0) {
      // A refused single request gets its own id back in the JSON-RPC error.
      if (!Array.isArray(body)) ctx.state.rpcId = ids[0];
      // In the tenant's scope, as the tool calls: the connection keeps it (src/db/client.ts).
      ctx.set(headersOf(await withTenant(principal.tenantId, () => consume(app, key, [LIMITS.general], ids.length))));
    }
    const now = new Date();
    const catalogue = await service.catalogue();
    const server = new McpServer(
      { name: PRODUCT, version: app.config.releaseVersion },
      { capabilities: { tools: {}, resources: {}, prompts: {}, completions: {} }, instructions: serverInstructions(now), jsonSchemaValidator },
    );
    const context = { tenantId: principal.tenantId, service, catalogue, log: app.log };
    registerTools(server, context);
    registerResources(server, catalogue);
    registerPrompts(server, context, now);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    ctx.res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    ctx.respond = false;
    // Every tool call of this request reads the principal's tenant and nothing else.
    await withTenant(principal.tenantId, () => transport.handleRequest(ctx.req, ctx.res, body));
  }));

  return router;
}
