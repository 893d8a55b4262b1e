import { describe, expect, it } from 'vitest';
import { decideVerdict } from '../../src/simulator/verdict-heuristic';

const passages = [
  { id: 'Lyon#0', text: 'Lyon is the third-largest city of France.' },
  { id: 'Paris#0', text: 'Paris is the capital and most populous city of France.' },
  { id: 'Eiffel#1', text: 'The Eiffel Tower was completed in 1889 in Paris.' },
];

describe('decideVerdict', () => {
  it('supports a claim stated by the best passage and cites it first', () => {
    const decision = decideVerdict('Paris is the capital of France.', passages);
    expect(decision.label).toBe('SUPPORTED');
    expect(decision.citedIds[0]).toBe('Paris#0');
    expect(decision.overlap).toBe(1);
  });

  it('refutes when only one side is negated', () => {
    expect(decideVerdict('Paris is not the capital of France.', passages).label).toBe('REFUTED');
    expect(decideVerdict("Paris isn't the capital of France.", passages).label).toBe('REFUTED');
  });

  it('refutes when the numbers disagree', () => {
    expect(decideVerdict('The Eiffel Tower was completed in 1889.', passages).label).toBe('SUPPORTED');
    const decision = decideVerdict('The Eiffel Tower was completed in 1901.', passages);
    expect(decision).toMatchObject({ label: 'REFUTED', citedIds: ['Eiffel#1'] });
  });

  it('says NEI when the overlap is weak or there is no evidence', () => {
    expect(decideVerdict('Berlin hosts the largest zoo in Germany.', passages).label).toBe('NEI');
    expect(decideVerdict('Paris is the capital of France.', [])).toMatchObject({ label: 'NEI', citedIds: [] });
  });
});
