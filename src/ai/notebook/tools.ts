/**
 * The notebook agent's tools: the MCP server's cube tools, registered through the same function and
 * bound to the signed-in person's tenant. No tool takes a tenant: the model can name members and
 * filters, never whose data they read.
 */
import { tool, type ToolSet } from 'ai';
import type pg from 'pg';
import { cubeAnalytics } from '../../mcp/cubeAnalytics.js';
import { registerCubeTools } from '../../mcp/tools.js';
import type { ToolRegistry } from '../../mcp/toolKit.js';
import type { Logger } from '../../log.js';

/** What a tool answered, as the notebook stores and shows it. */
export type ToolOutput = { ok: true; value: Record<string, unknown> } | { ok: false; error: string };

export async function notebookTools(pool: pg.Pool, tenantId: string, log: Logger): Promise<ToolSet> {
  const service = cubeAnalytics(pool);
  const catalogue = await service.catalogue();
  const tools: ToolSet = {};
  const registry: ToolRegistry = {
    registerTool(name, config, handler) {
      tools[name] = tool({
        description: config.description,
        inputSchema: config.inputSchema,
        execute: async (input): Promise<ToolOutput> => {
          const result = await handler(input as never);
          if (result.isError) return { ok: false, error: result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n') };
          return { ok: true, value: result.structuredContent as Record<string, unknown> };
        },
      });
    },
  };
  registerCubeTools(registry, { tenantId, service, catalogue, log });
  return tools;
}
