import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fullVerdict } from '../../src/shared/verify';
import { buildVerifyInput, startVerification } from '../../src/client/start-verification';
import type { MethodSettings } from '../../src/shared/method-settings';
import { traceQuery } from '../../src/shared/definitions/verify';
import { loadDataset } from '../../src/datasets';
import { ingestRecordedWeb } from '../support/recorded-web';
import { SHARED_DATA } from '../support/test-env';
import { startWorkerHarness, type WorkerHarness } from '../support/worker-harness';
import { expectDeterministicReplay, scheduledActivities } from '../support/workflow-history';
import { LlmCache } from '../../src/llm/cache';
import { EMULATE_AGENTS } from '../../src/methods/emulate/sandbox/emulate-settings';
import { EMULATE_RELEASED_COMMIT } from '../../src/methods/emulate/sandbox/released-prompts';

const WEB = path.join(SHARED_DATA, 'corpus', 'web_factcheckbench.jsonl');

interface EmulateTrace {
  method: 'emulate';
  queries: { query: string; origin: string; ranked: string[]; rankFallback: boolean; counted: boolean }[];
  results: { link: string; phase: string; content?: string; selfContained?: boolean; helpful?: boolean; sufficient?: boolean }[];
  memory: string[];
  parked: string[];
  calls: Record<string, number>;
  unreadAnswers: number;
  ending: string;
  classification: boolean;
  settings: Record<string, unknown>;
}

