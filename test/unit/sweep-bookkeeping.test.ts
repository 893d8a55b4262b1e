import { describe, expect, it } from 'vitest';
import { analyseCut, analyseDuplicates, peakRequests } from '../../eval/chaos/request-analysis';
import {
  countOutcome,
  estimateRemainingMs,
  findBudgetProblem,
  freeSlots,
  initialSweepState,
  isBudgetExhausted,
  sweepProgress,
  legacySweepWorkflowId,
  totalItems,
  windowSize,
  workItem,
} from '../../src/shared/sweep';
import { legacyVerifyWorkflowId } from '../../src/shared/verify';
import type { SimRequestRecord } from '../../src/simulator/request-log';

describe('sweep work items and window', () => {
  it('walks claims in dataset order, all variants of a claim before the next claim', () => {
    expect([0, 1, 2, 3, 4].map((i) => workItem(i, 2))).toEqual([
      { ordinal: 0, variant: 0 },
      { ordinal: 0, variant: 1 },
      { ordinal: 1, variant: 0 },
      { ordinal: 1, variant: 1 },
      { ordinal: 2, variant: 0 },
    ]);
    expect(totalItems({ claimCount: 600 }, 3)).toBe(1800);
  });

  it('bounds the window by the concurrency, by what is left, and to one in ordered mode', () => {
    expect(windowSize({ ordered: false, concurrency: 8 })).toBe(8);
    expect(windowSize({ ordered: true, concurrency: 8 })).toBe(1);
    expect(freeSlots({ ordered: false, concurrency: 8 }, 5, 100)).toBe(3);
    expect(freeSlots({ ordered: false, concurrency: 8 }, 5, 2)).toBe(2);
    expect(freeSlots({ ordered: false, concurrency: 8 }, 9, 100)).toBe(0);
    expect(freeSlots({ ordered: true, concurrency: 8 }, 0, 100)).toBe(1);
    expect(freeSlots({ ordered: true, concurrency: 8 }, 1, 100)).toBe(0);
  });

  it('keeps the ids of sweeps started before identities existed (their histories replay)', () => {
    expect(legacySweepWorkflowId('dev-600')).toBe('sweep/dev-600');
    expect(legacyVerifyWorkflowId('dev-600', 'hover-1', 'rag')).toBe('verify/dev-600/hover-1/rag');
    expect(legacyVerifyWorkflowId('dev-600', 'hover-1', 'rag', 'meta-llama/Llama-3:8b')).toBe('verify/dev-600/hover-1/rag/meta-llama%2FLlama-3%3A8b');
  });
});

describe('sweep progress and budget', () => {
  it('counts verdicts with their usage and failures apart', () => {
    const state = initialSweepState({ budget: { usd: 1 } });
    state.claimCount = 10;
    countOutcome(state.counters, { ok: true, tokens: 120, costUsd: 0.25 });
    countOutcome(state.counters, { ok: true, tokens: 80, costUsd: 0.5 });
    countOutcome(state.counters, { ok: false, reason: 'index "x" does not exist' });
    expect(sweepProgress('r', state, 2, 3)).toEqual({
      runId: 'r',
      status: 'running',
      total: 20,
      done: 2,
      failed: 1,
      reused: 0,
      running: 3,
      tokens: 200,
      costUsd: 0.75,
      budget: { usd: 1 },
      continuedAsNew: 0,
    });
  });

  it('is exhausted when either limit is reached, never without limits', () => {
    expect(isBudgetExhausted({ tokens: 10, costUsd: 1 }, {})).toBe(false);
    expect(isBudgetExhausted({ tokens: 10, costUsd: 0.99 }, { usd: 1 })).toBe(false);
    expect(isBudgetExhausted({ tokens: 10, costUsd: 1 }, { usd: 1 })).toBe(true);
    expect(isBudgetExhausted({ tokens: 10, costUsd: 0 }, { usd: 1, tokens: 10 })).toBe(true);
  });

  it('validates budget changes', () => {
    expect(findBudgetProblem({ usd: 2 })).toBeNull();
    expect(findBudgetProblem({ tokens: 1000, usd: 0.5 })).toBeNull();
    expect(findBudgetProblem({})).toMatch(/usd and\/or tokens/);
    expect(findBudgetProblem({ usd: -1 })).toMatch(/usd must be a positive/);
    expect(findBudgetProblem({ tokens: 1.5 })).toMatch(/tokens must be a positive whole/);
    expect(findBudgetProblem(null)).toMatch(/object/);
  });

  it('estimates the remaining time from the observed pace', () => {
    expect(estimateRemainingMs(0, 5_000, 100)).toBeUndefined();
    expect(estimateRemainingMs(10, 5_000, 100)).toBe(50_000);
  });
});

