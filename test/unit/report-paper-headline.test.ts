import { describe, expect, it } from 'vitest';
import { confusionMatrix, repeatMetrics, type RepeatTrial } from '../../src/metrics';
import { paperHeadline } from '../../src/report/paper-headline';

const THREE = ['SUPPORTED', 'REFUTED', 'NEI'] as const;
type Three = (typeof THREE)[number];

/** 7 claims, 4 right: accuracy 4/7 = 57.142…%. */
const pairs = (['SUPPORTED', 'SUPPORTED', 'REFUTED', 'REFUTED', 'NEI', 'NEI', 'SUPPORTED'] as Three[]).map((gold, i) => ({ gold, predicted: i < 4 ? gold : ('REFUTED' as Three) }));

describe("protocol paper reports each method's own number (issue 37 §2.6)", () => {
  it('Tool-MAD: EM accuracy in %, one decimal', () => {
    expect(paperHeadline('tool-mad', confusionMatrix(pairs, THREE), null)).toEqual({ metric: 'EM accuracy % (Tool-MAD)', value: 57.1 });
  });

  it('ToE: the median accuracy of its trials, not their mean', () => {
    const trial = (repeat: number, claimId: string, right: boolean): RepeatTrial<Three> => ({ claimId, repeat, gold: 'SUPPORTED', predicted: right ? 'SUPPORTED' : 'REFUTED' });
    // Trial accuracies 1, 1, 0: median 1, mean 2/3.
    const trials = [1, 2, 3].flatMap((repeat) => ['a', 'b'].map((claimId) => trial(repeat, claimId, repeat < 3)));
    const headline = paperHeadline('toe', confusionMatrix(trials, THREE), repeatMetrics(trials, THREE));
    expect(headline).toEqual({ metric: 'median accuracy of 3 trial(s) (ToE)', value: 1 });
  });

  it('MERMAID: the mean of both class F1s, two decimals; EMULATE keeps its eval.ipynb rounding', () => {
    const binary = ['SUPPORTED', 'REFUTED'] as const;
    const matrix = confusionMatrix([{ gold: 'SUPPORTED' as const, predicted: 'SUPPORTED' as const }, { gold: 'SUPPORTED' as const, predicted: 'REFUTED' as const }], binary);
    // SUPPORTED F1 2/3, REFUTED F1 0 (P 0, R 0): both classes averaged → 0.33.
    expect(paperHeadline('mermaid', matrix, null)).toEqual({ metric: 'macro-F1 of both classes (MERMAID)', value: 0.33 });
    expect(paperHeadline('emulate', matrix, null).metric).toBe('macro-F1 (EMULATE eval.ipynb rounding)');
  });
});