describe('emulate on real Temporal and Elasticsearch (recorded web, simulator)', () => {
  let harness: WorkerHarness;
  const verify = async (claim: string, settings?: MethodSettings['emulate'], claimId?: string) => {
    const input = buildVerifyInput(harness.config, { claim, method: 'emulate', ...(claimId ? { claimId } : {}), ...(settings ? { settings: { emulate: settings } } : {}) });
    const { handle } = await startVerification(harness.client, harness.config.temporal.taskQueue, input);
    const verdict = fullVerdict(await handle.result());
    return { verdict, trace: verdict.trace as unknown as EmulateTrace, handle };
  };

  beforeAll(async () => {
    harness = await startWorkerHarness('emulate', { simulator: { latencyMs: 40 } });
    await ingestRecordedWeb(harness, WEB);
  });

  afterAll(async () => {
    await harness?.close();
  });

  it('searches the recorded web, keeps helpful results and classifies; usage and history agree with the trace', async () => {
    const { verdict, trace, handle } = await verify('Justice William O. Douglas was born on October 16, 1898.');
    expect(['SUPPORTED', 'REFUTED']).toContain(verdict.label);
    expect(verdict.methodLabel).toBe(trace.classification ? 'true' : 'false');
    expect(trace).toMatchObject({ method: 'emulate', ending: 'case1-sufficient', settings: { maxSearchQueries: 4, maxSearchResultsPerQuery: 2, contentMode: 'snippet' } });
    // The shortest path of the code: IQG, SR, SCC, DH, SE, CLS and one search.
    expect(trace.calls).toEqual({ initialQuery: 1, searchRank: 1, selfContained: 1, helpful: 1, sufficient: 1, classifier: 1 });
    expect(verdict.usage).toMatchObject({ llmCalls: 6, toolCalls: 1 });
    expect(verdict.evidence.map((e) => e.docId)).toEqual(trace.memory);
    expect(verdict.evidence[0]?.text).toMatch(/Douglas/);
    expect(trace.queries[0]!.ranked).toHaveLength(2);
    expect(await scheduledActivities(handle)).toMatchObject({ llmTask: 6, 'tools.web_search': 1, storeVerdict: 1 });

    const stored = await harness.deps.verdicts.get(handle.workflowId);
    expect(stored?.trace).toEqual(verdict.trace);
    expect(verdict.promptVersion).toContain('emulate.classifier@2');
    await expectDeterministicReplay([handle]);
  });

  it("with releasedPrompts sends the input's templates rendered as agents.py does, as plain text, and reads the answers as the code", async () => {
    // Templates written for the test (the released text stays in the user's checkout), in the code's placeholders.
    const templates = Object.fromEntries(EMULATE_AGENTS.map((agent) => [agent, `${agent} {{claim}}\n{{memory_bank}}\n{{new_result}}|{{search_query}}|{{results}}`])) as Record<(typeof EMULATE_AGENTS)[number], string>;
    const claim = 'Justice William O. Douglas was born on October 16, 1898.';
    const { verdict, trace, handle } = await verify(claim, { releasedPrompts: { commit: EMULATE_RELEASED_COMMIT, templates }, codeCompat: true });
    // Without a schema the simulator answers prose ("Verdict: …"): every Yes/No reads as No, the Classifier's as False.
    expect(verdict.label).toBe('REFUTED');
    expect(trace).toMatchObject({ ending: 'case3-exhausted', memory: [], classification: false });
    expect(trace.calls).toMatchObject({ initialQuery: 1, searchRank: 1, classifier: 1 });
    expect(verdict.promptVersion).toContain('emulate.released.classifier@1');
    const cache = new LlmCache(harness.deps.es, harness.config.elasticsearch.indexPrefix, 'readwrite');
    const calls = verdict.transcript!.llmCalls;
    const first = await cache.get(calls[0]!.requestHash!);
    expect(first?.messages).toEqual([{ role: 'user', content: `initialQuery ${claim}\n{{memory_bank}}\n{{new_result}}|{{search_query}}|{{results}}` }]);
    const classify = await cache.get(calls.at(-1)!.requestHash!);
    expect(classify?.messages?.[0]?.content).toBe(`classifier ${claim}\nThe set is currently empty.\n{{new_result}}|{{search_query}}|{{results}}`);
    expect(classify?.rawResponse).toMatch(/^Verdict: /);
    await expectDeterministicReplay([handle]);
  });

  it('publishes its trace while it runs (the trace query)', async () => {
    const input = buildVerifyInput(harness.config, { claim: 'Jack Dorsey returned as CEO of Twitter in 2015', method: 'emulate' });
    const { handle } = await startVerification(harness.client, harness.config.temporal.taskQueue, input);
    let seenRunning: EmulateTrace | null = null;
    while (!seenRunning) {
      const trace = (await handle.query(traceQuery)) as EmulateTrace | null;
      const { status } = await handle.describe();
      if (status.name !== 'RUNNING') break;
      if (trace && trace.queries.length > 0) seenRunning = trace;
      else await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(seenRunning?.method).toBe('emulate');
    expect(seenRunning?.ending).toBeUndefined();
    const final = fullVerdict(await handle.result()).trace as unknown as EmulateTrace;
    expect(final.queries.length).toBeGreaterThanOrEqual(seenRunning!.queries.length);
    expect(final.ending).toBeDefined();
  });

  it('stays within the code’s bounds on FacTool-QA and BingCheck claims, through every kind of step', async () => {
    const claims = [
      ...(await loadDataset(path.join(SHARED_DATA, 'dev', 'factool_qa.jsonl'))).claims.slice(0, 10),
      ...(await loadDataset(path.join(SHARED_DATA, 'dev', 'bingcheck.jsonl'))).claims.slice(0, 6),
    ];
    const runs = await Promise.all(claims.map((c) => verify(c.claim, undefined, `bounds-${c.id}`)));
    for (const { verdict, trace } of runs) {
      const calls = Object.values(trace.calls).reduce((a, b) => a + b, 0);
      expect(verdict.usage.llmCalls).toBe(calls);
      expect(calls).toBeGreaterThanOrEqual(3);
      expect(calls).toBeLessThanOrEqual(38);
      expect(trace.queries.length).toBeLessThanOrEqual(4);
      expect(verdict.usage.toolCalls).toBe(trace.queries.length);
      expect(trace.memory.length).toBeLessThanOrEqual(8);
      expect(trace.calls.classifier).toBe(1);
      expect(trace.calls.searchRank ?? 0).toBeLessThanOrEqual(4);
      expect(trace.calls.additionalQuery ?? 0).toBeLessThanOrEqual(4);
      expect(new Set(trace.memory).size).toBe(trace.memory.length);
    }
    // Every branch below replays with the current workflow code, once per history.
    await expectDeterministicReplay(runs.map((r) => r.handle));
    const all = runs.map((r) => r.trace);
    // The simulator and the recorded web are deterministic: these claims take all these branches.
    expect(new Set(all.map((t) => t.ending))).toEqual(new Set(['case1-sufficient', 'case3-exhausted']));
    expect(all.some((t) => t.queries.some((q) => q.origin === 'additional'))).toBe(true);
    expect(all.some((t) => t.queries.length === 4)).toBe(true);
    expect(all.some((t) => t.parked.length > 0 && t.results.some((r) => r.phase === 'final-pass'))).toBe(true);
    expect(all.some((t) => t.results.some((r) => r.selfContained && r.helpful === false))).toBe(true);
    expect(all.some((t) => t.results.some((r) => r.helpful && r.sufficient === false))).toBe(true);
  });

  it('full-page mode reads each opened result through read_page and the WebPageExtractor', async () => {
    const { verdict, trace, handle } = await verify('In 1980, Justice William O. Douglas was still alive.', { contentMode: 'page' });
    const opened = trace.results.filter((r) => r.phase === 'search');
    expect(opened.length).toBeGreaterThan(0);
    expect(opened.every((r) => r.content === 'page')).toBe(true);
    expect(trace.calls.webPageExtractor).toBe(opened.length);
    const activities = await scheduledActivities(handle);
    expect(activities['tools.read_page']).toBe(opened.length);
    expect(verdict.usage.toolCalls).toBe(trace.queries.length + opened.length);
  });

  it('code-compat and ablation settings change which agents run', async () => {
    const claim = 'Jack Dorsey co-founded Twitter in 2006';
    const compat = await verify(claim, { codeCompat: true });
    expect(compat.trace.settings).toMatchObject({ codeCompat: true, strictParsing: true });
    const noRank = await verify(claim, { searchRank: false, selfContainedCheck: false });
    expect(noRank.trace.calls.searchRank).toBeUndefined();
    expect(noRank.trace.calls.selfContained).toBeUndefined();
    expect(noRank.trace.parked).toEqual([]);
    expect(noRank.trace.calls.classifier).toBe(1);
  });
});
