import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { WorkflowFailedError } from '@temporalio/client';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildSweepInput, startSweep } from '../../src/client/start-sweep';
import { buildVerifyInput, startVerification } from '../../src/client/start-verification';
import { ingestCorpus } from '../../src/corpus/ingest';
import { isNoAnswerFallback } from '../../src/report/unanswered-claims';
import { runConfigSchema } from '../../src/runs/run-manifest';
import { runVerdictSchema } from '../../src/runs/run-records';
import { WEB_TARGET, webIndexName } from '../../src/search/web-index';
import type { MethodName } from '../../src/shared/constants';
import { failureType } from '../../src/shared/failure';
import { REASK_SUFFIX } from '../../src/shared/invalid-answer';
import type { MethodSettings } from '../../src/shared/method-settings';
import { spentBeforeLimit, LIMIT_REACHED_TYPE, type VerificationLimits } from '../../src/shared/verification-limits';
import { fullVerdict, type Verdict } from '../../src/shared/verify';
import type { FaultRule } from '../../src/simulator/faults';
import { DEMO_CLAIMS, uniqueName } from '../support/test-env';
import { waitFor } from '../support/wait-for';
import { startWorkerHarness, type WorkerHarness } from '../support/worker-harness';
import { sweepProgressQuery } from '../../src/shared/definitions/sweep';

const WEB_PAGES = [
  { id: 'web:eiffel', title: 'Eiffel Tower history', text: "The Eiffel Tower was completed in 1889 as the entrance arch to the World's Fair in Paris, France.", sentences: null, source: 'test-web' },
  { id: 'web:bread', title: 'Sourdough bread', text: 'Sourdough bread is leavened with wild yeast and lactic acid bacteria.', sentences: null, source: 'test-web' },
];

/** Every model request answers with broken JSON, as `verity sim --fault malformed:1`. */
const ALL_MALFORMED: FaultRule[] = [{ kind: 'malformed', probability: 1 }];

interface InvalidAnswerTrace {
  invalidAnswers?: { step: string; problem: string; fallback: string }[];
}

