import { describe, expect, it } from 'vitest';
import { TOE_CATEGORIES, type ToeCategory } from '../../src/methods/toe/sandbox/logic/claim-features';
import { heuristicActionProbabilities } from '../../src/methods/toe/policy/heuristic';
import { chooseAction, maskProbabilities, uniformFromKey } from '../../src/methods/toe/policy/select-action';
import { TOE_ACTIONS, TOE_STATE_DIM } from '../../src/methods/toe/sandbox/toe-policy';

/** A state by hand: category one-hot, flags, searches share (idx 14), doc budget (15), per-source shares (20..26), r (28). */
function state(category: ToeCategory, options: { recent?: boolean; historical?: boolean; searches?: number; budget?: number; used?: Partial<Record<string, number>>; r?: number } = {}): number[] {
  const s = new Array<number>(TOE_STATE_DIM).fill(0);
  s[TOE_CATEGORIES.indexOf(category)] = 1;
  s[8] = 1;
  s[9] = options.recent ? 1 : 0;
  s[10] = options.historical ? 1 : 0;
  s[14] = options.searches ?? 0;
  s[15] = options.budget ?? 1;
  for (const [action, share] of Object.entries(options.used ?? {})) s[20 + TOE_ACTIONS.indexOf(action as never)] = share!;
  s[28] = options.r ?? 0;
  return s;
}

const argmax = (s: number[]) => chooseAction(heuristicActionProbabilities(s), s, 'argmax', 'k').action;

describe('ToE category/recency heuristic policy (toe.md §3.6)', () => {
  it('gives the category preferences at the first step, with STOP at 0', () => {
    // political: web .2, counter .15, arxiv .02, wikipedia .15, social .08, factcheck .35, reddit .05 (sum 1)
    expect(heuristicActionProbabilities(state('political'))).toEqual([0.2, 0.15, 0.02, 0.15, 0.08, 0.35, 0.05, 0].map((p) => expect.closeTo(p, 12)));
  });

  it('starts where the paper’s Fig. 5 says each category searches most', () => {
    expect(argmax(state('political'))).toBe('factcheck');
    expect(argmax(state('health'))).toBe('factcheck');
    expect(argmax(state('scientific'))).toBe('arxiv');
    expect(argmax(state('celebrity'))).toBe('social');
    expect(argmax(state('other'))).toBe('web');
    expect(['web', 'wikipedia', 'factcheck']).toContain(argmax(state('historical')));
    expect(argmax(state('historical', { historical: true }))).toBe('wikipedia');
  });

  it('leans to social and web for recent claims', () => {
    // celebrity, recent: social .25·1.5 = .375 vs web .22·1.3 = .286
    expect(argmax(state('celebrity', { recent: true }))).toBe('social');
    const p = heuristicActionProbabilities(state('other', { recent: true }));
    const total = 0.32 * 1.3 + 0.14 + 0.05 + 0.2 + 0.08 * 1.5 + 0.15 + 0.06;
    expect(p[0]).toBeCloseTo((0.32 * 1.3) / total, 12);
  });

  it('discounts a source already searched and keeps a small STOP share', () => {
    // political after one fact-check search: factcheck .35/(1 + 10·.2) = .11667; total .76667; STOP .02
    const p = heuristicActionProbabilities(state('political', { searches: 0.2, used: { factcheck: 0.2 } }));
    expect(p[5]).toBeCloseTo((0.98 * (0.35 / 3)) / (1 - 0.35 + 0.35 / 3), 12);
    expect(p[0]).toBeCloseTo((0.98 * 0.2) / (1 - 0.35 + 0.35 / 3), 12);
    expect(p[7]).toBeCloseTo(0.02, 12);
    expect(p.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
  });

  it('seeks counter-evidence from the third search on, and stops once r ≥ 0.8 or the budget is spent', () => {
    expect(argmax(state('political', { searches: 0.4, used: { factcheck: 0.2, web: 0.2 } }))).toBe('counter');
    expect(argmax(state('political', { searches: 0.4, used: { factcheck: 0.2, counter: 0.2 } }))).not.toBe('counter');
    expect(heuristicActionProbabilities(state('other', { searches: 0.2, used: { web: 0.2 }, r: 0.8 }))[7]).toBe(0.9);
    expect(argmax(state('other', { searches: 0.2, used: { web: 0.2 }, r: 0.85 }))).toBe('stop');
    expect(heuristicActionProbabilities(state('other', { searches: 1 }))).toEqual([0, 0, 0, 0, 0, 0, 0, 1]);
    expect(argmax(state('other', { searches: 0.4, budget: 0 }))).toBe('stop');
  });
});

describe('ToE action choice', () => {
  it('forbids STOP before the first search and forces it once a budget is spent', () => {
    const uniform = new Array<number>(8).fill(1 / 8);
    expect(maskProbabilities(uniform, state('other'))[7]).toBe(0);
    expect(maskProbabilities(uniform, state('other'))[0]).toBeCloseTo(1 / 7, 12);
    expect(chooseAction(uniform, state('other', { searches: 1 }), 'sample', 'x')).toEqual({ action: 'stop', probabilities: [0, 0, 0, 0, 0, 0, 0, 1], probability: 1 });
    expect(chooseAction([0, 0, 0, 0, 0, 0, 0, 1], state('other'), 'argmax', 'x').action).not.toBe('stop');
  });

  it('logs π_old = 1 for an argmax choice (the acting policy is deterministic) and the drawn probability for a sample', () => {
    const probabilities = [0.5, 0.25, 0.25, 0, 0, 0, 0, 0];
    const s = state('other', { searches: 0.2 });
    const argmaxChoice = chooseAction(probabilities, s, 'argmax', 'k');
    expect(argmaxChoice).toMatchObject({ action: TOE_ACTIONS[0], probability: 1 });
    expect(argmaxChoice.probabilities[0]).toBeCloseTo(0.5, 12);
    const drawn = chooseAction(probabilities, s, 'sample', 'k');
    expect(drawn.probability).toBe(drawn.probabilities[TOE_ACTIONS.indexOf(drawn.action)]);
  });

  it('samples deterministically per key, with frequencies following the probabilities', () => {
    const probabilities = [0.5, 0.25, 0.25, 0, 0, 0, 0, 0];
    const s = state('other', { searches: 0.2 });
    expect(chooseAction(probabilities, s, 'sample', 'wf/n3/2')).toEqual(chooseAction(probabilities, s, 'sample', 'wf/n3/2'));
    const counts = [0, 0, 0];
    for (let i = 0; i < 4000; i++) counts[TOE_ACTIONS.indexOf(chooseAction(probabilities, s, 'sample', `wf/n${i}/0`).action)]! += 1;
    expect(counts[0]! / 4000).toBeCloseTo(0.5, 1);
    expect(counts[1]! / 4000).toBeCloseTo(0.25, 1);
    expect(counts[2]! / 4000).toBeCloseTo(0.25, 1);
    for (const key of ['a', 'b', 'wf/n0/0']) {
      expect(uniformFromKey(key)).toBeGreaterThanOrEqual(0);
      expect(uniformFromKey(key)).toBeLessThan(1);
    }
  });
});
