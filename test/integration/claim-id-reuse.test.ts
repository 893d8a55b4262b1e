import type { Client as EsClient } from '@elastic/elasticsearch';
import type { Client } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClaimIdReusedError, refuseClaimIdReuse } from '../../src/client/claim-id-reuse';
import { buildVerifyInput, startVerification } from '../../src/client/start-verification';
import { connectTemporal } from '../../src/client/temporal';
import type { VerityConfig } from '../../src/config/config';
import { createEsClient } from '../../src/es/client';
import { indexName } from '../../src/es/indices';
import { VerdictStore } from '../../src/verdicts/verdict-store';
import { deleteIndicesWithPrefix, testConfig, uniqueName } from '../support/test-env';

/**
 * A claim id reused for another claim text is refused while the first verification still runs
 * (no verdict stored yet): its workflow is started on a task queue no worker polls, so it waits.
 */
describe('claim-id reuse while the first verification runs (real Temporal + Elasticsearch)', () => {
  const prefix = uniqueName('reuse');
  let config: VerityConfig;
  let client: Client;
  let es: EsClient;
  let verdicts: VerdictStore;
  const started: string[] = [];

  beforeAll(async () => {
    config = testConfig({ ES_INDEX_PREFIX: prefix, TEMPORAL_TASK_QUEUE: prefix });
    client = await connectTemporal(config);
    es = createEsClient({ url: process.env.ES_URL ?? 'http://127.0.0.1:9200' });
    verdicts = new VerdictStore(es, indexName(prefix, 'verdicts'));
  });

  afterAll(async () => {
    for (const id of started) await client.workflow.getHandle(id).terminate('test over').catch(() => undefined);
    await client.connection.close();
    await deleteIndicesWithPrefix(es, prefix);
    await es.close();
  });

  it.each([['plain', 'c1'], ['with a quote and a slash', "it's/c2"]])('refuses another claim text under a running claim id (%s), accepts the same text', async (_, claimId) => {
    const runId = uniqueName('run');
    const first = buildVerifyInput(config, { claim: 'The Eiffel Tower is in Paris.', method: 'rag', runId, claimId });
    const { handle } = await startVerification(client, `${prefix}-no-worker`, first);
    started.push(handle.workflowId);
    expect((await handle.describe()).status.name).toBe('RUNNING');

    const other = { runId, claimId, claim: 'Marie Curie won a Nobel Prize.' };
    await expect(refuseClaimIdReuse(verdicts, client, other)).rejects.toThrow(ClaimIdReusedError);
    await expect(refuseClaimIdReuse(verdicts, client, other)).rejects.toThrow(
      `claim id "${claimId}" of run "${runId}" already names another claim ("The Eiffel Tower is in Paris."); choose another --claim-id`,
    );
    await expect(refuseClaimIdReuse(verdicts, client, { runId, claimId, claim: first.claim })).resolves.toBeUndefined();
    // Another claim id of the same run, and the same claim id in another run, are free.
    await expect(refuseClaimIdReuse(verdicts, client, { ...other, claimId: `${claimId}x` })).resolves.toBeUndefined();
    await expect(refuseClaimIdReuse(verdicts, client, { ...other, runId: `${runId}x` })).resolves.toBeUndefined();
  });
});
