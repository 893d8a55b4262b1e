import { describe, expect, it } from 'vitest';
import { collapseToPages, hitAtK, recallAtKs } from '../../eval/bench/page-recall';

describe('page-level recall', () => {
  it('collapses passages to distinct pages in rank order', () => {
    expect(collapseToPages(['A#0', 'B#0', 'A#1', 'C#0'], (id) => id.split('#')[0]!)).toEqual(['A', 'B', 'C']);
  });

  it('counts all-gold only when every gold page is in the top k', () => {
    expect(hitAtK(['A', 'B', 'C'], ['A', 'C'], 2, 'all')).toBe(false);
    expect(hitAtK(['A', 'B', 'C'], ['A', 'C'], 3, 'all')).toBe(true);
    expect(hitAtK(['A', 'B', 'C'], ['C', 'Z'], 3, 'any')).toBe(true);
  });

  it('averages hits over claims at each k', () => {
    const rankings = [
      { pages: ['A', 'B'], gold: ['A'] },
      { pages: ['X', 'B'], gold: ['B'] },
    ];
    expect(recallAtKs(rankings, [1, 2], 'all')).toEqual({ 1: 0.5, 2: 1 });
    expect(recallAtKs([], [1], 'all')).toEqual({ 1: 0 });
  });
});
