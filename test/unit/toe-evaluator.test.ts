import { describe, expect, it } from 'vitest';
import { EMPTY_BELIEF, evaluateEvidence, evidenceWeight, MAX_EVIDENCE_SLOTS } from '../../src/methods/toe/sandbox/logic/evaluator';
import type { EvidenceItem } from '../../src/methods/toe/sandbox/logic/evidence-item';

function item(overrides: Partial<EvidenceItem>): EvidenceItem {
  return { id: 'd', action: 'web', stance: 'neutral', relevance: 1, credibility: 1, authoritative: false, primary: true, ...overrides };
}

describe('ToE rule-based evaluator (toe.md §4.4)', () => {
  it('gives v = 0.5, r = 0 without evidence', () => {
    expect(evaluateEvidence([])).toEqual({ veracity: 0.5, reliability: 0 });
    expect(EMPTY_BELIEF).toEqual({ veracity: 0.5, reliability: 0 });
  });

  it('weighs an item by relevance · credibility · (1 + 0.5·auth) · (primary ? 1 : 0.7)', () => {
    expect(evidenceWeight(item({ relevance: 1, credibility: 0.8, authoritative: true, primary: true }))).toBeCloseTo(1.2, 12);
    expect(evidenceWeight(item({ relevance: 0.5, credibility: 0.6, authoritative: false, primary: false }))).toBeCloseTo(0.21, 12);
  });

  it('matches a worked example with support, refute and neutral items', () => {
    const items = [
      item({ id: 'a', stance: 'support', relevance: 1, credibility: 0.8, authoritative: true }), // q = 1.2
      item({ id: 'b', stance: 'refute', relevance: 0.5, credibility: 0.6, primary: false }), // q = 0.21
      item({ id: 'c', stance: 'neutral' }), // q = 1
    ];
    // S = 1.2, R = 0.21, N = 1, κ = 1
    const v = (1.2 + 0.5) / (1.2 + 0.21 + 1); // 0.70539…
    const mass = 1 - Math.exp(-(1.41 + 0.25) / 1.5); // 1 − e^(−1.10667) = 0.66934…
    const consistency = 0.99 / 1.41;
    const r = mass * (0.4 + 0.6 * consistency) + 0.1; // + authoritative bonus
    const belief = evaluateEvidence(items);
    expect(belief.veracity).toBeCloseTo(v, 9);
    expect(belief.veracity).toBeCloseTo(0.705394, 5);
    expect(belief.reliability).toBeCloseTo(r, 9);
    expect(belief.reliability).toBeCloseTo(0.649714, 5);
  });

  it('is low-reliability when support and refutation balance', () => {
    const belief = evaluateEvidence([item({ id: 'a', stance: 'support' }), item({ id: 'b', stance: 'refute' })]);
    expect(belief.veracity).toBeCloseTo(0.5, 12);
    // consistency 0 → r = mass · 0.4 = (1 − e^(−2/1.5)) · 0.4
    expect(belief.reliability).toBeCloseTo((1 - Math.exp(-2 / 1.5)) * 0.4, 12);
  });

  it('is invariant to the order of the evidence and reads only 20 slots', () => {
    const items = Array.from({ length: 6 }, (_, i) =>
      item({ id: `d${i}`, stance: (['support', 'refute', 'neutral'] as const)[i % 3], relevance: (i + 1) / 7, credibility: 1 - i / 10, authoritative: i === 4 }),
    );
    expect(evaluateEvidence([...items].reverse())).toEqual(evaluateEvidence(items));
    const many = Array.from({ length: MAX_EVIDENCE_SLOTS + 5 }, (_, i) => item({ id: `s${i}`, stance: i < MAX_EVIDENCE_SLOTS ? 'support' : 'refute' }));
    expect(evaluateEvidence(many)).toEqual(evaluateEvidence(many.slice(0, MAX_EVIDENCE_SLOTS)));
  });

  it('never raises v when an authoritative refuting item is added, and keeps v, r in [0, 1]', () => {
    let seed = 42;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let trial = 0; trial < 300; trial++) {
      const items = Array.from({ length: Math.floor(random() * 8) }, (_, i) =>
        item({ id: `t${i}`, stance: (['support', 'refute', 'neutral'] as const)[Math.floor(random() * 3)], relevance: random(), credibility: random(), authoritative: random() < 0.3, primary: random() < 0.5 }),
      );
      const before = evaluateEvidence(items);
      const after = evaluateEvidence([...items, item({ id: 'auth', stance: 'refute', relevance: random(), credibility: random(), authoritative: true })]);
      expect(after.veracity).toBeLessThanOrEqual(before.veracity + 1e-12);
      for (const value of [before.veracity, before.reliability, after.veracity, after.reliability]) {
        expect(value).toBeGreaterThanOrEqual(0);
        expect(value).toBeLessThanOrEqual(1);
      }
    }
  });
});
