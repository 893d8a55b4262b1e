import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/config';
import { ingestCorpus, type IngestResult } from '../../src/corpus/ingest';
import { createEsClient } from '../../src/es/client';
import { indexName } from '../../src/es/indices';
import { LlmGateway } from '../../src/llm/gateway';
import { passageEmbedder, queryEmbedder } from '../../src/retrieval/embedder';
import { retrievePassages, type RetrievalMode } from '../../src/retrieval/retrieve';
import { type RunningSimulator, startSimulator } from '../../src/simulator/server';
import { AGENT_ROLES } from '../../src/config/config';
import { DEMO_CORPUS, deleteIndicesWithPrefix, testConfig, uniqueName } from '../support/test-env';

// Embeddings come from the simulator: hashed bag-of-words vectors, so "semantic" here means
// shared words in any order and form of the query, not real paraphrase understanding.
const config = testConfig();
const es = createEsClient({ url: config.elasticsearch.url, requestTimeoutMs: 120_000 });
const prefix = uniqueName('retrieval');
const index = indexName(prefix, 'wiki');
const bareIndex = indexName(prefix, 'bare');
let simulator: RunningSimulator;
let gateway: LlmGateway;
let ingested: IngestResult;

beforeAll(async () => {
  simulator = await startSimulator();
  gateway = new LlmGateway({
    endpoint: { baseUrl: simulator.url, apiKey: 'sim' },
    models: Object.fromEntries(AGENT_ROLES.map((role) => [role, 'gpt-4o-mini'])) as LlmGateway['options']['models'],
    temperature: 0,
    seed: 7,
    timeoutMs: 10_000,
    prices: {},
    embeddingModel: 'text-embedding-3-small',
  });
  ingested = await ingestCorpus({ client: es, index, file: DEMO_CORPUS, embed: passageEmbedder(gateway), embedBatch: 16 });
  await ingestCorpus({ client: es, index: bareIndex, file: DEMO_CORPUS });
});

afterAll(async () => {
  await deleteIndicesWithPrefix(es, prefix);
  await es.close();
  await simulator?.close();
});

const retrieve = (query: string, mode: RetrievalMode, k = 3, target = index) =>
  retrievePassages({ es, embedQuery: queryEmbedder(gateway) }, { index: target, query, k, mode });

describe('dense and hybrid retrieval (simulator embeddings: hashed bag-of-words)', () => {
  it('embeds every passage at ingest, in batches, counting tokens', async () => {
    expect(ingested.embedded).toBe(ingested.passages);
    expect(gateway.counters.embeddingRequests).toBe(Math.ceil(ingested.passages / 16));
    expect(gateway.counters.embeddingTokens).toBeGreaterThan(0);
    const stored = await es.search<{ embedding?: number[] }>({ index, size: 1, query: { match_all: {} } });
    expect(stored.hits.hits[0]?._source?.embedding).toHaveLength(256);
  });

  it('dense kNN finds the right page for a question worded unlike the page title', async () => {
    const hits = await retrieve('which planet looks reddish because of iron oxide on its surface', 'dense');
    expect(hits[0]?.title).toBe('Mars');
    expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score);
  });

  it('hybrid fuses BM25 and dense with RRF scores and finds the right page', async () => {
    const hits = await retrieve('who noticed a mould killing bacteria at a London hospital', 'hybrid', 5);
    expect(hits[0]?.title).toBe('Penicillin');
    expect(hits).toHaveLength(5);
    expect(hits[0]!.score).toBeLessThanOrEqual(2 / 61);
    expect(new Set(hits.map((hit) => hit.id)).size).toBe(5);
  });

  it('bm25 through the same entry point matches the title-prefixed passages', async () => {
    const hits = await retrieve('Eiffel Tower height', 'bm25', 1);
    expect(hits[0]).toMatchObject({ title: 'Eiffel Tower', docId: 'demo:Eiffel Tower' });
  });

  it('dense on an index ingested without --embed fails with one line naming --embed', async () => {
    await expect(retrieve('Mars red planet', 'dense', 3, bareIndex)).rejects.toThrow(/--embed/);
  });

  it('dense and hybrid without an embedder are a configuration error', async () => {
    await expect(retrievePassages({ es }, { index, query: 'Mars', k: 3, mode: 'dense' })).rejects.toBeInstanceOf(ConfigError);
  });
});
