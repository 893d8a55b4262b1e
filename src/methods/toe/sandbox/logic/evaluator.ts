import type { EvidenceItem } from './evidence-item';

/** The evaluation network's input holds at most this many evidence slots (toe.md §2.3). */
export const MAX_EVIDENCE_SLOTS = 20;

export interface NodeBelief {
  /** Veracity v ∈ [0,1]: 1 = the claim is true. */
  veracity: number;
  /** Reliability r ∈ [0,1]: how much the evidence can be trusted to decide. */
  reliability: number;
}

/** Belief before any evidence: v = 0.5, r = evaluator(∅) = 0 (toe.md §3.5). */
export const EMPTY_BELIEF: NodeBelief = { veracity: 0.5, reliability: 0 };

const KAPPA = 1;
const MASS_SCALE = 1.5;
const NEUTRAL_MASS_SHARE = 0.25;
const AUTHORITY_BONUS = 0.1;

/** q_i: the item's weight from relevance, credibility, authority and primary-report status. */
export function evidenceWeight(item: Pick<EvidenceItem, 'relevance' | 'credibility' | 'authoritative' | 'primary'>): number {
  return clamp01(item.relevance) * clamp01(item.credibility) * (1 + 0.5 * (item.authoritative ? 1 : 0)) * (item.primary ? 1 : 0.7);
}

/**
 * The rule-based evaluator of toe.md §4.4 (the default in place of the evaluation network):
 * stance-weighted veracity shrunk towards 0.5 when evidence is thin, and a reliability that grows
 * with the amount of evidence (concave) and with agreement between supporting and refuting mass.
 * Order-invariant; only the first MAX_EVIDENCE_SLOTS items count.
 */
export function evaluateEvidence(items: readonly EvidenceItem[]): NodeBelief {
  const slots = items.slice(0, MAX_EVIDENCE_SLOTS);
  let support = 0;
  let refute = 0;
  let neutral = 0;
  for (const item of slots) {
    const q = evidenceWeight(item);
    if (item.stance === 'support') support += q;
    else if (item.stance === 'refute') refute += q;
    else neutral += q;
  }
  const veracity = (support + 0.5 * KAPPA) / (support + refute + KAPPA);
  const mass = 1 - Math.exp(-(support + refute + NEUTRAL_MASS_SHARE * neutral) / MASS_SCALE);
  const consistency = Math.abs(support - refute) / (support + refute + 1e-9);
  const anyAuthority = slots.some((item) => item.authoritative) ? 1 : 0;
  return { veracity, reliability: clamp01(mass * (0.4 + 0.6 * consistency) + AUTHORITY_BONUS * anyAuthority) };
}

export function clamp01(value: number): number {
  if (!Number.isFinite(value)) return 0;
  return Math.min(1, Math.max(0, value));
}
