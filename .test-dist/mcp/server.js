import Router from "@koa/router";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { API_KEY_PREFIX, principalFromApiKey } from "../apiKeys/principal.js";
import { asSystem, withTenant } from "../db/tenancy.js";
import { AppError } from "../errors.js";
import { readBody } from "../http/body.js";
import { consume, headersOf, LIMITS } from "../http/rateLimit.js";
import { MCP_PATH, MCP_SCOPE, mcpResource, resourceMetadataUrl } from "../oauth/constants.js";
import { principalFromProps } from "../oauth/grants.js";
import { providerFor } from "../oauth/provider.js";
import { PRODUCT } from "../version.js";
import { cubeAnalytics } from "./cubeAnalytics.js";
import { serverInstructions } from "./instructions.js";
import { registerPrompts } from "./prompts.js";
import { registerResources } from "./resources.js";
import { registerTools } from "./tools.js";
const BODY_LIMIT = 1024 * 1024;
const jsonSchemaValidator = new AjvJsonSchemaValidator();
function cors(ctx) {
  ctx.set("Access-Control-Allow-Origin", "*");
  ctx.set("Access-Control-Allow-Methods", "GET, POST, DELETE, OPTIONS");
  ctx.set("Access-Control-Allow-Headers", "Authorization, Content-Type, Accept, Mcp-Protocol-Version, Mcp-Session-Id, Last-Event-ID");
  ctx.set("Access-Control-Expose-Headers", "WWW-Authenticate, Mcp-Session-Id, Mcp-Protocol-Version");
  ctx.set("Access-Control-Max-Age", "3600");
}
function checkMcpOrigin(ctx, appUrl) {
  const origin = ctx.get("origin");
  if (origin !== "" && origin !== new URL(appUrl).origin) throw new AppError("forbidden", "Origin not allowed");
}
async function jsonRpcErrors(ctx, body) {
  try {
    await body();
  } catch (error) {
    if (!(error instanceof AppError) || error.code === "internal") throw error;
    ctx.status = error.status;
    for (const [name, value] of Object.entries(error.headers ?? {})) ctx.set(name, value);
    ctx.body = { jsonrpc: "2.0", error: { code: -32e3, message: error.message }, id: ctx.state.rpcId ?? null };
  }
}
function requestIds(body) {
  const messages = Array.isArray(body) ? body : [body];
  return messages.flatMap((m) => {
    if (typeof m !== "object" || m === null || typeof m.method !== "string") return [];
    const id = m.id;
    return typeof id === "string" || typeof id === "number" ? [id] : [];
  });
}
async function mcpPrincipal(app, authorization) {
  const match = authorization ? /^Bearer\s+(\S+)$/i.exec(authorization) : null;
  if (!match) return null;
  const bearer = match[1];
  if (bearer.startsWith(API_KEY_PREFIX)) return principalFromApiKey(app.database.db, bearer);
  if (bearer.length > 200) return null;
  const token = await providerFor(app).AccessToken.find(bearer);
  if (!token || token.isExpired) return null;
  if (token.aud !== mcpResource(app.config.appUrl) || !token.scopes.has(MCP_SCOPE)) return null;
  return principalFromProps(app.database.db, token.extra);
}
function mcpRoutes(app, service = cubeAnalytics(app.database.pool)) {
  const router = new Router();
  const challenge = `Bearer resource_metadata="${resourceMetadataUrl(app.config.appUrl)}"`;
  router.options(
    MCP_PATH,
    (ctx) => jsonRpcErrors(ctx, async () => {
      cors(ctx);
      checkMcpOrigin(ctx, app.config.appUrl);
      ctx.status = 204;
    })
  );
  router.all(MCP_PATH, (ctx) => jsonRpcErrors(ctx, async () => {
    cors(ctx);
    checkMcpOrigin(ctx, app.config.appUrl);
    const principal = await asSystem("authentication", () => mcpPrincipal(app, ctx.get("authorization") || void 0));
    if (!principal) throw new AppError("unauthorized", "Missing or invalid bearer token", void 0, { "WWW-Authenticate": challenge });
    const key = principal.kind === "api_key" ? `key:${principal.apiKeyId}` : `user:${principal.tenantId}:${principal.userId}`;
    if (ctx.method !== "POST") {
      ctx.set("Allow", "POST, OPTIONS");
      ctx.status = 405;
      ctx.body = { jsonrpc: "2.0", error: { code: -32e3, message: "Method not allowed: this MCP server is stateless, send requests with POST" }, id: null };
      return;
    }
    const body = await readBody(ctx, "json", BODY_LIMIT);
    const ids = requestIds(body);
    if (ids.length > 0) {
      if (!Array.isArray(body)) ctx.state.rpcId = ids[0];
      ctx.set(headersOf(await consume(app, key, [LIMITS.general], ids.length)));
    }
    const now = /* @__PURE__ */ new Date();
    const catalogue = await service.catalogue();
    const server = new McpServer(
      { name: PRODUCT, version: app.config.releaseVersion },
      { capabilities: { tools: {}, resources: {}, prompts: {}, completions: {} }, instructions: serverInstructions(now), jsonSchemaValidator }
    );
    const context = { tenantId: principal.tenantId, service, catalogue, log: app.log };
    registerTools(server, context);
    registerResources(server, catalogue);
    registerPrompts(server, context, now);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: void 0, enableJsonResponse: true });
    ctx.res.on("close", () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    ctx.respond = false;
    await withTenant(principal.tenantId, () => transport.handleRequest(ctx.req, ctx.res, body));
  }));
  return router;
}
export {
  mcpPrincipal,
  mcpRoutes,
  requestIds
};
