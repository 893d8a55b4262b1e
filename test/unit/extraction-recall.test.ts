import { describe, expect, it } from 'vitest';
import { scoreExtraction, tokenF1 } from '../../eval/bench/check/extraction-recall';

describe('tokenF1', () => {
  it('is 1 for the same claim whatever its case and punctuation, 0 without a common word', () => {
    expect(tokenF1('Barack Obama was born in Honolulu, Hawaii.', 'barack obama was born in honolulu hawaii')).toBe(1);
    expect(tokenF1('Paris is in France.', 'Mount Everest is high')).toBeCloseTo(0.25);
    expect(tokenF1('Paris', 'Everest')).toBe(0);
    expect(tokenF1('', 'Everest')).toBe(0);
  });

  it('counts a repeated word only as often as the other claim has it', () => {
    expect(tokenF1('the the the', 'the cat')).toBeCloseTo((2 * (1 / 3) * (1 / 2)) / (1 / 3 + 1 / 2));
  });
});

describe('scoreExtraction (gold atomic claims recovered by the extraction)', () => {
  const gold = ['Barack Obama was born in Honolulu, Hawaii.', "Barack Obama's mother was from Kansas.", "Barack Obama's father was from Kenya."];

  it('recovers a gold claim reworded by decontextualisation, not one that was dropped', () => {
    const score = scoreExtraction(gold, ['Barack Obama was born in Honolulu.', "Obama's mother came from Kansas.", 'I think Hawaii is beautiful.']);
    expect(score.matches.map((m) => m.recovered)).toEqual([true, true, false]);
    expect(score).toMatchObject({ gold: 3, extracted: 3, recovered: 2 });
    expect(score.recall).toBeCloseTo(2 / 3);
    expect(score.precision).toBeCloseTo(2 / 3);
    expect(score.matches[0]).toMatchObject({ extracted: 'Barack Obama was born in Honolulu.', position: 0 });
  });

  it('scores nothing extracted as recall 0 with no precision', () => {
    expect(scoreExtraction(gold, [])).toMatchObject({ recovered: 0, recall: 0, precision: null, meanBestF1: 0 });
  });
});
