/**
 * ToE's argument tree (toe.md §2): nodes, the priority queue, expansion into weighted sub-claims,
 * the decisive / prune / convergence rules of §2.4 and the final 3-way label. Pure and
 * sandbox-safe: the workflow grows the tree with these functions.
 */
import type { ToeFinalMapping, ToeThresholds } from '../toe-settings';
import { TOE_DIMENSIONS, type ToeDimension } from './claim-features';

export type ToeNodeStatus = 'pending' | 'evaluated' | 'pruned';

export interface ToeNode {
  id: string;
  parentId: string | null;
  childIds: string[];
  claim: string;
  /** Root = 0. */
  depth: number;
  /** The sub-claim's dimension; null for the root. */
  dimension: ToeDimension | null;
  /** w_n: siblings sum to 1; the root has 1. */
  importance: number;
  /** Creation order, the last tie-break of the queue. */
  order: number;
  status: ToeNodeStatus;
  /** Iteration that evaluated the node. */
  iteration?: number;
  vSelf?: number;
  rSelf?: number;
  vAggr?: number;
  rAggr?: number;
  /** δ_n: the node asked to be expanded (r_self < τ, or the root's first evaluation). */
  expand?: boolean;
  /** φ_n after the latest aggregation. */
  decisive?: boolean;
}

export interface ToeTree {
  rootId: string;
  nodes: Record<string, ToeNode>;
  nextOrder: number;
}

export interface Subclaim {
  text: string;
  dimension: ToeDimension;
  importance: number;
}

/** At most this many sub-claims per expansion (§2.2). */
export const MAX_SUBCLAIMS = 4;

export function createTree(claim: string): ToeTree {
  const root: ToeNode = { id: 'n0', parentId: null, childIds: [], claim, depth: 0, dimension: null, importance: 1, order: 0, status: 'pending' };
  return { rootId: root.id, nodes: { [root.id]: root }, nextOrder: 1 };
}

export function rootOf(tree: ToeTree): ToeNode {
  return tree.nodes[tree.rootId]!;
}

/**
 * Priority(n) = 0.5·(1 − r_parent^aggr) + 0.5·w_n (the paper's "parent uncertainty and own
 * importance"; the weights are toe.md's recommendation). The root has priority 1.
 */
export function priorityOf(tree: ToeTree, node: ToeNode): number {
  if (node.parentId === null) return 1;
  const parent = tree.nodes[node.parentId]!;
  const parentReliability = parent.rAggr ?? parent.rSelf ?? 0;
  return 0.5 * (1 - parentReliability) + 0.5 * node.importance;
}

/** The queued node to evaluate next: highest priority, then smaller depth, then creation order. */
export function nextInQueue(tree: ToeTree, queue: readonly string[]): string | undefined {
  let best: ToeNode | undefined;
  let bestPriority = -Infinity;
  for (const id of queue) {
    const node = tree.nodes[id]!;
    const priority = priorityOf(tree, node);
    const better =
      best === undefined ||
      priority > bestPriority + 1e-12 ||
      (Math.abs(priority - bestPriority) <= 1e-12 && (node.depth < best.depth || (node.depth === best.depth && node.order < best.order)));
    if (better) {
      best = node;
      bestPriority = priority;
    }
  }
  return best?.id;
}

/** δ_n = 1 ⟺ r_self < τ_r^exp, or the node is the root on its first evaluation. */
export function wantsExpansion(rSelf: number, isRoot: boolean, thresholds: ToeThresholds): boolean {
  return isRoot || rSelf < thresholds.expandReliability;
}

/** φ_n = 1 ⟺ r_aggr > τ_r^dec and v_aggr ∉ [τ_v^-, τ_v^+]. */
export function isDecisive(vAggr: number, rAggr: number, thresholds: ToeThresholds): boolean {
  return rAggr > thresholds.decisiveReliability && (vAggr < thresholds.decisiveVeracityLow || vAggr > thresholds.decisiveVeracityHigh);
}

/** Root veracities over the last iterations this many long decide convergence (§10 #19). */
export const CONVERGENCE_WINDOW = 3;

