import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEsClient } from '../../src/es/client';
import { projectRoot } from '../../src/project-root';
import { OBSERVATION_MAX_CHARS } from '../../src/shared/constants';
import { ingestWiki } from '../support/tool-indices';
import { DEMO_CORPUS, deleteIndicesWithPrefix, uniqueName } from '../support/test-env';

type TextResult = { content: { type: string; text: string }[]; structuredContent?: Record<string, unknown>; isError?: boolean };

describe('verity mcp over stdio, with the official MCP SDK client', () => {
  const es = createEsClient({ url: process.env.ES_URL ?? 'http://127.0.0.1:9200' });
  const prefix = uniqueName('mcp');
  const client = new Client({ name: 'verity-test', version: '0.0.0' });
  let stderr = '';

  beforeAll(async () => {
    await ingestWiki(es, prefix, DEMO_CORPUS);
    const env = Object.fromEntries(Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined));
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['--import', 'tsx', 'src/cli/mcp-entry.ts'],
      cwd: projectRoot(),
      env: { ...env, ES_INDEX_PREFIX: prefix, VERITY_LOG_LEVEL: 'info' },
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    await client.connect(transport);
  });

  afterAll(async () => {
    await client.close();
    await deleteIndicesWithPrefix(es, prefix);
    await es.close();
  });

  it('lists the tools with descriptions and JSON input schemas', async () => {
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['search_wikipedia', 'get_article', 'get_summary', 'get_sections', 'summarize_article_section', 'extract_key_facts', 'get_related_topics', 'rag_search', 'web_search', 'read_page', 'scholar_search', 'memory_recall']));
    const getArticle = tools.find((tool) => tool.name === 'get_article');
    expect(getArticle?.description).toContain('full content');
    expect(getArticle?.inputSchema).toMatchObject({ type: 'object', required: ['title'], properties: { title: { type: 'string' } } });
  });

  it('calls search_wikipedia and get_article against the test index', async () => {
    const search = (await client.callTool({ name: 'search_wikipedia', arguments: { query: 'who discovered penicillin', limit: 3 } })) as TextResult;
    expect(search.isError).toBeFalsy();
    expect(JSON.parse(search.content[0]?.text ?? '{}')).toMatchObject({ query: 'who discovered penicillin', results: [{ title: 'Penicillin' }, {}, {}] });
    const article = (await client.callTool({ name: 'get_article', arguments: { title: 'Eiffel Tower' } })) as TextResult;
    expect(article.content[0]?.text.length).toBeLessThanOrEqual(OBSERVATION_MAX_CHARS);
    expect(article.content[0]?.text).toContain('Gustave Eiffel');
    expect(article.structuredContent).toMatchObject({ title: 'Eiffel Tower', exists: true });
  });

  it('reports bad arguments and missing pages as MCP tool errors', async () => {
    const invalid = (await client.callTool({ name: 'get_article', arguments: { query: 'Eiffel Tower' } })) as TextResult;
    expect(invalid.isError).toBe(true);
    expect(invalid.content[0]?.text).toContain("'title'");
    const missing = (await client.callTool({ name: 'get_article', arguments: { title: 'Eifel Tower' } })) as TextResult;
    expect(missing.isError).toBe(true);
    expect(missing.content[0]?.text).toContain('Eiffel Tower');
  });

  it('logs to stderr only', () => {
    expect(stderr).toContain('verity MCP server ready on stdio');
  });
});
