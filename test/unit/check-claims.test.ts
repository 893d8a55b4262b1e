import { describe, expect, it } from 'vitest';
import { claimKey, duplicatePositions, normaliseClaim } from '../../src/shared/check/claim-key';
import { documentScores } from '../../src/shared/check/document-scores';

describe('claim dedup within a document', () => {
  it('normalises case, punctuation, symbols and spacing', () => {
    expect(normaliseClaim('  The Eiffel  Tower was completed in 1889! ')).toBe('the eiffel tower was completed in 1889');
    expect(claimKey('The Eiffel Tower was completed in 1889.')).toBe(claimKey('the eiffel tower, was completed in 1889'));
    expect(claimKey('The Eiffel Tower was completed in 1889.')).not.toBe(claimKey('The Eiffel Tower was completed in 1887.'));
  });

  it('points each repeat to its first occurrence', () => {
    expect(duplicatePositions(['Paris is in France.', 'Berlin is in Germany.', 'paris is in france', 'PARIS is in France!'])).toEqual([undefined, undefined, 0, 0]);
    expect(duplicatePositions([])).toEqual([]);
  });
});

describe('documentScores', () => {
  const claims = (labels: string[]) => labels.map((label) => (label === 'skip' ? { skipped: 'opinion' } : label === 'fail' ? { failure: 'boom' } : { label: label as 'SUPPORTED' | 'REFUTED' | 'NEI' }));

  it("gives FActScore's precision and SAFE's F1@K", () => {
    const scores = documentScores(claims(['SUPPORTED', 'SUPPORTED', 'SUPPORTED', 'REFUTED', 'NEI', 'skip', 'fail']), 4);
    expect(scores).toMatchObject({ supported: 3, notSupported: 2, nei: 1, skipped: 1, failed: 1, k: 4 });
    expect(scores.precision).toBeCloseTo(3 / 5);
    expect(scores.recallAtK).toBeCloseTo(3 / 4);
    expect(scores.f1AtK).toBeCloseTo((2 * 0.6 * 0.75) / (0.6 + 0.75));
  });

  it('caps recall at 1 once the document has K supported claims', () => {
    const scores = documentScores(claims(['SUPPORTED', 'SUPPORTED', 'REFUTED']), 2);
    expect(scores.recallAtK).toBe(1);
    expect(scores.f1AtK).toBeCloseTo((2 * (2 / 3) * 1) / (2 / 3 + 1));
  });

  it('is 0 without a supported claim, and has no precision without a verified one', () => {
    expect(documentScores(claims(['REFUTED', 'NEI']), 64)).toMatchObject({ precision: 0, recallAtK: 0, f1AtK: 0 });
    expect(documentScores(claims(['skip', 'fail']), 64)).toMatchObject({ precision: null, recallAtK: 0, f1AtK: 0 });
  });

  it('refuses a K that is not a whole number above 0', () => {
    expect(() => documentScores([], 0)).toThrow(/K must be/);
    expect(() => documentScores([], 1.5)).toThrow(/K must be/);
  });
});
