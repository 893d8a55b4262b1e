import { describe, expect, it } from 'vitest';
import { reciprocalRankFusion, RRF_K } from '../../src/retrieval/rrf';

const keys = (fused: { item: string }[]) => fused.map((entry) => entry.item);
const identity = (item: string) => item;

describe('reciprocal rank fusion', () => {
  it('scores an item by the sum of 1 / (60 + rank) over the lists it appears in', () => {
    const fused = reciprocalRankFusion([{ items: ['a', 'b'] }, { items: ['b', 'c'] }], identity);
    const score = Object.fromEntries(fused.map((entry) => [entry.item, entry.score]));
    expect(RRF_K).toBe(60);
    expect(score.b).toBeCloseTo(1 / 62 + 1 / 61);
    expect(score.a).toBeCloseTo(1 / 61);
    expect(score.c).toBeCloseTo(1 / 62);
    expect(keys(fused)).toEqual(['b', 'a', 'c']);
  });

  it('lets agreement of two lists beat a single first place', () => {
    const fused = reciprocalRankFusion([{ items: ['x', 'y', 'z'] }, { items: ['q', 'r', 'z'] }], identity);
    expect(keys(fused)[0]).toBe('z');
  });

  it('applies list weights', () => {
    const fused = reciprocalRankFusion([{ items: ['a'], weight: 1 }, { items: ['b'], weight: 2 }], identity);
    expect(keys(fused)).toEqual(['b', 'a']);
    expect(fused[0]!.score).toBeCloseTo(2 / 61);
  });

  it('breaks ties deterministically by first appearance and keeps the first object per key', () => {
    const first = { id: 'p', from: 'bm25' };
    const fused = reciprocalRankFusion([{ items: [first] }, { items: [{ id: 'p', from: 'dense' }] }], (item) => item.id);
    expect(fused).toHaveLength(1);
    expect(fused[0]!.item).toBe(first);
    expect(keys(reciprocalRankFusion([{ items: ['a'] }, { items: ['b'] }], identity))).toEqual(['a', 'b']);
  });

  it('honours a custom k and handles empty input', () => {
    expect(reciprocalRankFusion([{ items: ['a'] }], identity, 1)[0]!.score).toBeCloseTo(0.5);
    expect(reciprocalRankFusion<string>([], identity)).toEqual([]);
  });
});