describe('invalid LLM answers: counted, and handled as each method does (real Temporal and Elasticsearch, simulator)', () => {
  let harness: WorkerHarness;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-invalid-'));

  beforeAll(async () => {
    harness = await startWorkerHarness('invalid');
    const file = path.join(tmp, 'web.jsonl');
    fs.writeFileSync(file, WEB_PAGES.map((page) => JSON.stringify(page)).join('\n'));
    await ingestCorpus({ client: harness.es, index: webIndexName(harness.prefix), file, target: WEB_TARGET });
    await harness.es.indices.refresh({ index: webIndexName(harness.prefix) });
  });

  beforeEach(() => harness.simulator.setFaults([]));

  afterAll(async () => {
    await harness?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  async function verify(claim: string, method: MethodName, options: { settings?: MethodSettings; limits?: VerificationLimits; retryBudgetMs?: number } = {}) {
    const input = buildVerifyInput(harness.config, { claim, method, ...(options.settings ? { settings: options.settings } : {}) });
    const start = options.retryBudgetMs ? { retryBudgetMs: options.retryBudgetMs } : {};
    const { handle } = await startVerification(harness.client, harness.config.temporal.taskQueue, { ...input, ...(options.limits ? { limits: options.limits } : {}) }, start);
    return { handle, result: handle.result() };
  }

  async function verdictOf(claim: string, method: MethodName, settings?: MethodSettings): Promise<Verdict> {
    const { result } = await verify(claim, method, settings ? { settings } : {});
    return fullVerdict(await result);
  }

  /** Paid, invalid calls are in the usage with their tokens, seed and prompt version. */
  function expectPaidInvalidCalls(verdict: Verdict, promptVersion: RegExp): void {
    expect(verdict.usage.llmCalls).toBeGreaterThan(0);
    expect(verdict.usage.invalidAnswers).toBe(verdict.usage.llmCalls);
    expect(verdict.usage.totalTokens).toBeGreaterThan(0);
    expect(verdict.seed).toBe(harness.config.llm.seed);
    expect(verdict.promptVersion).toMatch(promptVersion);
    const calls = verdict.transcript?.llmCalls ?? [];
    expect(calls.length).toBe(verdict.usage.llmCalls);
    for (const call of calls) {
      expect(call).toMatchObject({ invalid: true, cached: false, seed: harness.config.llm.seed, rawExcerpt: expect.stringContaining('<<truncated') });
      expect(call.promptTokens).toBeGreaterThan(0);
    }
  }

  it('FIRE: every paid invalid answer counts (22 calls: 11 tries per step and for the final answer)', async () => {
    harness.simulator.setFaults(ALL_MALFORMED);
    const verdict = await verdictOf('The Eiffel Tower was completed in 1889.', 'fire', { fire: { maxSteps: 1 } });
    expect(verdict).toMatchObject({ label: 'NEI', methodLabel: 'failed' });
    expect(verdict.usage.llmCalls).toBe(22);
    expectPaidInvalidCalls(verdict, /fire\.step@.*fire\.finalAnswer@|fire\.finalAnswer@.*fire\.step@/);
  });

  it.each([
    ['fire', 'The Eiffel Tower was completed in 1890.'],
    ['mermaid', 'The Eiffel Tower was completed in 1892.'],
  ] as const)('%s: a token limit stops a verification whose answers are all invalid, with their spend', async (method, claim) => {
    harness.simulator.setFaults(ALL_MALFORMED);
    const { result } = await verify(claim, method, { limits: { tokens: 50 } });
    const err = await result.then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(err).toBeInstanceOf(WorkflowFailedError);
    expect(failureType(err as WorkflowFailedError)).toBe(LIMIT_REACHED_TYPE);
    expect(spentBeforeLimit(err)?.tokens).toBeGreaterThanOrEqual(50);
  });

  it('a verification that fails after paying for an invalid answer carries its spend (a sweep budget counts it), the cause kept', async () => {
    // The verdict answer is invalid once; the re-ask (its correction says "not valid") meets an outage past the retry budget.
    harness.simulator.setFaults([
      { kind: 'malformed', match: '"rag_verdict_rationale_first"', times: 1 },
      { kind: '500', match: 'Your previous answer was not valid' },
    ]);
    const { result } = await verify('Madrid is the capital of Spain.', 'rag', { retryBudgetMs: 1_000 });
    const err = await result.then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(err).toBeInstanceOf(WorkflowFailedError);
    expect(failureType(err as WorkflowFailedError)).toBe('LlmServerError');
    expect(spentBeforeLimit(err)?.tokens).toBeGreaterThan(0);
  });

  it('MERMAID: each invalid answer uses up a step and counts as a paid call', async () => {
    harness.simulator.setFaults(ALL_MALFORMED);
    const verdict = await verdictOf('The Eiffel Tower was completed in 1891.', 'mermaid');
    expectPaidInvalidCalls(verdict, /mermaid\./);
    // Its label is the default fallback, which the report must not score as an answer (issue 37 §2.1).
    expect(isNoAnswerFallback(runVerdictSchema.parse(verdict))).toBe(true);
  });

  it('a FIRE sweep whose answers are all invalid stops at its token budget', async () => {
    harness.simulator.setFaults(ALL_MALFORMED);
    const run = runConfigSchema.parse({
      run: uniqueName('invalid-budget'),
      datasets: [{ name: 'demo', file: DEMO_CLAIMS, format: 'verity' }],
      methods: ['fire'],
      models: ['gpt-4o-mini'],
      concurrency: 1,
      budget: { tokens: 10 },
    });
    const { handle } = await startSweep(harness.client, harness.config.temporal.taskQueue, buildSweepInput(harness.config, run, tmp));
    await waitFor('the budget to run out', async () => {
      const progress = await handle.query(sweepProgressQuery);
      return progress.status === 'budget-exhausted' && progress.running === 0;
    });
    const progress = await handle.query(sweepProgressQuery);
    expect(progress.tokens).toBeGreaterThan(10);
    expect(progress.done).toBeLessThan(progress.total);
    await handle.terminate('test done');
  });

  it('rag: an invalid verdict is asked again with a correction (a new request) and the second answer is used', async () => {
    harness.simulator.setFaults([{ kind: 'malformed', match: '"rag_verdict_rationale_first"', times: 1 }]);
    const verdict = await verdictOf('Paris is the capital of France.', 'rag');
    expect(verdict.rationale).not.toMatch(/no valid answer/);
    expect(verdict.usage).toMatchObject({ llmCalls: 2, invalidAnswers: 1 });
    const [first, second] = verdict.transcript!.llmCalls;
    expect(first).toMatchObject({ invalid: true });
    expect(second).toMatchObject({ summary: expect.stringContaining(REASK_SUFFIX) });
    expect(second!.invalid).toBeUndefined();
    expect(second!.requestHash).not.toBe(first!.requestHash);
  });

  it('rag: still invalid when asked again, the verdict is NEI with "no valid answer", recorded in the trace', async () => {
    harness.simulator.setFaults([{ kind: 'malformed', match: '"rag_verdict_rationale_first"' }]);
    const verdict = await verdictOf('Berlin is the capital of France.', 'rag');
    expect(verdict).toMatchObject({ label: 'NEI', rationale: expect.stringMatching(/^no valid answer/) });
    expect(verdict.usage).toMatchObject({ llmCalls: 2, invalidAnswers: 2 });
    expect((verdict.trace as InvalidAnswerTrace).invalidAnswers).toEqual([{ step: 'verdict', problem: expect.any(String), fallback: 'NEI' }]);
    expect(isNoAnswerFallback(runVerdictSchema.parse(verdict))).toBe(true);
  });

  it('EMULATE: an invalid classifier answer is False at once, as its released code reads anything but "true"', async () => {
    harness.simulator.setFaults([{ kind: 'malformed', match: '"emulate_classify"' }]);
    const verdict = await verdictOf("The Eiffel Tower was completed in 1889 as the entrance arch to the World's Fair in Paris.", 'emulate');
    expect(verdict).toMatchObject({ label: 'REFUTED', methodLabel: 'false' });
    expect(verdict.usage.invalidAnswers).toBe(1);
    expect((verdict.trace as InvalidAnswerTrace).invalidAnswers).toEqual([{ step: 'classifier', problem: expect.any(String), fallback: 'False' }]);
    expect(verdict.transcript!.llmCalls.filter((call) => call.summary.includes(REASK_SUFFIX))).toHaveLength(0);
  });

  it('Tool-MAD: debaters without a valid answer abstain; a judge without one falls back to the stability scores (NEI: nobody has a label)', async () => {
    harness.simulator.setFaults([
      { kind: 'malformed', match: '"tool_mad_answer"' },
      { kind: 'malformed', match: '"tool_mad_judge"' },
    ]);
    const verdict = await verdictOf("The Eiffel Tower was completed in 1889 as the entrance arch to the World's Fair in Paris.", 'tool-mad', { 'tool-mad': { maxRounds: 1 } });
    expect(verdict).toMatchObject({ label: 'NEI', rationale: expect.stringMatching(/^no valid answer/) });
    const trace = verdict.trace as unknown as { decidedBy: string; judge: { invalidAnswer?: string }; rounds: { turns: { label: string | null }[] }[] };
    expect(trace.decidedBy).toBe('judge');
    expect(trace.judge.invalidAnswer).toEqual(expect.any(String));
    expect(trace.rounds[0]!.turns.map((turn) => turn.label)).toEqual([null, null]);
    expect(isNoAnswerFallback(runVerdictSchema.parse(verdict))).toBe(true);
    // Two debaters (each asked twice), and the judge (asked twice).
    expect(verdict.usage.invalidAnswers).toBe(6);
  });

  it('ToE: a document analysis without a valid answer leaves that evidence unverified; the tree still ends in a verdict', async () => {
    harness.simulator.setFaults([{ kind: 'malformed', match: '"toe_analysis"' }]);
    const verdict = await verdictOf("The Eiffel Tower was completed in 1889 as the entrance arch to the World's Fair in Paris.", 'toe', {
      toe: { maxIterations: 1, minIterations: 1, maxSearchSteps: 1 },
    });
    expect(['SUPPORTED', 'REFUTED', 'NEI']).toContain(verdict.label);
    const nodes = (verdict.trace as unknown as { nodes: { invalidAnswers?: { fallback: string }[]; evidence?: { relevance: number }[] }[] }).nodes;
    const withFallbacks = nodes.filter((node) => node.invalidAnswers && node.invalidAnswers.length > 0);
    expect(withFallbacks.length).toBeGreaterThan(0);
    for (const node of withFallbacks) {
      expect(node.invalidAnswers!.every((fallback) => fallback.fallback.startsWith('unverified'))).toBe(true);
      expect(node.evidence!.every((item) => item.relevance === 0)).toBe(true);
    }
    expect(verdict.usage.invalidAnswers).toBe(2 * withFallbacks.reduce((n, node) => n + node.invalidAnswers!.length, 0));
  });
});
