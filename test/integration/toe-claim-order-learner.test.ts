import type { Client as EsClient } from '@elastic/elasticsearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEsClient } from '../../src/es/client';
import { ToeEpisodeStore, toeEpisodesIndex } from '../../src/methods/toe/episode-store';
import { ClaimOrderLearner, type ClaimOrderSchedule } from '../../src/methods/toe/online/claim-order-learner';
import { PolicyVersionStore, toePolicyVersionsIndex } from '../../src/methods/toe/online/policy-version-store';
import { loadLearnedPolicy } from '../../src/methods/toe/policy/learned-policy';
import { deleteIndicesWithPrefix, uniqueName } from '../support/test-env';

/**
 * The claim-order learner's ledger in Elasticsearch: a version is built only when every claim of its
 * block finished or failed for good, and a claim waits for its version. Claims here log no episodes,
 * so version 0 is the starting weights and a later version carries its parent's weights.
 */
describe('ToE claim-order learner', () => {
  const prefix = uniqueName('toelearner');
  let es: EsClient;
  let versions: PolicyVersionStore;
  let learner: ClaimOrderLearner;
  const failed = new Set<number>();
  const schedule: ClaimOrderSchedule = { scope: 'run:r/model:m', warmupClaims: 2, claimsPerVersion: 2, groupSize: 2, failedPositions: () => Promise.resolve(failed) };
  const finish = (position: number, actedWith: string | null = null) => learner.claimFinished(schedule, { verificationId: `verify/r/c${position}`, position, actedWith });

  beforeAll(() => {
    es = createEsClient({ url: process.env.ES_URL ?? 'http://127.0.0.1:9200' });
    versions = new PolicyVersionStore(es, toePolicyVersionsIndex(prefix));
    learner = new ClaimOrderLearner(versions, new ToeEpisodeStore(es, toeEpisodesIndex(prefix)));
  });

  afterAll(async () => {
    await deleteIndicesWithPrefix(es, prefix);
    await es.close();
  });

  it('builds version 0 once the warm-up block has finished, a failed claim counting as finished', async () => {
    expect(await finish(0)).toEqual([]);
    expect(await versions.versions(schedule.scope)).toEqual([]);
    failed.add(1);
    expect(await learner.buildDue(schedule)).toEqual([0]);
    const [zero] = await versions.versions(schedule.scope);
    expect(zero).toMatchObject({ seq: 0, update: 'warmup-clone', version: loadLearnedPolicy().version, trainedOnPositions: { from: 0, to: 2 }, clonedFrom: [] });
  });

  it('a claim of the next block acts with version 0 at once; one after it waits until its block has finished', async () => {
    const start = loadLearnedPolicy().version;
    expect(await learner.actingVersion(schedule, 3, () => Promise.reject(new Error('must not wait')))).toEqual({ seq: 0, version: start });
    let waits = 0;
    const acting = await learner.actingVersion(schedule, 4, async () => {
      waits += 1;
      await finish(waits + 1, start);
    });
    // Positions 2 and 3 finish during the first two waits; the second finish builds version 1.
    expect(waits).toBe(2);
    expect(acting).toEqual({ seq: 1, version: start });
    const one = (await versions.versions(schedule.scope)).find((v) => v.seq === 1);
    expect(one).toMatchObject({ update: 'grpo', parentVersion: start, episodeIds: [], trainedOnPositions: { from: 2, to: 4 } });
  });
});
