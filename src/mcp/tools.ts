/**
 * The MCP tools. Each one parses its input and calls one function of an `AnalyticsService`, always
 * with the principal's tenant; the tools hold no logic of their own (STYLE.md: one path for every
 * entry point). Every tool declares an output schema and answers with `structuredContent` and the
 * same JSON as text (for clients that read text only).
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import { AppError } from '../errors.js';
import type { Logger } from '../log.js';
import type { Catalogue } from './catalogue.js';
import { registerComparisonTools } from './comparisonTools.js';
import type { AnalyticsService } from './cubeAnalytics.js';
import { registerDiscoveryTools } from './discoveryTools.js';
import { registerQueryTools } from './queryTools.js';

/** What every tool, prompt and completion works with: the principal's tenant, never the caller's. */
export interface ToolContext {
  tenantId: string;
  service: AnalyticsService;
  catalogue: Catalogue;
  log?: Logger;
}

/** How a tool is declared: the MCP server's `registerTool`, or the notebook agent's collector (src/ai/notebook/tools.ts). */
export interface ToolConfig<S extends z.ZodType> {
  title: string;
  description: string;
  inputSchema: S;
  outputSchema: z.ZodType;
  annotations?: { readOnlyHint?: boolean; openWorldHint?: boolean };
}

export interface ToolRegistry {
  registerTool<S extends z.ZodType>(name: string, config: ToolConfig<S>, handler: (input: z.infer<S>) => Promise<CallToolResult>): unknown;
}

/**
 * A failed call is a tool error the assistant can read and correct, never a protocol error. An
 * unexpected failure is logged and answered like the REST API's 500: the SDK would otherwise hand
 * the raw message (database errors, SQL) to the client and log nothing.
 */
export async function guarded(body: () => Promise<Record<string, unknown>>, log?: Logger): Promise<CallToolResult> {
  try {
    const value = await body();
    return { content: [{ type: 'text', text: JSON.stringify(value, null, 2) }], structuredContent: value };
  } catch (error) {
    if (error instanceof AppError && error.code !== 'internal') {
      const details = error.details?.map((d) => `${d.path}: ${d.message}`).join('; ');
      return { isError: true, content: [{ type: 'text', text: details && !error.message.includes(details) ? `${error.message}: ${details}` : error.message }] };
    }
    log?.error({ err: error }, 'MCP tool failed');
    return { isError: true, content: [{ type: 'text', text: 'Internal server error' }] };
  }
}

/**
 * Every cube tool, bound to `context.tenantId`. The MCP server and the notebook agent register the
 * same set, so an analyst's assistant and the notebook answer with the same functions.
 */
export function registerCubeTools(registry: ToolRegistry, context: ToolContext): void {
  registerDiscoveryTools(registry, context);
  registerQueryTools(registry, context);
  registerComparisonTools(registry, context);
}

export function registerTools(server: McpServer, context: ToolContext): void {
  // The SDK's registerTool is generic over its own schema types; at run time it is this interface.
  registerCubeTools(server as unknown as ToolRegistry, context);
}
