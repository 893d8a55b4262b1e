import fs from 'node:fs';
import path from 'node:path';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { STDIO_DEFAULT_MAX_BUFFER_SIZE } from '@modelcontextprotocol/sdk/shared/stdio.js';
import { type Command } from 'commander';
import { loadConfig } from '../../config/config';
import { createEsClient } from '../../es/client';
import { ownIndexProblem } from '../../es/indices';
import { CliError } from '../errors';
import { createLlmGateway } from '../../llm/create-gateway';
import { resolveLlmEndpoint } from '../../llm/endpoint';
import { createLogger } from '../../logging/logger';
import { createEvidenceMemory } from '../../memory/create-memory';
import { createToolRegistry, toolDependenciesFromConfig } from '../../tools/create-registry';
import { lineLimit } from '../../tools/mcp-line-limit';
import { createMcpServer } from '../../tools/mcp-server';
import { projectRoot } from '../../project-root';


export interface McpOptions {
  index?: string;
}

/** Serves the tool registry over MCP on stdin/stdout until the client closes the connection. */
export async function serveMcp(options: McpOptions = {}): Promise<void> {
  const config = loadConfig();
  const indexProblem = options.index === undefined ? undefined : ownIndexProblem(options.index, config.elasticsearch.indexPrefix);
  if (indexProblem) throw new CliError(`--index: ${indexProblem}`, 2);
  const logger = createLogger(config.logLevel);
  const es = createEsClient(config.elasticsearch);
  // Embeddings for rag_search's dense/hybrid modes and semantic memory recall (the simulator says so on stderr).
  const endpoint = await resolveLlmEndpoint(config, logger);
  const gateway = createLlmGateway({ config, endpoint });
  const memory = createEvidenceMemory(config, es, gateway);
  const tools = createToolRegistry(toolDependenciesFromConfig(config, es, { wikiIndex: options.index, gateway, memory }));
  const server = createMcpServer(tools, logger, packageVersion());
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = resolve;
  });
  const input = process.stdin.pipe(
    lineLimit(STDIO_DEFAULT_MAX_BUFFER_SIZE, (bytes) => {
      logger.warn({ bytes }, 'MCP request over the size limit dropped');
      process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32600, message: `request of ${bytes} bytes is over the ${STDIO_DEFAULT_MAX_BUFFER_SIZE}-byte limit; dropped` } })}\n`);
    }),
  );
  await server.connect(new StdioServerTransport(input, process.stdout));
  // The stdio transport does not notice its client going away: a closed stdin ends the server.
  const closeOnEnd = () => void server.close();
  process.stdin.once('end', closeOnEnd);
  process.stdin.once('close', closeOnEnd);
  logger.info({ tools: tools.names() }, 'verity MCP server ready on stdio');
  await closed;
  await es.close();
  await endpoint.close();
}

function packageVersion(): string {
  return (JSON.parse(fs.readFileSync(path.join(projectRoot(), 'package.json'), 'utf8')) as { version: string }).version;
}

const HELP = `
Logs go to stderr; stdout carries the MCP protocol. To add verity to an MCP client
(Claude Desktop, Cursor, VS Code, …), put this in its MCP server configuration:

  {
    "mcpServers": {
      "verity": {
        "command": "npx",
        "args": ["verity", "mcp"],
        "cwd": "/path/to/verity",
        "env": { "ES_URL": "http://127.0.0.1:9200", "ES_INDEX_PREFIX": "verity" }
      }
    }
  }

Set VERITY_WIKI_PROVIDER=mediawiki to answer the Wikipedia tools from the live API instead of the index.`;

export function registerMcpCommand(program: Command): void {
  program
    .command('mcp')
    .description('Serve verity\'s tools (Wikipedia, rag_search, web_search, scholar_search, read_page, memory_recall) to an MCP client over stdio.')
    .option('--index <name>', 'wiki index to read (default <prefix>-wiki)')
    .addHelpText('after', HELP)
    .action(async (options: McpOptions) => {
      await serveMcp(options);
    });
}
