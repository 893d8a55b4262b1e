import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildVerifyInput, startVerification } from '../../src/client/start-verification';
import { ingestCorpus } from '../../src/corpus/ingest';
import { WEB_TARGET, webIndexName } from '../../src/search/web-index';
import { fullVerdict } from '../../src/shared/verify';
import { DEMO_CORPUS } from '../support/test-env';
import { startWorkerHarness, type WorkerHarness } from '../support/worker-harness';

/**
 * gpt-5-mini verifications through real Temporal and Elasticsearch against the simulator playing
 * OpenAI's reasoning models (`openai-reasoning`: max_tokens and temperature ≠ 1 refused with OpenAI's
 * 400s, reasoning within max_completion_tokens, reasoning_tokens in the usage).
 */
describe('gpt-5-mini against the openai-reasoning profile', () => {
  let harness: WorkerHarness;
  beforeAll(async () => {
    harness = await startWorkerHarness('reasoning', { simulator: { profile: 'openai-reasoning' }, env: { VERITY_MODEL: 'gpt-5-mini' } });
    await ingestCorpus({ client: harness.es, index: webIndexName(harness.prefix), file: DEMO_CORPUS, target: WEB_TARGET });
  });
  afterAll(async () => {
    await harness?.close();
  });

  const refusals = () => harness.simulator.requests().filter((r) => r.path === '/v1/chat/completions' && r.status !== 200);

  it.each(['rag', 'mermaid'] as const)('%s ends in a verdict with the reasoning tokens in its usage, no request refused', async (method) => {
    const { config, client } = harness;
    const input = buildVerifyInput(config, { claim: 'Marie Curie was born in Warsaw in 1867.', method, runId: `${harness.prefix}-${method}` });
    const { handle } = await startVerification(client, config.temporal.taskQueue, input);
    const verdict = fullVerdict(await handle.result());
    expect(verdict.label).toMatch(/^(SUPPORTED|REFUTED|NOT ENOUGH INFO|NEI)/);
    expect(verdict.model).toBe('gpt-5-mini');
    expect(verdict.usage.reasoningTokens).toBeGreaterThan(0);
    expect(verdict.usage.completionTokens).toBeGreaterThan(verdict.usage.reasoningTokens!);
    expect(verdict.usage.invalidAnswers ?? 0).toBe(0);
    expect(refusals()).toEqual([]);
  });
});
