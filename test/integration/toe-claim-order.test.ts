import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client as EsClient } from '@elastic/elasticsearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { ingestCorpus } from '../../src/corpus/ingest';
import { createEsClient } from '../../src/es/client';
import { indexName } from '../../src/es/indices';
import { ToeEpisodeStore, toeEpisodesIndex } from '../../src/methods/toe/episode-store';
import { PolicyVersionStore, toePolicyVersionsIndex } from '../../src/methods/toe/online/policy-version-store';
import { WEB_TARGET } from '../../src/search/web-index';
import { runCli } from '../support/cli-process';
import { DEMO_CLAIMS, DEMO_CORPUS, deleteIndicesWithPrefix, uniqueName } from '../support/test-env';

interface ClaimOrderVerdict {
  claimId: string;
  workflowId: string;
  trace: { online: { scope: string; actedWith: string | null; claimOrder?: { position: number; versionSeq: number | null } } };
}

const WEB_PAGES = [
  { id: 'web:eiffel', url: 'https://www.toureiffel.paris/en/history', title: 'History of the Eiffel Tower', text: "The Eiffel Tower was completed in 1889 as the entrance arch to the World's Fair in Paris." },
  { id: 'web:curie', url: 'https://www.nobelprize.org/curie', title: 'Marie Curie', text: 'Marie Curie won the Nobel Prize in Physics in 1903 and in Chemistry in 1911.' },
];

/**
 * ToE's online policy in a sweep (eval/sweeps/toe.yaml's `policy: online`) on the claim-order
 * schedule: the same 6 claims run at concurrency 1 and at concurrency 4 against real Temporal and
 * Elasticsearch with the simulator. Warm-up 2, 2 claims per version: positions 0-1 act with the
 * heuristic, 2-3 with version 0 (fitted on 0-1), 4-5 with version 1 (trained on 2-3), in both runs.
 */
describe('ToE online policy by claim order', () => {
  const prefix = uniqueName('toeorder');
  const env = { ES_INDEX_PREFIX: prefix, TEMPORAL_TASK_QUEUE: prefix, VERITY_WEB_SEARCH_PROVIDER: 'recorded' };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-toeorder-'));
  let es: EsClient;

  const config = (runId: string, concurrency: number): string => {
    const file = path.join(dir, `${runId}.yaml`);
    const toe = { maxIterations: 1, maxSearchSteps: 1, policy: 'online', sampling: 'sample', online: { warmupClaims: 2, groupSize: 2, claimsPerVersion: 2 } };
    fs.writeFileSync(
      file,
      YAML.stringify({ run: runId, datasets: [{ name: 'demo', file: DEMO_CLAIMS, format: 'verity', sample: 6 }], methods: ['toe'], models: ['gpt-4o-mini'], parameters: { toe }, seed: 7, concurrency, ordered: false }),
    );
    return file;
  };

  async function verdictsOf(runId: string): Promise<ClaimOrderVerdict[]> {
    await es.indices.refresh({ index: indexName(prefix, 'verdicts') });
    const response = await es.search<ClaimOrderVerdict>({ index: indexName(prefix, 'verdicts'), size: 100, query: { term: { runId } } });
    return response.hits.hits.map((hit) => hit._source!).sort((a, b) => a.trace.online.claimOrder!.position - b.trace.online.claimOrder!.position);
  }

  beforeAll(async () => {
    es = createEsClient({ url: process.env.ES_URL ?? 'http://127.0.0.1:9200' });
    await ingestCorpus({ client: es, index: indexName(prefix, 'wiki'), file: DEMO_CORPUS });
    const web = path.join(dir, 'web.jsonl');
    fs.writeFileSync(web, WEB_PAGES.map((p) => JSON.stringify({ ...p, sentences: null, source: 'toe_order_web' })).join('\n') + '\n');
    await ingestCorpus({ client: es, index: indexName(prefix, 'web'), file: web, target: WEB_TARGET });
  });

  afterAll(async () => {
    await deleteIndicesWithPrefix(es, prefix);
    await es.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('records the same policy version per claim at concurrency 1 and 4, each trained on the same claims', async () => {
    const runs = [
      { runId: uniqueName('toe-c1'), concurrency: 1 },
      { runId: uniqueName('toe-c4'), concurrency: 4 },
    ];
    for (const run of runs) {
      const result = await runCli(['sweep', 'run', config(run.runId, run.concurrency)], env, 900_000);
      expect(result.code, result.stderr).toBe(0);
    }
    const versions = new PolicyVersionStore(es, toePolicyVersionsIndex(prefix));
    const episodes = new ToeEpisodeStore(es, toeEpisodesIndex(prefix));
    const recorded = [];
    for (const { runId } of runs) {
      const verdicts = await verdictsOf(runId);
      expect(verdicts).toHaveLength(6);
      const scope = verdicts[0]!.trace.online.scope;
      expect(scope).toBe(`run:${runId}/model:gpt-4o-mini`);
      const history = await versions.versions(scope);
      // Each claim acted with the stored version of its seq (null: the warm-up heuristic), and its episodes say so.
      const scopeEpisodes = await episodes.ofLearner(scope);
      for (const verdict of verdicts) {
        const { versionSeq } = verdict.trace.online.claimOrder!;
        expect(verdict.trace.online.actedWith).toBe(versionSeq === null ? null : history.find((v) => v.seq === versionSeq)!.version);
        const own = scopeEpisodes.filter((e) => e.workflowId === verdict.workflowId);
        expect(own.length).toBeGreaterThan(0);
        for (const episode of own) expect(episode.policyVersion).toBe(verdict.trace.online.actedWith ?? undefined);
      }
      recorded.push({
        byClaim: verdicts.map((v) => [v.claimId, v.trace.online.claimOrder!.position, v.trace.online.claimOrder!.versionSeq]),
        trainedOn: history.filter((v) => v.seq <= 1).map((v) => [v.seq, v.update, v.trainedOnPositions]),
      });
    }
    expect(recorded[0]!.byClaim.map(([, position, seq]) => [position, seq])).toEqual([
      [0, null],
      [1, null],
      [2, 0],
      [3, 0],
      [4, 1],
      [5, 1],
    ]);
    expect(recorded[1]).toEqual(recorded[0]);
    expect(recorded[0]!.trainedOn).toEqual([
      [0, 'warmup-clone', { from: 0, to: 2 }],
      [1, 'grpo', { from: 2, to: 4 }],
    ]);
  }, 1_800_000);
});
