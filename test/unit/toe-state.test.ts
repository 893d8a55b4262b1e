import { describe, expect, it } from 'vitest';
import { buildPolicyState, STATE_LAYOUT, STATE_LAYOUT_VERSION } from '../../src/methods/toe/sandbox/logic/state';
import { TOE_STATE_DIM } from '../../src/methods/toe/sandbox/toe-policy';

describe('ToE 29-dim policy state (toe.md §3.3)', () => {
  it('has a versioned layout covering indices 0..28 exactly once', () => {
    expect(STATE_LAYOUT.version).toBe(STATE_LAYOUT_VERSION);
    const covered = STATE_LAYOUT.fields.flatMap((f) => Array.from({ length: f.width }, (_, i) => f.offset + i));
    expect(covered).toEqual(Array.from({ length: TOE_STATE_DIM }, (_, i) => i));
  });

  it('encodes a worked example', () => {
    const state = buildPolicyState({
      features: { category: 'political', locale: 'domestic', flags: { recent: true, historical: false, factual: true, opinion: false, prediction: false } },
      actionsTaken: ['factcheck', 'web'],
      documents: 4,
      evidence: [
        { stance: 'support', authoritative: true },
        { stance: 'refute', authoritative: false },
        { stance: 'neutral', authoritative: false },
        { stance: 'support', authoritative: false },
      ],
      reliability: 0.55,
      maxSearchSteps: 5,
      maxDocuments: 10,
    });
    expect(state).toEqual([
      1, 0, 0, 0, 0, 0, // political
      1, 0, 0, // domestic
      1, 0, 1, 0, 0, // recent, factual
      2 / 5, // searches done
      1 - 4 / 10, // document budget left
      4 / 10, // evidence items
      2 / 4, 1 / 4, 1 / 4, // stance shares
      1 / 5, 0, 0, 0, 0, 1 / 5, 0, // web, counter, arxiv, wikipedia, social, factcheck, reddit
      1, // authoritative found
      0.55,
    ]);
  });

  it('starts an episode with no progress and clips at the budgets', () => {
    const features = { category: 'other' as const, locale: 'global' as const, flags: { recent: false, historical: false, factual: false, opinion: true, prediction: true } };
    const start = buildPolicyState({ features, actionsTaken: [], documents: 0, evidence: [], reliability: 0, maxSearchSteps: 5, maxDocuments: 10 });
    expect(start).toHaveLength(29);
    expect(start.slice(0, 14)).toEqual([0, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 1, 1]);
    expect(start.slice(14)).toEqual([0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    const full = buildPolicyState({ features, actionsTaken: ['web', 'web', 'web', 'web', 'web', 'web'], documents: 12, evidence: Array.from({ length: 12 }, () => ({ stance: 'neutral' as const, authoritative: false })), reliability: 1.3, maxSearchSteps: 5, maxDocuments: 10 });
    expect([full[14], full[15], full[16], full[20], full[28]]).toEqual([1, 0, 1, 1, 1]);
  });
});
