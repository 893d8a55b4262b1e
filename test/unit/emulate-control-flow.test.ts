import { describe, expect, it } from 'vitest';
import type { ToolCallResult } from '../../activities/tools.activities';
import type { EmulateSettings } from '../../src/methods/emulate/sandbox/emulate-settings';
import type { VerifyClaimInput } from '../../src/shared/verify';
import { runEmulate } from '../../src/methods/emulate/sandbox/emulate.workflow';
import type { MethodOutcome } from '../../workflows/method-run';
import { scriptedMethodRun } from '../support/scripted-run';

/**
 * EMULATE's loop with scripted agents (spec §8): every Yes/No comes from `decide`, every search
 * returns three fresh results, SearchRank keeps the engine order, the Classifier says True.
 */
interface Script {
  decide(agent: string): boolean;
  results?: (search: number) => { title: string; url: string; snippet: string; position: number }[];
}

interface Run {
  outcome: MethodOutcome;
  trace: { ending: string; calls: Record<string, number>; queries: unknown[]; memory: string[]; parked: string[] };
  llmCalls: number;
  searches: number;
  tasks: string[];
}

async function runScripted(script: Script, settings: Partial<EmulateSettings> = {}): Promise<Run> {
  let searches = 0;
  const freshResults = (n: number) => [1, 2, 3].map((position) => ({ title: `t${n}.${position}`, url: `https://s${n}.example/${position}`, snippet: `snippet ${n}.${position}`, position }));
  const input: VerifyClaimInput = {
    schemaVersion: 1,
    runId: 'unit',
    claimId: 'c',
    claim: 'A claim.',
    method: 'emulate',
    model: 'm',
    rag: { topK: 1, index: 'i' },
    settings: { emulate: settings },
  };
  const answer = (task: string, calls: readonly string[]): unknown => {
    const agent = task.replace('emulate.', '');
    if (agent === 'initialQuery' || agent === 'additionalQuery') return { queries: [`query ${calls.length}`] };
    if (agent === 'searchRank') return { ranking: '1 | 2 | 3' };
    if (agent === 'classifier') return { answer: 'True' };
    return { answer: script.decide(agent) ? 'Yes' : 'No' };
  };
  const { run, tasks } = scriptedMethodRun(input, answer, async (name, args) => {
    expect(name).toBe('web_search');
    expect(args).toMatchObject({ max_results: 10 });
    searches += 1;
    const results = (script.results ?? freshResults)(searches).map((r) => ({ ...r, source: 'test' }));
    return { tool: name, observation: '', truncated: false, isError: false, data: { results } } as ToolCallResult;
  });
  const outcome = await runEmulate(run);
  return { outcome, trace: outcome.trace as unknown as Run['trace'], llmCalls: tasks.length, searches, tasks };
}

/** Every sequence of Yes/No answers, depth first: the next tape flips the last No to Yes. */
async function enumeratePaths(settings: Partial<EmulateSettings> = {}): Promise<Run[]> {
  const runs: Run[] = [];
  let tape: boolean[] | undefined = [];
  while (tape) {
    const decisions: boolean[] = [];
    const current: boolean[] = tape;
    runs.push(await runScripted({ decide: () => {
      const value = current[decisions.length] ?? false;
      decisions.push(value);
      return value;
    } }, settings));
    const lastNo = decisions.lastIndexOf(false);
    tape = lastNo < 0 ? undefined : [...decisions.slice(0, lastNo), true];
  }
  return runs;
}