/** γ = 1 ⟺ max − min of the last 3 root v values < τ_c and r_0^aggr > τ_r^exp (needs ≥ 3 entries). */
export function hasConverged(rootHistory: readonly number[], rootReliability: number, thresholds: ToeThresholds): boolean {
  if (rootHistory.length < CONVERGENCE_WINDOW) return false;
  const window = rootHistory.slice(-CONVERGENCE_WINDOW);
  return Math.max(...window) - Math.min(...window) < thresholds.convergence && rootReliability > thresholds.expandReliability;
}

/**
 * Sub-claims as the decomposition LLM gave them, made valid: empty texts and repeated dimensions
 * dropped (one sub-claim per dimension), at most 4 kept, importance weights clamped to ≥ 0 and
 * renormalised to sum to 1 (equal weights when all are 0).
 */
export function normaliseSubclaims(subclaims: readonly Subclaim[]): Subclaim[] {
  const seen = new Set<ToeDimension>();
  const kept: Subclaim[] = [];
  for (const subclaim of subclaims) {
    const text = subclaim.text.trim();
    if (text === '' || seen.has(subclaim.dimension) || !TOE_DIMENSIONS.includes(subclaim.dimension)) continue;
    seen.add(subclaim.dimension);
    kept.push({ text, dimension: subclaim.dimension, importance: Number.isFinite(subclaim.importance) ? Math.max(0, subclaim.importance) : 0 });
    if (kept.length === MAX_SUBCLAIMS) break;
  }
  const total = kept.reduce((sum, s) => sum + s.importance, 0);
  return kept.map((s) => ({ ...s, importance: total > 0 ? s.importance / total : 1 / kept.length }));
}

/** Adds normalised sub-claims as pending children of `parentId`; returns their ids. */
export function addSubclaims(tree: ToeTree, parentId: string, subclaims: readonly Subclaim[]): string[] {
  const parent = tree.nodes[parentId]!;
  const ids: string[] = [];
  for (const subclaim of normaliseSubclaims(subclaims)) {
    const id = `n${tree.nextOrder}`;
    tree.nodes[id] = {
      id,
      parentId,
      childIds: [],
      claim: subclaim.text,
      depth: parent.depth + 1,
      dimension: subclaim.dimension,
      importance: subclaim.importance,
      order: tree.nextOrder,
      status: 'pending',
    };
    tree.nextOrder += 1;
    parent.childIds.push(id);
    ids.push(id);
  }
  return ids;
}

/** Marks φ on every evaluated node from its aggregate scores. */
export function markDecisive(tree: ToeTree, thresholds: ToeThresholds): void {
  for (const node of Object.values(tree.nodes)) {
    if (node.status === 'evaluated' && node.vAggr !== undefined && node.rAggr !== undefined) {
      node.decisive = isDecisive(node.vAggr, node.rAggr, thresholds);
    }
  }
}

/**
 * Prune (§5.3): for every decisive node with children, its pending descendants leave the queue
 * and are marked pruned. Evaluated nodes always stay. Returns the new queue and the pruned ids.
 */
export function prunePending(tree: ToeTree, queue: readonly string[]): { queue: string[]; pruned: string[] } {
  const pruned = new Set<string>();
  for (const node of Object.values(tree.nodes)) {
    if (node.status !== 'evaluated' || !node.decisive || node.childIds.length === 0) continue;
    for (const id of descendantsOf(tree, node.id)) {
      const descendant = tree.nodes[id]!;
      if (descendant.status === 'pending') {
        descendant.status = 'pruned';
        pruned.add(id);
      }
    }
  }
  return { queue: queue.filter((id) => !pruned.has(id)), pruned: [...pruned].sort((a, b) => tree.nodes[a]!.order - tree.nodes[b]!.order) };
}

export function descendantsOf(tree: ToeTree, id: string): string[] {
  const out: string[] = [];
  const stack = [...tree.nodes[id]!.childIds];
  while (stack.length > 0) {
    const next = stack.shift()!;
    out.push(next);
    stack.push(...tree.nodes[next]!.childIds);
  }
  return out;
}

export type ToeVerdict = 'true' | 'false' | 'uncertain';

/** Final label (§2.4): v_0 < 0.4 → false, 0.4 ≤ v_0 ≤ 0.6 → uncertain, v_0 > 0.6 → true. */
export function finalVerdict(rootVeracity: number, mapping: ToeFinalMapping): ToeVerdict {
  if (rootVeracity < mapping.falseBelow) return 'false';
  if (rootVeracity > mapping.trueAbove) return 'true';
  return 'uncertain';
}
