import { describe, expect, it } from 'vitest';
import { DEFAULT_TOE_THRESHOLDS as T } from '../../src/methods/toe/sandbox/toe-settings';
import {
  addSubclaims,
  createTree,
  finalVerdict,
  hasConverged,
  isDecisive,
  markDecisive,
  nextInQueue,
  normaliseSubclaims,
  priorityOf,
  prunePending,
  wantsExpansion,
} from '../../src/methods/toe/sandbox/logic/tree';

describe('ToE argument tree (toe.md §2)', () => {
  it('uses the paper thresholds 0.7 / 0.7 / 0.7 / 0.3 / 0.1', () => {
    expect(T).toEqual({ expandReliability: 0.7, decisiveReliability: 0.7, decisiveVeracityHigh: 0.7, decisiveVeracityLow: 0.3, convergence: 0.1 });
  });

  it('expands when r_self < 0.7, and the root on its first evaluation whatever its score', () => {
    expect(wantsExpansion(0.69, false, T)).toBe(true);
    expect(wantsExpansion(0.7, false, T)).toBe(false);
    expect(wantsExpansion(0.95, true, T)).toBe(true);
  });

  it('is decisive only when r_aggr > 0.7 and v_aggr lies outside [0.3, 0.7]', () => {
    expect(isDecisive(0.75, 0.71, T)).toBe(true);
    expect(isDecisive(0.29, 0.9, T)).toBe(true);
    expect(isDecisive(0.7, 0.9, T)).toBe(false);
    expect(isDecisive(0.3, 0.9, T)).toBe(false);
    expect(isDecisive(0.1, 0.7, T)).toBe(false);
  });

  it('converges when the last 3 root v vary by less than 0.1 and r_0 > 0.7', () => {
    expect(hasConverged([0.5, 0.55], 0.9, T)).toBe(false);
    expect(hasConverged([0.5, 0.55, 0.58], 0.75, T)).toBe(true);
    expect(hasConverged([0.5, 0.55, 0.58], 0.7, T)).toBe(false);
    expect(hasConverged([0.5, 0.6, 0.61], 0.9, T)).toBe(false);
    expect(hasConverged([0.1, 0.5, 0.55, 0.58], 0.9, T)).toBe(true);
  });

  it('maps the root veracity to false < 0.4 ≤ uncertain ≤ 0.6 < true', () => {
    const mapping = { falseBelow: 0.4, trueAbove: 0.6 };
    expect(finalVerdict(0.39, mapping)).toBe('false');
    expect(finalVerdict(0.4, mapping)).toBe('uncertain');
    expect(finalVerdict(0.6, mapping)).toBe('uncertain');
    expect(finalVerdict(0.61, mapping)).toBe('true');
  });

  it('keeps one sub-claim per dimension, at most 4, with weights renormalised to 1', () => {
    expect(
      normaliseSubclaims([
        { text: 'a', dimension: 'core_event', importance: 2 },
        { text: 'dup', dimension: 'core_event', importance: 5 },
        { text: 'b', dimension: 'entity_identity', importance: 1 },
        { text: ' ', dimension: 'quantitative_accuracy', importance: 1 },
        { text: 'c', dimension: 'geographic_accuracy', importance: 1 },
      ]),
    ).toEqual([
      { text: 'a', dimension: 'core_event', importance: 0.5 },
      { text: 'b', dimension: 'entity_identity', importance: 0.25 },
      { text: 'c', dimension: 'geographic_accuracy', importance: 0.25 },
    ]);
    const five = (['core_event', 'entity_identity', 'causal_relationship', 'source_credibility', 'contextual_background'] as const).map((dimension) => ({ text: dimension, dimension, importance: 0 }));
    expect(normaliseSubclaims(five).map((s) => s.importance)).toEqual([0.25, 0.25, 0.25, 0.25]);
  });

  it('orders the queue by 0.5·(1 − r_parent) + 0.5·w, then depth, then creation order', () => {
    const tree = createTree('c');
    expect(priorityOf(tree, tree.nodes.n0!)).toBe(1);
    const [a, b, c] = addSubclaims(tree, 'n0', [
      { text: 'a', dimension: 'core_event', importance: 0.3 },
      { text: 'b', dimension: 'entity_identity', importance: 0.5 },
      { text: 'c', dimension: 'source_credibility', importance: 0.2 },
    ]);
    Object.assign(tree.nodes.n0!, { status: 'evaluated', vSelf: 0.5, rSelf: 0.6, vAggr: 0.5, rAggr: 0.6 });
    expect(priorityOf(tree, tree.nodes[a!]!)).toBeCloseTo(0.5 * 0.4 + 0.5 * 0.3, 12); // 0.35
    expect(priorityOf(tree, tree.nodes[b!]!)).toBeCloseTo(0.45, 12);
    expect(nextInQueue(tree, [a!, b!, c!])).toBe(b);
    // Equal priority: the shallower node first; equal depth: the older node first.
    const [b1] = addSubclaims(tree, b!, [{ text: 'b1', dimension: 'core_event', importance: 1 }]);
    Object.assign(tree.nodes[b!]!, { status: 'evaluated', rSelf: 0.6, rAggr: 0.9 }); // b1: 0.5·0.1 + 0.5·1 = 0.55
    tree.nodes[a!]!.importance = 0.7; // a: 0.5·0.4 + 0.5·0.7 = 0.55
    expect(nextInQueue(tree, [b1!, a!])).toBe(a);
    tree.nodes[c!]!.importance = 0.7;
    expect(nextInQueue(tree, [c!, a!])).toBe(a);
    expect(nextInQueue(tree, [])).toBeUndefined();
  });

  it('creates children one level deeper with ids in creation order', () => {
    const tree = createTree('c');
    const ids = addSubclaims(tree, 'n0', [
      { text: 'x', dimension: 'core_event', importance: 1 },
      { text: 'y', dimension: 'entity_identity', importance: 3 },
    ]);
    expect(ids).toEqual(['n1', 'n2']);
    expect(tree.nodes.n0!.childIds).toEqual(['n1', 'n2']);
    expect(tree.nodes.n2).toMatchObject({ parentId: 'n0', depth: 1, importance: 0.75, status: 'pending', order: 2 });
  });

  it('prunes the pending descendants of a decisive non-leaf node and never an evaluated one', () => {
    const tree = createTree('c');
    const [a, b] = addSubclaims(tree, 'n0', [
      { text: 'a', dimension: 'core_event', importance: 0.5 },
      { text: 'b', dimension: 'entity_identity', importance: 0.5 },
    ]);
    const [a1, a2] = addSubclaims(tree, a!, [
      { text: 'a1', dimension: 'core_event', importance: 0.5 },
      { text: 'a2', dimension: 'entity_identity', importance: 0.5 },
    ]);
    const [b1] = addSubclaims(tree, b!, [{ text: 'b1', dimension: 'core_event', importance: 1 }]);
    Object.assign(tree.nodes.n0!, { status: 'evaluated', vAggr: 0.5, rAggr: 0.5 });
    Object.assign(tree.nodes[a!]!, { status: 'evaluated', vAggr: 0.9, rAggr: 0.8 });
    Object.assign(tree.nodes[a1!]!, { status: 'evaluated', vAggr: 0.9, rAggr: 0.8 });
    Object.assign(tree.nodes[b!]!, { status: 'evaluated', vAggr: 0.6, rAggr: 0.9 });
    markDecisive(tree, T);
    expect([tree.nodes.n0!.decisive, tree.nodes[a!]!.decisive, tree.nodes[b!]!.decisive]).toEqual([false, true, false]);
    const { queue, pruned } = prunePending(tree, [a2!, b1!]);
    expect(pruned).toEqual([a2]);
    expect(queue).toEqual([b1]);
    expect(tree.nodes[a1!]!.status).toBe('evaluated');
    expect(tree.nodes[a2!]!.status).toBe('pruned');
    expect(tree.nodes[b1!]!.status).toBe('pending');
  });
});
