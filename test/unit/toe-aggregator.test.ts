import { describe, expect, it } from 'vitest';
import { aggregateScores, aggregateTree, type AggregationOptions } from '../../src/methods/toe/sandbox/logic/aggregator';
import { addSubclaims, createTree } from '../../src/methods/toe/sandbox/logic/tree';

const BLEND: AggregationOptions = { mode: 'blend', softAnd: false, decisiveReliability: 0.7 };
const PAPER: AggregationOptions = { mode: 'paper', softAnd: false, decisiveReliability: 0.7 };

describe('ToE rule-based aggregation (toe.md §5.2)', () => {
  it('leaves a leaf with its own scores', () => {
    expect(aggregateScores({ v: 0.31, r: 0.42 }, [], BLEND)).toEqual({ v: 0.31, r: 0.42 });
  });

  // self (v 0.2, r 0.5); children (v 0.9, r 0.8, w 0.6) and (v 0.2, r 0.4, w 0.2) → ŵ = 0.75, 0.25
  const self = { v: 0.2, r: 0.5 };
  const children = [
    { v: 0.9, r: 0.8, importance: 0.6 },
    { v: 0.2, r: 0.4, importance: 0.2 },
  ];
  // a_1 = 0.75·0.8 = 0.6, a_2 = 0.25·0.4 = 0.1; r̄ = 0.7; v̄ = 0.725;
  // σ² = 0.75·0.175² + 0.25·0.525² = 0.091875; cons = 1 − 2σ; cover = 2/3
  const childPart = 0.7 * (2 / 3) * (0.5 + 0.5 * (1 - 2 * Math.sqrt(0.091875))); // 0.325216…

  it('blends the node with its children (λ = 1) in a worked example', () => {
    const { v, r } = aggregateScores(self, children, BLEND);
    expect(v).toBeCloseTo((0.5 * 0.2 + 0.6 * 0.9 + 0.1 * 0.2) / (0.5 + 0.6 + 0.1), 9); // 0.55
    expect(v).toBeCloseTo(0.55, 9);
    expect(r).toBeCloseTo(Math.max(0.5, childPart), 9); // the node's own 0.5 wins
  });

  it('uses the children only in paper mode (λ = 0)', () => {
    const { v, r } = aggregateScores(self, children, PAPER);
    expect(v).toBeCloseTo((0.6 * 0.9 + 0.1 * 0.2) / 0.7, 6); // 0.8 (the 1e-9 guard in the denominator)
    expect(r).toBeCloseTo(childPart, 9);
    expect(r).toBeCloseTo(0.325216, 5);
  });

  it('caps v by a reliable false child in soft-AND mode', () => {
    const kids = [
      { v: 0.9, r: 0.9, importance: 0.5 },
      { v: 0.1, r: 0.9, importance: 0.5 },
    ];
    // blend v = (0.9·0.9 + 0.45·0.9 + 0.45·0.1) / 1.8 = 0.7; soft-AND: min(0.7, 0.1 + 0.1)
    expect(aggregateScores({ v: 0.9, r: 0.9 }, kids, BLEND).v).toBeCloseTo(0.7, 9);
    expect(aggregateScores({ v: 0.9, r: 0.9 }, kids, { ...BLEND, softAnd: true }).v).toBeCloseTo(0.2, 9);
  });

  it('stays at v = 0.5 when nothing carries reliability', () => {
    expect(aggregateScores({ v: 0.9, r: 0 }, [{ v: 0.1, r: 0, importance: 1 }], BLEND).v).toBe(0.5);
  });

  it('aggregates a tree bottom-up over evaluated nodes only', () => {
    const tree = createTree('root claim');
    const [a, b] = addSubclaims(tree, 'n0', [
      { text: 'a', dimension: 'core_event', importance: 0.5 },
      { text: 'b', dimension: 'entity_identity', importance: 0.5 },
    ]);
    const [a1] = addSubclaims(tree, a!, [{ text: 'a1', dimension: 'core_event', importance: 1 }]);
    Object.assign(tree.nodes.n0!, { status: 'evaluated', vSelf: 0.5, rSelf: 0.2 });
    Object.assign(tree.nodes[a!]!, { status: 'evaluated', vSelf: 0.6, rSelf: 0.4 });
    Object.assign(tree.nodes[a1!]!, { status: 'evaluated', vSelf: 1, rSelf: 0.8 });
    // b stays pending: not a processed child.
    expect(tree.nodes[b!]!.status).toBe('pending');

    const root = aggregateTree(tree, PAPER);
    // a1 is a leaf: (1, 0.8). a (paper): v = 1, r = 0.8·(1/2)·1 = 0.4. root: one child a → v = 1, r = 0.4·0.5 = 0.2.
    expect([tree.nodes[a1!]!.vAggr, tree.nodes[a1!]!.rAggr]).toEqual([1, 0.8]);
    expect(tree.nodes[a!]!.vAggr).toBeCloseTo(1, 6);
    expect(tree.nodes[a!]!.rAggr).toBeCloseTo(0.4, 9);
    expect(root.v).toBeCloseTo(1, 6);
    expect(root.r).toBeCloseTo(0.2, 9);
    expect(tree.nodes[b!]!.vAggr).toBeUndefined();
  });
});
