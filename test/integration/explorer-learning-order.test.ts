import type { Client } from '@elastic/elasticsearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEsClient } from '../../src/es/client';
import { ensureIndex } from '../../src/es/ensure-index';
import { indexName } from '../../src/es/indices';
import { RESULT_WINDOW } from '../../src/explorer/deep-page';
import { learningOrder } from '../../src/explorer/learning-order';
import { VERDICT_INDEX } from '../../src/verdicts/verdict-index';
import { deleteIndicesWithPrefix, testConfig, uniqueName } from '../support/test-env';

/** More ToE verdicts than one search returns (Elasticsearch's result window). */
const ONLINE_VERDICTS = RESULT_WINDOW + 25;

/**
 * The learning curve's order over a run larger than one search: every ToE verdict of the run with an
 * online trace is placed (by claim-order position, else finish time), none of another run or method.
 */
describe('learning order of a run beyond the result window (real Elasticsearch)', () => {
  const prefix = uniqueName('learning-order');
  const runId = 'big-online-run';
  let es: Client;

  beforeAll(async () => {
    es = createEsClient(testConfig().elasticsearch);
    const index = indexName(prefix, 'verdicts');
    await ensureIndex(es, index, VERDICT_INDEX);
    const verdict = (workflowId: string, fields: Record<string, unknown>) => [{ index: { _index: index, _id: workflowId } }, { workflowId, runId, method: 'toe', ...fields }];
    const operations = [
      ...Array.from({ length: ONLINE_VERDICTS }, (_, i) => verdict(`toe-${i}`, { trace: { online: { claimOrder: { position: i } } } })).flat(),
      ...verdict('toe-by-finish', { finishedAt: '2026-01-02T03:04:05.000Z', trace: { online: {} } }),
      ...verdict('toe-offline', { trace: {} }),
      ...verdict('rag-0', { method: 'rag', trace: { online: { claimOrder: { position: 0 } } } }),
      ...verdict('other-run', { runId: 'another-run', trace: { online: { claimOrder: { position: 0 } } } }),
    ];
    const response = await es.bulk({ operations, refresh: true });
    expect(response.errors).toBe(false);
  });

  afterAll(async () => {
    await deleteIndicesWithPrefix(es, prefix);
    await es.close();
  });

  it('places every online ToE verdict of the run, past the 10,000 hits one search returns', async () => {
    const order = await learningOrder(es, prefix, runId);
    expect(order.size).toBe(ONLINE_VERDICTS + 1);
    expect(order.get(`toe-${ONLINE_VERDICTS - 1}`)).toBe(ONLINE_VERDICTS - 1);
    expect(order.get('toe-by-finish')).toBe(Date.parse('2026-01-02T03:04:05.000Z'));
    for (const absent of ['toe-offline', 'rag-0', 'other-run']) expect(order.has(absent)).toBe(false);
  });

  it('reads the same order in small pages', async () => {
    expect([...(await learningOrder(es, prefix, runId, { pageSize: 997 })).entries()].sort()).toEqual([...(await learningOrder(es, prefix, runId)).entries()].sort());
  });
});
