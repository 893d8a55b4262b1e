import { describe, expect, it } from 'vitest';
import { reduction, renderTable, tally } from '../../eval/bench/memory/tally';
import type { Verdict } from '../../src/shared/verify';

const verdict = (toolCalls: number, recalled: number, forced = false) =>
  ({ usage: { toolCalls, llmCalls: 2 }, trace: { method: 'mermaid', forced, memory: { recalled: Array.from({ length: recalled }, () => ({})) } } }) as unknown as Verdict;

describe('memory benchmark tally', () => {
  it('counts tool calls, zero-call claims and claims with a memory hit, and the reduction from off to on', () => {
    const off = tally('off', [verdict(2, 0), verdict(1, 0), verdict(2, 0)], 10);
    const on = tally('on', [verdict(2, 0), verdict(0, 1), verdict(0, 3, true)], 10);
    expect(off).toMatchObject({ claims: 3, toolCalls: 5, claimsWithoutToolCalls: 0, memoryHitClaims: 0, llmCalls: 6 });
    expect(on).toMatchObject({ toolCalls: 2, claimsWithoutToolCalls: 2, memoryHitClaims: 2, forced: 1 });
    expect(reduction(off, on)).toEqual({ calls: -3, percent: -60 });
    expect(renderTable(off, on)).toContain('5 → 2 (-3, -60.0%)');
    expect(renderTable(off, on)).toContain('2 / 3 (66.7%)');
  });
});
