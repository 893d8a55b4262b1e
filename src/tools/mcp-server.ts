import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '../logging/logger';
import { ToolError } from './errors';
import type { ToolRegistry } from './registry';

/**
 * An MCP server over the tool registry: tools/list gives each tool's JSON schema and description,
 * tools/call validates and runs it like any other caller (text = the bounded observation, structured
 * content = the full data). Tool failures are MCP tool errors (`isError`), never protocol errors.
 */
export function createMcpServer(tools: ToolRegistry, logger: Logger, version: string): McpServer {
  const mcp = new McpServer({ name: 'verity', version }, { capabilities: { tools: {} } });
  mcp.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: tools.specs() }));
  mcp.server.setRequestHandler(CallToolRequestSchema, async ({ params }) => callTool(tools, logger, params.name, params.arguments));
  return mcp;
}

async function callTool(tools: ToolRegistry, logger: Logger, name: string, args: unknown): Promise<CallToolResult> {
  try {
    const { observation, data } = await tools.invoke(name, args);
    return { content: [{ type: 'text', text: observation }], ...(isRecord(data) ? { structuredContent: data } : {}) };
  } catch (err) {
    if (!(err instanceof ToolError)) logger.error({ err, tool: name }, 'tool call failed unexpectedly');
    const kind = err instanceof ToolError ? err.kind : 'internal';
    return { isError: true, content: [{ type: 'text', text: err instanceof Error ? err.message : String(err) }], _meta: { errorKind: kind } };
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