describe('EMULATE control flow (scripted agents, spec §8)', () => {
  it('the shortest path is IQG, SR, SCC, DH, SE, CLS and one search', async () => {
    const run = await runScripted({ decide: () => true });
    expect(run.tasks.map((t) => t.replace('emulate.', ''))).toEqual(['initialQuery', 'searchRank', 'selfContained', 'helpful', 'sufficient', 'classifier']);
    expect(run.searches).toBe(1);
    expect(run.trace.ending).toBe('case1-sufficient');
    expect(run.outcome).toMatchObject({ label: 'SUPPORTED', methodLabel: 'true', citedPassageIds: ['emulate-1'] });
  });

  it('both top-2 results unhelpful: the search stops after one query', async () => {
    const run = await runScripted({ decide: (agent) => agent === 'selfContained' });
    expect(run.searches).toBe(1);
    expect(run.trace.calls).toMatchObject({ selfContained: 2, helpful: 2 });
    expect(run.trace.calls.sufficient).toBeUndefined();
    expect(run.trace.ending).toBe('case3-exhausted');
  });

  it('helpful but insufficient: the next query is the AdditionalQueryGen output, the rest of the list is dropped', async () => {
    const run = await runScripted({ decide: (agent) => agent !== 'sufficient' });
    expect(run.searches).toBe(4);
    expect(run.trace.calls).toMatchObject({ additionalQuery: 4, selfContained: 4, helpful: 4, sufficient: 4, searchRank: 4 });
    expect(run.trace.memory).toEqual([1, 2, 3, 4].map((n) => `https://s${n}.example/1`));
    expect((run.trace.queries as { origin: string }[]).map((q) => q.origin)).toEqual(['initial', 'additional', 'additional', 'additional']);
  });

  it('a result that was not self-contained becomes understandable in the final pass: CASE 2', async () => {
    // First search: #1 not self-contained, #2 helpful but insufficient; second search: both unhelpful; final pass: #1 passes.
    const answers = [false, true, true, false, true, false, true, false, true, true, true];
    let i = 0;
    const run = await runScripted({ decide: () => answers[i++]! });
    expect(run.trace.parked).toEqual(['https://s1.example/1']);
    expect(run.trace.ending).toBe('case2-final-pass');
    expect(run.trace.memory).toEqual(['https://s1.example/2', 'https://s1.example/1']);
  });

  it('empty result lists are not ranked or counted (the code ranks them, a wasted call)', async () => {
    const empty = await runScripted({ decide: () => true, results: () => [] });
    expect(empty.tasks.map((t) => t.replace('emulate.', ''))).toEqual(['initialQuery', 'classifier']);
    const compat = await runScripted({ decide: () => true, results: () => [] }, { codeCompat: true });
    expect(compat.tasks.map((t) => t.replace('emulate.', ''))).toEqual(['initialQuery', 'searchRank', 'classifier']);
    expect(compat.searches).toBe(1);
  });

  it('enumerates the code’s 4,681 decision paths with their bounds: 6–38 LLM calls, at most 4 searches', async () => {
    const runs = await enumeratePaths({ codeCompat: true });
    expect(runs).toHaveLength(4681);
    const endings = runs.reduce<Record<string, number>>((acc, r) => ({ ...acc, [r.trace.ending]: (acc[r.trace.ending] ?? 0) + 1 }), {});
    expect(endings).toEqual({ 'case1-sufficient': 120, 'case2-final-pass': 1440, 'case3-exhausted': 3121 });
    const calls = runs.map((r) => r.llmCalls);
    expect(Math.min(...calls)).toBe(6);
    expect(Math.max(...calls)).toBe(38);
    const max = (agent: string) => Math.max(...runs.map((r) => r.trace.calls[agent] ?? 0));
    expect({ sr: max('searchRank'), scc: max('selfContained'), dh: max('helpful'), se: max('sufficient'), aqg: max('additionalQuery'), cls: max('classifier') }).toEqual({
      sr: 4,
      scc: 13,
      dh: 8,
      se: 8,
      aqg: 4,
      cls: 1,
    });
    expect(Math.max(...runs.map((r) => r.searches))).toBe(4);
    expect(Math.max(...runs.map((r) => r.trace.memory.length))).toBe(8);
    expect(runs.every((r) => r.trace.calls.classifier === 1)).toBe(true);
  });
});
