import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fullVerdict } from '../../src/shared/verify';
import { buildVerifyInput, startVerification } from '../../src/client/start-verification';
import type { MethodSettings } from '../../src/shared/method-settings';
import { stableIndex } from '../../src/simulator/schema-generator';
import { loadDataset } from '../../src/datasets';
import { ingestRecordedWeb } from '../support/recorded-web';
import { SHARED_DATA } from '../support/test-env';
import { startWorkerHarness, type WorkerHarness } from '../support/worker-harness';
import { expectTaskQueueReplays, scheduledActivities } from '../support/workflow-history';
import { LlmCache } from '../../src/llm/cache';
import { FIRE_RELEASED_COMMIT } from '../../src/methods/fire/sandbox/released-prompts';

const WEB = path.join(SHARED_DATA, 'corpus', 'web_factcheckbench.jsonl');

interface FireTrace {
  method: 'fire';
  steps: { step: number; attempts: number; decision: string; answer?: boolean; query?: string; similarity?: number }[];
  searches: string[];
  stop: string;
  forcedFinalAttempts?: number;
  final: boolean | null;
}

describe('fire on real Temporal and Elasticsearch (recorded web, simulator)', () => {
  let harness: WorkerHarness;
  const verify = async (claim: string, settings?: MethodSettings['fire']) => {
    const input = buildVerifyInput(harness.config, { claim, method: 'fire', ...(settings ? { settings: { fire: settings } } : {}) });
    const { handle } = await startVerification(harness.client, harness.config.temporal.taskQueue, input);
    const verdict = fullVerdict(await handle.result());
    return { verdict, trace: verdict.trace as unknown as FireTrace, handle };
  };

  beforeAll(async () => {
    harness = await startWorkerHarness('fire');
    await ingestRecordedWeb(harness, WEB);
  });

  afterAll(async () => {
    await harness?.close();
  });

  it('searches once, then answers with confidence; the verdict cites the search result', async () => {
    const { verdict, trace, handle } = await verify('Justice William O. Douglas was born on October 16, 1898.');
    expect(trace).toMatchObject({ method: 'fire', stop: 'answered', searches: [expect.any(String)] });
    expect(trace.steps.map((s) => s.decision)).toEqual(['search', 'answer']);
    expect(trace.steps[1]).toMatchObject({ confidence: expect.any(Number) });
    expect(verdict.label).toBe(trace.final ? 'SUPPORTED' : 'REFUTED');
    expect(verdict.usage).toMatchObject({ llmCalls: 2, toolCalls: 1 });
    expect(verdict.evidence[0]?.text).toMatch(/Douglas/);
    // No similarity check: the first query had nothing to repeat and the second step answered.
    const activities = await scheduledActivities(handle);
    expect(activities).toMatchObject({ llmTask: 2, 'tools.web_search': 1 });
    expect(activities.fireTextSimilarity).toBeUndefined();
    expect((await harness.deps.verdicts.get(handle.workflowId))?.trace).toEqual(verdict.trace);
  });

  it('stops early on a repeated query or repeated results (embedding similarity activity), then forces an answer', async () => {
    // BingCheck claims find little in the Factcheck-Bench recorded web: FIRE keeps searching.
    const claims = (await loadDataset(path.join(SHARED_DATA, 'dev', 'bingcheck.jsonl'))).claims.slice(0, 10);
    const runs = await Promise.all(claims.map((c) => verify(c.claim)));
    for (const { verdict, trace } of runs) {
      expect(trace.searches.length).toBeLessThanOrEqual(5);
      expect(verdict.usage.toolCalls).toBe(trace.searches.length);
      expect(verdict.usage.llmCalls).toBe(trace.steps.reduce((n, s) => n + s.attempts, 0) + (trace.forcedFinalAttempts ?? 0));
      if (trace.stop !== 'answered') expect(trace.forcedFinalAttempts).toBeGreaterThanOrEqual(1);
    }
    const stops = new Set(runs.map((r) => r.trace.stop));
    expect(stops).toContain('max-steps');
    expect(stops).toContain('similar-results');
    const early = runs.find((r) => r.trace.stop === 'similar-results')!;
    expect(early.trace.steps.at(-1)!.similarity).toBeGreaterThan(0.9);
    expect((await scheduledActivities(early.handle)).fireTextSimilarity).toBeGreaterThan(0);
  });

  it('maxSteps bounds the searches and leads to the forced final answer', async () => {
    const { trace, verdict } = await verify('Ocean energy can be produced in various forms such as wave power and tidal power.', { maxSteps: 1 });
    expect(trace).toMatchObject({ stop: 'max-steps', forcedFinalAttempts: 1 });
    expect(trace.searches).toHaveLength(1);
    expect(verdict.usage.llmCalls).toBe(2);
  });

  it('with similarity off it searches up to maxSteps; lexical similarity needs no activity', async () => {
    // bingcheck-2 finds nothing decisive and its queries never repeat: without the early stop it uses every step.
    const { claims } = await loadDataset(path.join(SHARED_DATA, 'dev', 'bingcheck.jsonl'));
    const claim = claims.find((c) => c.id === 'bingcheck-2')!.claim;
    const off = await verify(claim, { similarity: 'off' });
    expect(off.trace).toMatchObject({ stop: 'max-steps' });
    expect(off.trace.searches).toHaveLength(5);
    expect((await scheduledActivities(off.handle)).fireTextSimilarity).toBeUndefined();
    const lexical = await verify(claim, { similarity: 'lexical', maxSteps: 3 });
    expect(lexical.trace.searches.length).toBeLessThanOrEqual(3);
    expect((await scheduledActivities(lexical.handle)).fireTextSimilarity).toBeUndefined();
  });

  it('retries a step whose answer cannot be read, and gives up after maxRetries + 1 tries', async () => {
    const claims = (await loadDataset(path.join(SHARED_DATA, 'dev', 'factool_qa.jsonl'))).claims;
    // The simulator answers the first try of these claims with an unreadable final_answer.
    const unreadable = claims.find((c) => stableIndex(`unreadable ${c.claim}`, 9) === 0)!;
    const retried = await verify(unreadable.claim);
    expect(retried.trace.steps[0]).toMatchObject({ attempts: 2 });
    const givenUp = await verify(unreadable.claim, { maxRetries: 0 });
    expect(givenUp.trace).toMatchObject({ stop: 'unreadable', searches: [], steps: [{ decision: 'unreadable', attempts: 1 }] });
    expect(givenUp.trace.forcedFinalAttempts).toBe(1);
  });

  it('with releasedPrompts sends its system prompt and template as given, re-sends the same prompt on each retry, and gives up as the code', async () => {
    const claim = 'Justice William O. Douglas was born on October 16, 1898.';
    const releasedPrompts = { commit: FIRE_RELEASED_COMMIT, system: 'SYS', step: ' \nStep. K: [KNOWLEDGE]\nS: [STATEMENT]\n', final: 'Final. K: [KNOWLEDGE]\nS: [STATEMENT]' };
    const { verdict, trace } = await verify(claim, { releasedPrompts, maxRetries: 1 });
    // The simulator's prose holds no JSON: the step is tried maxRetries + 1 times, then the forced answer likewise.
    expect(trace).toMatchObject({ stop: 'unreadable', searches: [], steps: [{ decision: 'unreadable', attempts: 2 }], forcedFinalAttempts: 2, final: null });
    expect(verdict).toMatchObject({ label: 'NEI', methodLabel: 'failed' });
    const cache = new LlmCache(harness.deps.es, harness.config.elasticsearch.indexPrefix, 'readwrite');
    const calls = verdict.transcript!.llmCalls;
    expect(calls.map((c) => c.task)).toEqual(['fire.released.step', 'fire.released.step', 'fire.released.finalAnswer', 'fire.released.finalAnswer']);
    // The same request each try: the second is the first's cached answer.
    expect(calls[1]!.requestHash).toBe(calls[0]!.requestHash);
    expect((await cache.get(calls[0]!.requestHash!))?.messages).toEqual([
      { role: 'system', content: 'SYS' },
      { role: 'user', content: `Step. K: N/A\nS: ${claim}` },
    ]);
    expect((await cache.get(calls[2]!.requestHash!))?.messages?.[1]).toEqual({ role: 'user', content: `Final. K: \nS: ${claim}` });
  });

  it('every workflow this file ran replays with the current workflow code', async () => {
    expect(await expectTaskQueueReplays(harness.client, harness.config.temporal.taskQueue)).toBeGreaterThan(0);
  });
});