describe('chaos request analysis', () => {
  const record = (hash: string, time: string, durationMs = 200): SimRequestRecord => ({
    method: 'POST',
    path: '/v1/chat/completions',
    requestHash: hash,
    status: 200,
    time,
    durationMs,
  });

  it('explains a duplicate by a kill during the first attempt, and flags one nothing explains', () => {
    const records = [
      record('a', '2026-01-01T00:00:00.000Z'),
      record('a', '2026-01-01T00:00:20.000Z'),
      record('b', '2026-01-01T00:00:05.000Z'),
      record('b', '2026-01-01T00:00:06.000Z'),
      record('c', '2026-01-01T00:00:07.000Z'),
    ];
    const kill = { what: 'kill', from: '2026-01-01T00:00:00.100Z', to: '2026-01-01T00:00:00.100Z' };
    const analysis = analyseDuplicates(records, [kill], []);
    expect(analysis).toEqual({ requests: 5, duplicatedHashes: 2, inFlightAtKill: 1, inFlightAtRestart: 0, paidWhileCacheDown: 0, unexplained: ['b'] });
  });

  it('explains a duplicate first paid while the request cache was down (its answer could not be cached), not one paid before the outage', () => {
    const records = [
      record('a', '2026-01-01T00:01:06.000Z'),
      record('a', '2026-01-01T00:02:11.000Z'),
      record('b', '2026-01-01T00:00:59.000Z'),
      record('b', '2026-01-01T00:02:12.000Z'),
    ];
    const outage = { what: 'es outage', from: '2026-01-01T00:01:05.000Z', to: '2026-01-01T00:02:10.000Z' };
    const analysis = analyseDuplicates(records, [], [], undefined, undefined, [outage]);
    expect(analysis).toMatchObject({ duplicatedHashes: 2, paidWhileCacheDown: 1, unexplained: ['b'] });
  });

  it("explains a duplicate by a cut only when the cut machine sent it, answered up to the slack before the cut", () => {
    const on = (client: string, hash: string, time: string) => ({ ...record(hash, time), client });
    const records = [
      on('10.77.0.12', 'a', '2026-01-01T00:00:56.000Z'), // answered 3.8 s before the cut: not yet reported
      on('10.77.0.13', 'a', '2026-01-01T00:01:17.000Z'),
      on('10.77.0.11', 'b', '2026-01-01T00:00:59.900Z'), // another machine, not cut
      on('10.77.0.11', 'b', '2026-01-01T00:01:20.000Z'),
    ];
    const cut = { what: 'cut vcw2', from: '2026-01-01T00:00:55.000Z', to: '2026-01-01T00:01:00.000Z', client: '10.77.0.12' };
    expect(analyseDuplicates(records, [cut], [])).toMatchObject({ duplicatedHashes: 2, inFlightAtKill: 1, unexplained: ['b'] });
  });

  it("finds what a cut machine had in flight, when another machine sent it again, and when the cut machine worked again", () => {
    const on = (client: string, hash: string, time: string) => ({ ...record(hash, time), client });
    const records = [
      on('10.77.0.12', 'lost', '2026-01-01T00:00:59.900Z'),
      on('10.77.0.12', 'done-before', '2026-01-01T00:00:50.000Z'),
      on('10.77.0.11', 'done-before', '2026-01-01T00:01:30.000Z'),
      on('10.77.0.13', 'lost', '2026-01-01T00:01:17.000Z'),
      on('10.77.0.12', 'after', '2026-01-01T00:03:04.000Z'),
    ];
    const cut = { what: 'cut vcw2', from: '2026-01-01T00:01:00.000Z', to: '2026-01-01T00:03:00.000Z' };
    expect(analyseCut(records, '10.77.0.12', cut)).toEqual({ inFlightAtCut: 1, resentElsewhere: 1, longestMoveMs: 17_000, rejoinedAfterMs: 4_000 });
    expect(analyseCut(records, '10.77.0.11', cut)).toEqual({ inFlightAtCut: 0, resentElsewhere: 0, longestMoveMs: undefined, rejoinedAfterMs: undefined });
  });

  it('finds the most requests started within any window, whatever the order of the log', () => {
    const at = (ms: number) => record(String(ms), new Date(Date.UTC(2026, 0, 1) + ms).toISOString());
    const records = [at(2_500), at(0), at(900), at(999), at(1_000), at(5_000)];
    expect(peakRequests(records, 1_000)).toBe(3); // 0, 900, 999 (1,000 opens the next window)
    expect(peakRequests(records, 2_000)).toBe(4);
    expect(peakRequests(records, 10_000)).toBe(6);
    expect(peakRequests([], 1_000)).toBe(0);
  });
});
