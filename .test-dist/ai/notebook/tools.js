import { tool } from "ai";
import { cubeAnalytics } from "../../mcp/cubeAnalytics.js";
import { registerCubeTools } from "../../mcp/tools.js";
async function notebookTools(pool, tenantId, log) {
  const service = cubeAnalytics(pool);
  const catalogue = await service.catalogue();
  const tools = {};
  const registry = {
    registerTool(name, config, handler) {
      tools[name] = tool({
        description: config.description,
        inputSchema: config.inputSchema,
        execute: async (input) => {
          const result = await handler(input);
          if (result.isError) return { ok: false, error: result.content.map((c) => c.type === "text" ? c.text : "").join("\n") };
          return { ok: true, value: result.structuredContent };
        }
      });
    }
  };
  registerCubeTools(registry, { tenantId, service, catalogue, log });
  return tools;
}
export {
  notebookTools
};
