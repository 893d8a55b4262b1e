import type { RunManifest } from '../../src/runs/run-manifest';
import type { RunFailure, RunRecords, RunVerdict } from '../../src/runs/run-records';
import type { GoldLabels } from '../../src/report';

/** Hand-made runs for report and diff tests. */
export function manifest(runId: string, overrides: Partial<RunManifest> = {}): RunManifest {
  return {
    schemaVersion: 1,
    runId,
    config: {
      run: runId,
      datasets: [
        { name: 'hover', file: 'hover.jsonl', format: 'auto', sha256: 'abc123' },
        { name: 'factcheck_bench', file: 'factcheckbench.jsonl', format: 'auto' },
      ],
      methods: ['rag'],
      models: ['m1'],
      parameters: {},
      seed: 7,
      concurrency: 2,
      ordered: false,
      budget: {},
    },
    status: 'completed',
    gitCommit: 'deadbeef',
    datasetHashes: { hover: 'abc123' },
    modelIds: ['m1'],
    promptVersions: ['rag.verdict@1'],
    llmProvider: 'simulator',
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:10:00.000Z',
    ...overrides,
  };
}

export function verdict(claimId: string, label: string, overrides: Partial<RunVerdict> = {}): RunVerdict {
  return {
    workflowId: `verify/r/${claimId}/rag`,
    runId: 'r',
    claimId,
    dataset: 'hover',
    method: 'rag',
    model: 'm1',
    claim: `claim ${claimId}`,
    label,
    promptVersion: 'rag.verdict@1',
    usage: { llmCalls: 1, cachedLlmCalls: 0, toolCalls: 2, promptTokens: 100, completionTokens: 20, totalTokens: 120, costUsd: 0.001, invalidAnswers: 0, formatFallbacks: 0, trimmedPrompts: 0 },
    durationMs: 100,
    ...overrides,
  };
}

/** hover (binary): c1 ✓, c2 ✗, c3 ✓, c4 NEI→REFUTED ✓, c5 unparseable; c6 failed. factcheck_bench: f1 gold NEI (unscored). */
export function runA(): RunRecords {
  const failures: RunFailure[] = [{ runId: 'run-a', claimId: 'c6', dataset: 'hover', reason: 'LLM output invalid after 3 attempts' }];
  return {
    manifest: manifest('run-a'),
    verdicts: [
      verdict('c1', 'SUPPORTED', { durationMs: 100 }),
      verdict('c2', 'REFUTED', { durationMs: 200 }),
      verdict('c3', 'REFUTED', { durationMs: 300 }),
      verdict('c4', 'NEI', { durationMs: 400 }),
      verdict('c5', 'MAYBE?', { durationMs: 500 }),
      verdict('f1', 'SUPPORTED', { dataset: 'factcheck_bench' }),
    ],
    claims: [],
    failures,
    warnings: [],
  };
}

export function goldLabels(): GoldLabels {
  return new Map<string, string | boolean>([
    ['c1', 'SUPPORTED'],
    ['c2', 'SUPPORTED'],
    ['c3', 'NOT_SUPPORTED'],
    ['c4', 'NOT_SUPPORTED'],
    ['c5', 'NOT_SUPPORTED'],
    ['c6', 'SUPPORTED'],
    ['c7', 'SUPPORTED'],
    ['f1', 'not_enough_evidence'],
  ]);
}

/** Run B: c2 becomes correct, c3 becomes incorrect, c5 is fixed, c1 disappears, c7 appears, c6 succeeds. */
export function runB(): RunRecords {
  const costly = { llmCalls: 3, cachedLlmCalls: 1, toolCalls: 4, promptTokens: 300, completionTokens: 60, totalTokens: 360, costUsd: 0.004, invalidAnswers: 1, formatFallbacks: 2, trimmedPrompts: 1 };
  return {
    manifest: manifest('run-b', { llmProvider: 'openai-compatible' }),
    verdicts: [
      verdict('c2', 'SUPPORTED', { usage: costly }),
      verdict('c3', 'SUPPORTED'),
      verdict('c4', 'NEI'),
      verdict('c5', 'REFUTED'),
      verdict('c6', 'SUPPORTED'),
      verdict('c7', 'SUPPORTED'),
      verdict('f1', 'SUPPORTED', { dataset: 'factcheck_bench' }),
    ],
    claims: [],
    failures: [],
    warnings: [],
  };
}
