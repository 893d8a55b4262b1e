/**
 * Rule-based bottom-up aggregation of the argument tree (toe.md §5.2), the paper's interpretable
 * fallback for its aggregation network. Pure and sandbox-safe.
 */
import type { ToeAggregationMode } from '../toe-settings';
import { clamp01 } from './evaluator';
import type { ToeTree } from './tree';

export interface Scores {
  v: number;
  r: number;
}

export interface ChildScores extends Scores {
  /** w_c, renormalised here over the processed children. */
  importance: number;
}

export interface AggregationOptions {
  /** blend: the node's own score counts with λ = 1; paper: children only (λ = 0). */
  mode: ToeAggregationMode;
  /** Soft-AND: a reliable false child caps the parent's veracity (§5.2, optional). */
  softAnd: boolean;
  /** τ_r^dec, the reliability above which a child counts for soft-AND. */
  decisiveReliability: number;
}

/** One node's (v_aggr, r_aggr) from its own scores and its processed children's aggregates. */
export function aggregateScores(self: Scores, children: readonly ChildScores[], options: AggregationOptions): Scores {
  if (children.length === 0) return { v: self.v, r: self.r };
  const lambda = options.mode === 'blend' ? 1 : 0;
  const totalImportance = children.reduce((sum, c) => sum + c.importance, 0);
  const weights = children.map((c) => (totalImportance > 0 ? c.importance / totalImportance : 1 / children.length));
  const aSelf = lambda * self.r;
  let numerator = aSelf * self.v;
  let denominator = aSelf;
  let meanReliability = 0;
  let meanVeracity = 0;
  children.forEach((child, i) => {
    const a = weights[i]! * child.r;
    numerator += a * child.v;
    denominator += a;
    meanReliability += weights[i]! * child.r;
    meanVeracity += weights[i]! * child.v;
  });
  let v = numerator / (denominator + 1e-9);
  // With every weight zero (no reliability anywhere) the estimate stays uninformed.
  if (denominator === 0) v = 0.5;
  const variance = children.reduce((sum, child, i) => sum + weights[i]! * (child.v - meanVeracity) ** 2, 0);
  const consistency = 1 - 2 * Math.sqrt(variance);
  const cover = children.length / (children.length + 1);
  const r = clamp01(Math.max(lambda * self.r, meanReliability * cover * (0.5 + 0.5 * consistency)));
  if (options.softAnd) {
    const reliableFalse = children.filter((c) => c.r > options.decisiveReliability).map((c) => c.v);
    if (reliableFalse.length > 0) v = Math.min(v, Math.min(...reliableFalse) + 0.1);
  }
  return { v: clamp01(v), r };
}

/**
 * Aggregates the whole tree post-order over evaluated nodes (pending and pruned ones are not
 * processed children) and writes vAggr / rAggr. Returns the root's scores.
 */
export function aggregateTree(tree: ToeTree, options: AggregationOptions): Scores {
  const visit = (id: string): Scores => {
    const node = tree.nodes[id]!;
    const children: ChildScores[] = [];
    for (const childId of node.childIds) {
      const child = tree.nodes[childId]!;
      if (child.status !== 'evaluated') continue;
      const scores = visit(childId);
      children.push({ ...scores, importance: child.importance });
    }
    const scores = aggregateScores({ v: node.vSelf ?? 0.5, r: node.rSelf ?? 0 }, children, options);
    node.vAggr = scores.v;
    node.rAggr = scores.r;
    return scores;
  };
  return visit(tree.rootId);
}
