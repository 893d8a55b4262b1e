import { ApplicationFailure } from '@temporalio/common';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createToolActivities } from '../../activities/tools.activities';
import { BlockedUrlError, PageFetchError } from '../../src/pages/errors';
import { IndexNotFoundError } from '../../src/retrieval/errors';
import { AuthError, RateLimitedError } from '../../src/search/errors';
import { OBSERVATION_MAX_CHARS } from '../../src/shared/constants';
import { CacheMissError } from '../../src/cache/cache-miss-error';
import { MEMORY_CODE_COMPAT, type MemoryRecallOptions } from '../../src/shared/memory';
import type { RetrievalMode } from '../../src/shared/retrieval';
import { TOOL_NAMES } from '../../src/shared/tools';
import { createToolRegistry } from '../../src/tools/create-registry';
import { InvalidToolArgumentsError, type ToolError } from '../../src/tools/errors';
import { ToolRegistry } from '../../src/tools/registry';
import { defineTool } from '../../src/tools/tool';
import { toToolError } from '../../src/tools/to-tool-error';
import type { WikipediaProvider } from '../../src/tools/wikipedia/page';

const unusedWikipedia = {} as WikipediaProvider;
const allTools = createToolRegistry({
  wikipedia: unusedWikipedia,
  searchPassages: async () => [],
  webSearch: { name: 'fake-web', search: async () => [] },
  scholar: [
    { name: 'arxiv', search: async () => [] },
    { name: 'pubmed', search: async () => [] },
  ],
  readPage: async (url) => ({ url, title: 't', text: 'x', contentType: 'text/html', bytes: 1, fetchedAt: '' }),
  memory: { recall: async () => ({ hits: [], lines: [] }), defaults: MEMORY_CODE_COMPAT.recall },
});

function echoTool(output: unknown, fail?: Error) {
  return defineTool({
    name: 'rag_search',
    description: 'echo',
    input: z.object({ query: z.string().min(1) }),
    async run() {
      if (fail) throw fail;
      return output;
    },
  });
}

describe('tool registry', () => {
  it('registers every tool named in src/shared/tools.ts when all dependencies are given', () => {
    expect(allTools.names().sort()).toEqual([...TOOL_NAMES].sort());
  });

  it('renders input schemas as JSON schema with required fields, defaults in descriptions and clamped ranges', () => {
    const specs = new Map(allTools.specs().map((spec) => [spec.name, spec]));
    expect(specs.get('get_article')?.inputSchema).toEqual({
      type: 'object',
      properties: { title: { type: 'string', minLength: 1, description: expect.stringContaining('Wikipedia page title') } },
      required: ['title'],
    });
    const search = specs.get('search_wikipedia')?.inputSchema as { properties: Record<string, Record<string, unknown>>; required: string[] };
    expect(search.required).toEqual(['query']);
    expect(search.properties.limit).toMatchObject({ type: 'integer', minimum: 1, maximum: 500 });
    expect(specs.get('summarize_article_section')?.inputSchema).toMatchObject({ required: ['title', 'section_title'] });
    expect(specs.get('scholar_search')?.inputSchema).toMatchObject({ properties: { source: { enum: ['arxiv', 'pubmed'] } } });
    for (const spec of specs.values()) expect(spec.inputSchema).not.toHaveProperty('$schema');
  });

  it('offers the OpenAI tools format', () => {
    const [first] = allTools.openAiTools();
    expect(first).toMatchObject({ type: 'function', function: { name: 'search_wikipedia', description: expect.any(String), parameters: { type: 'object' } } });
  });

  it('rejects arguments that do not match the schema with InvalidToolArgumentsError naming the field', async () => {
    const error = await allTools.invoke('get_article', { query: 'Paris' }).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(InvalidToolArgumentsError);
    expect(error).toMatchObject({ kind: 'invalidArguments', tool: 'get_article' });
    expect((error as Error).message).toContain("'title'");
  });

  it('clamps limits instead of rejecting them', async () => {
    let asked = 0;
    const registry = createToolRegistry({ wikipedia: { ...unusedWikipedia, language: 'en', search: async (_q: string, limit: number) => ((asked = limit), { hits: [], totalHits: 0 }) } as WikipediaProvider, searchPassages: async () => [] });
    await registry.invoke('search_wikipedia', { query: 'x', limit: 9999 });
    expect(asked).toBe(500);
    await registry.invoke('search_wikipedia', { query: 'x' });
    expect(asked).toBe(10);
  });

  it('names the available tools for an unknown one', async () => {
    const error = (await allTools.invoke('search_google', { query: 'x' }).catch((err: unknown) => err)) as ToolError;
    expect(error.kind).toBe('unknownTool');
    expect(error.message).toContain('search_wikipedia');
  });

  it('cuts observations to OBSERVATION_MAX_CHARS but keeps the data whole', async () => {
    const long = 'x'.repeat(5000);
    const result = await new ToolRegistry([echoTool({ long })]).invoke('rag_search', { query: 'q' });
    expect(result.observation).toHaveLength(OBSERVATION_MAX_CHARS);
    expect(result.truncated).toBe(true);
    expect(result.data).toEqual({ long });
    const short = await new ToolRegistry([echoTool({ a: 1 })]).invoke('rag_search', { query: 'q' });
    expect(short).toMatchObject({ observation: '{"a":1}', truncated: false });
  });

  it('maps search, page and index errors onto ToolError kinds', () => {
    expect(toToolError(new RateLimitedError('serper', 7))).toMatchObject({ kind: 'rateLimited', retryable: true, details: { retryAfterSeconds: 7 } });
    expect(toToolError(new AuthError('serper', 'bad key'))).toMatchObject({ kind: 'unauthorized', retryable: false });
    expect(toToolError(new BlockedUrlError('http://10.0.0.1', 'private'))).toMatchObject({ kind: 'blockedUrl', isAgentError: true });
    expect(toToolError(new PageFetchError('http://x', 'gone', 404))).toMatchObject({ kind: 'notFound' });
    expect(toToolError(new PageFetchError('http://x', 'busy', 503))).toMatchObject({ kind: 'unavailable', retryable: true });
    expect(toToolError(new IndexNotFoundError('w'))).toMatchObject({ kind: 'indexNotFound', failureType: 'IndexNotFound', retryable: false });
    expect(toToolError(new CacheMissError('search cache', 'k'.repeat(20), 'q'))).toMatchObject({ kind: 'cacheMiss', retryable: false, isAgentError: false });
    const bug = new TypeError('bug');
    expect(toToolError(bug)).toBe(bug);
  });
});

