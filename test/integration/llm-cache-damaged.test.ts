import { afterAll, describe, expect, it } from 'vitest';
import { createEsClient } from '../../src/es/client';
import { LlmCache } from '../../src/llm/cache';
import { deleteIndicesWithPrefix, uniqueName } from '../support/test-env';

const prefix = uniqueName('llm-cache-damaged');
const es = createEsClient({ url: process.env.ES_URL ?? 'http://127.0.0.1:9200' });

/** A damaged request-cache entry on real Elasticsearch is a miss (the call is made again), never an invalid answer of the model. */
describe('damaged LLM cache entries', () => {
  afterAll(async () => {
    await deleteIndicesWithPrefix(es, prefix);
    await es.close();
  });

  it('serves a whole entry and treats a damaged one as a miss', async () => {
    const cache = new LlmCache(es, prefix, 'readwrite');
    const whole = { output: { label: 'SUPPORTED' }, usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2, costUsd: 0 }, model: 'm', schemaName: 's', promptVersion: 'p@1', createdAt: '2026-01-01T00:00:00.000Z' };
    await cache.put('whole', whole);
    await es.index({ index: cache.index, id: 'no-usage', document: { ...whole, usage: 'garbage' } });
    await es.index({ index: cache.index, id: 'no-output', document: { ...whole, output: null } });
    await es.index({ index: cache.index, id: 'truncated', document: { model: 'm' }, refresh: 'wait_for' });
    expect(await cache.get('whole')).toMatchObject({ output: { label: 'SUPPORTED' } });
    for (const id of ['no-usage', 'no-output', 'truncated']) expect(await cache.get(id), id).toBeUndefined();
  });
});
