/**
 * The MCP tools. Each one parses its input and calls one function of an `AnalyticsService`, always
 * with the principal's tenant; the tools hold no logic of their own (STYLE.md: one path for every
 * entry point). Every tool declares an output schema and answers with `structuredContent` and the
 * same JSON as text (for clients that read text only). Shared declarations are in toolKit.ts.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { registerAiImpactTools } from './aiImpactTools.js';
import { registerComparisonTools } from './comparisonTools.js';
import { registerDiscoveryTools } from './discoveryTools.js';
import { registerFactTools } from './factTools.js';
import { registerQueryTools } from './queryTools.js';
import type { ToolContext, ToolRegistry } from './toolKit.js';

/**
 * Every cube tool, bound to `context.tenantId`. The MCP server and the notebook agent register the
 * same set, so an analyst's assistant and the notebook answer with the same functions.
 */
export function registerCubeTools(registry: ToolRegistry, context: ToolContext): void {
  registerDiscoveryTools(registry, context);
  registerQueryTools(registry, context);
  registerComparisonTools(registry, context);
  registerFactTools(registry, context);
  registerAiImpactTools(registry, context);
}

export function registerTools(server: McpServer, context: ToolContext): void {
  // The SDK's registerTool is generic over its own schema types; at run time it is this interface.
  registerCubeTools(server as unknown as ToolRegistry, context);
}
