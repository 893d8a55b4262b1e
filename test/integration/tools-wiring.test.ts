import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRetrievalActivities } from '../../activities/retrieval.activities';
import { ingestCorpus } from '../../src/corpus/ingest';
import { createEsClient } from '../../src/es/client';
import { indexName } from '../../src/es/indices';
import { createLlmGateway } from '../../src/llm/create-gateway';
import { resolveLlmEndpoint, type ResolvedLlmEndpoint } from '../../src/llm/endpoint';
import type { LlmGateway } from '../../src/llm/gateway';
import { createEvidenceMemory } from '../../src/memory/create-memory';
import { passageEmbedder } from '../../src/retrieval/embedder';
import { createWebSearchProvider } from '../../src/search/provider-factory';
import type { WebResult, WebSearchProvider } from '../../src/search/types';
import { WEB_TARGET, webIndexName } from '../../src/search/web-index';
import { MEMORY_CODE_COMPAT } from '../../src/shared/memory';
import { createToolRegistry, toolDependenciesFromConfig } from '../../src/tools/create-registry';
import { DEMO_CORPUS, deleteIndicesWithPrefix, SHARED_DATA, testConfig, uniqueName } from '../support/test-env';

const WEB_SAMPLE = path.join(SHARED_DATA, 'corpus', 'web_factcheckbench.jsonl');
const SAMPLE_LINES = 100;
const QUERY = 'oldest sitting member of the Supreme Court Stephen Breyer';

const prefix = uniqueName('wiring');
const config = testConfig({ ES_INDEX_PREFIX: prefix, VERITY_RAG_MODE: 'hybrid', VERITY_WEB_CACHE: 'readwrite' });
const es = createEsClient({ url: config.elasticsearch.url, requestTimeoutMs: 120_000 });
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-wiring-'));
let endpoint: ResolvedLlmEndpoint;
let gateway: LlmGateway;

/** The configured (recorded) provider, counting the searches that reach it. */
function countingProvider(settings = config): WebSearchProvider & { calls: number } {
  const inner = createWebSearchProvider(settings, { es });
  const counted = {
    name: inner.name,
    calls: 0,
    search: async (query: string, options: { limit: number }) => {
      counted.calls++;
      return inner.search(query, options);
    },
  };
  return counted;
}

const registryWith = (settings: typeof config, webSearch?: WebSearchProvider) =>
  createToolRegistry(toolDependenciesFromConfig(settings, es, { gateway, memory: createEvidenceMemory(settings, es, gateway), webSearch }));

beforeAll(async () => {
  endpoint = await resolveLlmEndpoint(config);
  gateway = createLlmGateway({ config, endpoint });
  const sample = path.join(tmp, 'web.jsonl');
  fs.writeFileSync(sample, fs.existsSync(WEB_SAMPLE) ? fs.readFileSync(WEB_SAMPLE, 'utf8').split('\n').slice(0, SAMPLE_LINES).join('\n') : '');
  await ingestCorpus({ client: es, index: webIndexName(prefix), file: sample, target: WEB_TARGET });
  await ingestCorpus({ client: es, index: indexName(prefix, 'wiki'), file: DEMO_CORPUS, embed: passageEmbedder(gateway), embedBatch: 32 });
  await es.indices.refresh({ index: [webIndexName(prefix), indexName(prefix, 'wiki')] });
});