describe('rag_search and memory_recall', () => {
  it('rag_search uses the configured mode unless the caller names one', async () => {
    const modes: RetrievalMode[] = [];
    const registry = createToolRegistry({
      wikipedia: unusedWikipedia,
      searchPassages: async (_query, _k, mode) => (modes.push(mode), []),
      ragMode: 'hybrid',
    });
    await registry.invoke('rag_search', { query: 'q' });
    await registry.invoke('rag_search', { query: 'q', mode: 'bm25' });
    expect(modes).toEqual(['hybrid', 'bm25']);
    await expect(registry.invoke('rag_search', { query: 'q', mode: 'fuzzy' })).rejects.toBeInstanceOf(InvalidToolArgumentsError);
  });

  it('memory_recall passes entities, scope and mode over the defaults and returns the evidence lines', async () => {
    const calls: [string, string[], MemoryRecallOptions][] = [];
    const hit = { id: 'm1', claimId: 'c', tool: 'web_search', query: 'Paris', score: 1, timestamp: '' };
    const registry = createToolRegistry({
      wikipedia: unusedWikipedia,
      searchPassages: async () => [],
      memory: { recall: async (...args) => (calls.push(args), { hits: [hit], lines: ['[Memory] Previous evidence for ...'] }), defaults: MEMORY_CODE_COMPAT.recall },
    });
    const result = await registry.invoke('memory_recall', { entities: ['Paris'], scope: 'run:r1', mode: 'exact' });
    expect(calls).toEqual([['run:r1', ['Paris'], { ...MEMORY_CODE_COMPAT.recall, mode: 'exact', topK: 3 }]]);
    expect(result.data).toMatchObject({ entries: [{ id: 'm1', evidence: '[Memory] Previous evidence for ...' }] });
    const badScope = await registry.invoke('memory_recall', { entities: ['Paris'], scope: 'bad scope!' }).catch((err: unknown) => err);
    expect(badScope).toMatchObject({ kind: 'invalidArguments' });
  });
});

describe('tool activities', () => {
  const activitiesFailingWith = (err: Error) => createToolActivities({ tools: new ToolRegistry([echoTool(null, err)]) });

  it('exposes one activity per tool, named tools.<name>', () => {
    expect(Object.keys(createToolActivities({ tools: allTools })).sort()).toEqual(TOOL_NAMES.map((name) => `tools.${name}`).sort());
  });

  it('fails non-retryably for a missing index and retryably (with the server delay) when rate limited', async () => {
    const missing = await activitiesFailingWith(new IndexNotFoundError('w'))['tools.rag_search']({ args: { query: 'q' } }).catch((err: unknown) => err);
    expect(missing).toBeInstanceOf(ApplicationFailure);
    expect(missing).toMatchObject({ type: 'IndexNotFound', nonRetryable: true });
    const limited = await activitiesFailingWith(new RateLimitedError('serper', 3))['tools.rag_search']({ args: { query: 'q' } }).catch((err: unknown) => err);
    expect(limited).toMatchObject({ type: 'RateLimited', nonRetryable: false, nextRetryDelay: '3 seconds' });
  });

  it('returns agent errors as error observations', async () => {
    const result = await activitiesFailingWith(new BlockedUrlError('http://127.0.0.1', 'loopback'))['tools.rag_search']({ args: { query: 'q' } });
    expect(result).toMatchObject({ isError: true, errorKind: 'blockedUrl', observation: expect.stringContaining('blocked URL') });
  });

  it('leaves oversized data out of the result but keeps the observation', async () => {
    const result = await createToolActivities({ tools: new ToolRegistry([echoTool({ big: 'y'.repeat(40_000) })]) })['tools.rag_search']({ args: { query: 'q' } });
    expect(result).toMatchObject({ isError: false, truncated: true, dataOmitted: true });
    expect(result.data).toBeUndefined();
  });
});
