/**
 * What every MCP tool is declared and answered with: the tool context, the registry interface
 * (the MCP server's or the notebook agent's), and the guard that turns failures into tool errors.
 * Its own module so the tool groups and tools.ts (which registers them) import it without a cycle.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import { AppError } from '../errors.js';
import type { Logger } from '../log.js';
import type { Catalogue } from './catalogue.js';
import type { AnalyticsService } from './cubeAnalytics.js';

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
 * What `make` builds from a catalogue, made once per catalogue: the tools' declarations (titles,
 * zod input and output schemas) are the same for every request and every tenant, and building
 * them per request was about half of an /mcp request's CPU with the garbage collection it caused
 * (docs/write-path.md, third pass). Only the handlers, which
 * close over the principal's tenant, are made per request.
 */
export function perCatalogue<T>(make: (catalogue: Catalogue) => T): (catalogue: Catalogue) => T {
  const made = new WeakMap<Catalogue, T>();
  return (catalogue) => {
    let value = made.get(catalogue);
    if (value === undefined) made.set(catalogue, (value = make(catalogue)));
    return value;
  };
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
