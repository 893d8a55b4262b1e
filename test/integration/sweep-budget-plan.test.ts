import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client as EsClient } from '@elastic/elasticsearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestCorpus } from '../../src/corpus/ingest';
import { createEsClient } from '../../src/es/client';
import { indexName } from '../../src/es/indices';
import { runCli } from '../support/cli-process';
import { DEMO_CLAIMS, DEMO_CORPUS, deleteIndicesWithPrefix, uniqueName } from '../support/test-env';

/**
 * `sweep run` with a budget reserves the plan's per-claim estimate (`sweep plan`: earlier runs or a
 * pilot on the embedded simulator) before any verification has finished (issue 39 item 4): a
 * budget far below one verification's estimate starts nothing and says so, instead of running the
 * first verification alone and going over by its whole spend.
 */
describe('sweep run: a budget below the plan\'s per-claim estimate (CLI against real Temporal + Elasticsearch)', () => {
  const prefix = uniqueName('budget-plan');
  const env = { ES_INDEX_PREFIX: prefix, TEMPORAL_TASK_QUEUE: prefix };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-budget-plan-'));
  let es: EsClient;

  beforeAll(async () => {
    es = createEsClient({ url: process.env.ES_URL ?? 'http://127.0.0.1:9200' });
    await ingestCorpus({ client: es, index: indexName(prefix, 'wiki'), file: DEMO_CORPUS });
  });

  afterAll(async () => {
    await deleteIndicesWithPrefix(es, prefix);
    await es.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('starts nothing, pays nothing and says why', async () => {
    const run = uniqueName('r');
    const file = path.join(dir, 'sweep.yaml');
    fs.writeFileSync(file, `run: ${run}\ndatasets:\n  - { name: demo, file: ${DEMO_CLAIMS}, format: verity }\nmethods: [rag]\nmodels: [gpt-4o-mini]\nconcurrency: 8\nbudget: { tokens: 50 }\n`);
    try {
      const result = await runCli(['sweep', 'run', file], env, 500_000);
      expect(result.stderr).toMatch(/budget: each verification reserves the plan's about [\d,]+ tokens( \(\$[\d.]+\))? until one has finished/);
      expect(result.stderr).toMatch(/nothing started: one verification is planned at about [\d,]+ tokens( \(\$[\d.]+\))?, more than the budget \(50 tokens\) holds/);
      expect(result.stderr).toMatch(/0\/10 verifications .* 0 running, budget-exhausted/);
      expect(result.stderr).toMatch(/budget exhausted: raise it/);
      const verdicts = indexName(prefix, 'verdicts');
      if (await es.indices.exists({ index: verdicts })) {
        await es.indices.refresh({ index: verdicts });
        expect((await es.count({ index: verdicts, query: { term: { runId: run } } })).count).toBe(0);
      }
    } finally {
      await runCli(['sweep', 'cancel', run], env);
    }
  }, 600_000);
});
