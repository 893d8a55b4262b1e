import { describe, expect, it } from 'vitest';
import { VERDICT_LABELS } from '../../src/shared/constants';
import {
  DATASET_LABELS,
  goldSchemeLabel,
  internalLabel,
  LABEL_SCHEMES,
  parsePredictedLabel,
  predictedSchemeLabel,
} from '../../src/labels';

describe('label schemes', () => {
  it('uses the internal verdict labels for the 3-way scheme', () => {
    expect(LABEL_SCHEMES['three-way']).toBe(VERDICT_LABELS);
    expect(LABEL_SCHEMES.binary).toEqual(['SUPPORTED', 'REFUTED']);
    expect(LABEL_SCHEMES['four-way']).toHaveLength(4);
  });

  it('every dataset mapping targets internal labels', () => {
    for (const spec of Object.values(DATASET_LABELS)) {
      for (const label of Object.values(spec.toInternal)) expect(VERDICT_LABELS).toContain(label);
    }
  });
});

describe('raw dataset labels', () => {
  it.each([
    ['fever', 'SUPPORTS', 'SUPPORTED'],
    ['fever', 'NOT ENOUGH INFO', 'NEI'],
    ['fm2', 'refutes', 'REFUTED'],
    ['hover', 'NOT_SUPPORTED', 'REFUTED'],
    ['scifact', 'CONTRADICT', 'REFUTED'],
    ['feverous', 'REFUTES', 'REFUTED'],
    ['averitec', 'Conflicting Evidence/Cherrypicking', 'NEI'],
    ['averitec', 'Not Enough Evidence', 'NEI'],
    ['felm_wk', true, 'SUPPORTED'],
    ['factool_qa', 'False', 'REFUTED'],
    ['bingcheck', 'partially supported', 'SUPPORTED'],
    ['factcheck_bench', 'not_enough_evidence', 'NEI'],
    ['liar', 'half-true', 'SUPPORTED'],
    ['liar', 'barely-true', 'REFUTED'],
    ['liar', 'pants-fire', 'REFUTED'],
    ['liar_3way', 'half-true', 'NEI'],
    ['liar_3way', 'mostly-true', 'SUPPORTED'],
  ] as const)('%s %s → %s', (dataset, raw, expected) => {
    expect(internalLabel(dataset, raw)).toBe(expected);
  });

  it('returns undefined for unknown labels and throws for unknown datasets', () => {
    expect(internalLabel('fever', 'MAYBE')).toBeUndefined();
    expect(() => internalLabel('nope', 'true')).toThrow(/no label mapping/);
  });

  it('gives the gold label on the dataset scheme, dropping NEI on binary datasets', () => {
    expect(goldSchemeLabel('factcheck_bench', 'not_enough_evidence')).toBeNull();
    expect(goldSchemeLabel('factcheck_bench', 'true')).toBe('SUPPORTED');
    expect(goldSchemeLabel('averitec', 'Conflicting Evidence/Cherrypicking')).toBe('CONFLICTING');
    expect(goldSchemeLabel('averitec', 'Conflicting Evidence/Cherrypicking', 'three-way')).toBe('NEI');
    expect(goldSchemeLabel('scifact', 'NEI', 'binary')).toBeNull();
  });
});

describe("ToE's label maps (paper §IV-A, toe.md §9.1)", () => {
  // "For LIAR and PolitiFact, the labels pants-fire, false, and barely-true are mapped to false;
  // half-true is mapped to uncertain; and mostly-true and true are mapped to true."
  it.each([
    ['pants-fire', 'REFUTED'], ['false', 'REFUTED'], ['barely-true', 'REFUTED'],
    ['half-true', 'NEI'], ['mostly-true', 'SUPPORTED'], ['true', 'SUPPORTED'],
  ] as const)('LIAR 3-way: %s → %s', (raw, expected) => {
    expect(internalLabel('liar_3way', raw)).toBe(expected);
  });

  // "The two datasets differ only in that PolitiFact uses mostly-false in place of barely-true,
  // which is likewise mapped to false."
  it.each([
    ['pants-fire', 'REFUTED'], ['false', 'REFUTED'], ['mostly-false', 'REFUTED'],
    ['half-true', 'NEI'], ['mostly-true', 'SUPPORTED'], ['true', 'SUPPORTED'],
  ] as const)('PolitiFact: %s → %s', (raw, expected) => {
    expect(internalLabel('politifact', raw)).toBe(expected);
  });

  // "For Check-COVID, the labels SUPPORT, REFUTE, and NOTENOUGHINFO are mapped to true, false, and
  // uncertain, respectively."
  it.each([['SUPPORT', 'SUPPORTED'], ['REFUTE', 'REFUTED'], ['NOTENOUGHINFO', 'NEI']] as const)('Check-COVID: %s → %s', (raw, expected) => {
    expect(internalLabel('check_covid', raw)).toBe(expected);
  });

  it('scores all three on the 3-class scheme', () => {
    for (const dataset of ['liar_3way', 'politifact', 'check_covid']) expect(DATASET_LABELS[dataset as 'politifact'].scheme).toBe('three-way');
  });
});

describe('predicted labels', () => {
  it('parses common spellings', () => {
    expect(parsePredictedLabel(' supported ')).toBe('SUPPORTED');
    expect(parsePredictedLabel('Not Enough Info')).toBe('NEI');
    expect(parsePredictedLabel(false)).toBe('REFUTED');
    expect(parsePredictedLabel('banana')).toBeUndefined();
    expect(parsePredictedLabel(null)).toBeUndefined();
  });

  it('counts NEI as REFUTED on binary datasets (emulate.md §5.3, mermaid.md §7.3)', () => {
    expect(predictedSchemeLabel('NEI', 'binary')).toBe('REFUTED');
    expect(predictedSchemeLabel('NEI', 'three-way')).toBe('NEI');
    expect(predictedSchemeLabel('CONFLICTING', 'three-way')).toBe('NEI');
    expect(predictedSchemeLabel('CONFLICTING', 'four-way')).toBe('CONFLICTING');
  });

  it('leaves unparseable predictions invalid unless told where to put them', () => {
    expect(predictedSchemeLabel('History: …', 'binary')).toBeNull();
    expect(predictedSchemeLabel('History: …', 'binary', { invalidAs: 'REFUTED' })).toBe('REFUTED');
  });
});