afterAll(async () => {
  await deleteIndicesWithPrefix(es, prefix);
  await es.close();
  await endpoint?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe.skipIf(!fs.existsSync(WEB_SAMPLE))('web tools from the configuration (recorded web, caches)', () => {
  it('web_search answers from the recorded web; the identical second call is a cache hit', async () => {
    const provider = countingProvider();
    const registry = registryWith(config, provider);
    const first = await registry.invoke('web_search', { query: QUERY, max_results: 3 });
    const second = await registry.invoke('web_search', { query: QUERY, max_results: 3 });
    expect((first.data as { results: WebResult[] }).results[0]?.snippet).toContain('Breyer');
    expect(second.data).toEqual(first.data);
    expect(provider.calls).toBe(1);
  });

  it('replay mode answers recorded searches and never calls the provider', async () => {
    const replay = testConfig({ ES_INDEX_PREFIX: prefix, VERITY_WEB_CACHE: 'replay' });
    const provider = countingProvider(replay);
    const registry = registryWith(replay, provider);
    await expect(registry.invoke('web_search', { query: QUERY, max_results: 3 })).resolves.toMatchObject({ tool: 'web_search' });
    await expect(registry.invoke('web_search', { query: 'a query never recorded' })).rejects.toMatchObject({ kind: 'cacheMiss', retryable: false });
    expect(provider.calls).toBe(0);
  });

  it('read_page reads a recorded URL (through the page cache)', async () => {
    const registry = registryWith(config);
    const search = await registry.invoke('web_search', { query: QUERY, max_results: 1 });
    const url = (search.data as { results: WebResult[] }).results[0]!.url;
    const page = await registry.invoke('read_page', { url });
    expect(page.data).toMatchObject({ url, chunk: 1, text: expect.stringContaining('Breyer') });
    expect(await registryWith(testConfig({ ES_INDEX_PREFIX: prefix, VERITY_WEB_CACHE: 'replay' })).invoke('read_page', { url })).toMatchObject({
      data: { url },
    });
  });
});

describe('rag_search and memory_recall from the configuration', () => {
  it('rag_search runs in the configured hybrid mode (VERITY_RAG_MODE) and in bm25 on request', async () => {
    const registry = registryWith(config);
    const hybrid = await registry.invoke('rag_search', { query: 'Who designed the Eiffel Tower?', k: 3 });
    expect(hybrid.data).toMatchObject({ mode: 'hybrid', passages: [{ title: 'Eiffel Tower' }, {}, {}] });
    const bm25 = await registry.invoke('rag_search', { query: 'Who designed the Eiffel Tower?', k: 3, mode: 'bm25' });
    expect(bm25.data).toMatchObject({ mode: 'bm25' });
  });

  it('memory_recall returns evidence stored in the memory, by scope', async () => {
    const memory = createEvidenceMemory(config, es, gateway);
    const observation = { tool: 'web_search', args: { query: 'Breyer age' }, evidence: 'Stephen Breyer was born in 1938.' };
    await memory.update({ scope: 'run:wiring', claimId: 'c1', entities: ['Stephen Breyer'], observations: [observation] }, MEMORY_CODE_COMPAT.update);
    await es.indices.refresh({ index: indexName(prefix, 'evidence-memory') });
    const registry = registryWith(config);
    const recalled = await registry.invoke('memory_recall', { entities: ['Breyer'], scope: 'run:wiring' });
    expect(recalled.observation).toContain('born in 1938');
    const elsewhere = await registry.invoke('memory_recall', { entities: ['Breyer'], scope: 'run:other' });
    expect(elsewhere.data).toMatchObject({ entries: [] });
  });
});

describe('the rag baseline retrieval activity', () => {
  it('retrieves with the input mode through retrievePassages, bm25 when the input names none', async () => {
    const { retrievePassages } = createRetrievalActivities({ es, gateway });
    const request = { query: 'Who designed the Eiffel Tower?', index: indexName(prefix, 'wiki'), k: 3 };
    const bm25 = await retrievePassages(request);
    const explicitBm25 = await retrievePassages({ ...request, mode: 'bm25' });
    const hybrid = await retrievePassages({ ...request, mode: 'hybrid' });
    expect(bm25).toEqual(explicitBm25);
    expect(hybrid.passages[0]).toMatchObject({ title: 'Eiffel Tower' });
    // RRF scores are at most 2/(60+1); BM25 scores are not.
    expect(hybrid.passages[0]!.score).toBeLessThan(0.05);
    expect(bm25.passages[0]!.score).toBeGreaterThan(1);
  });
});
