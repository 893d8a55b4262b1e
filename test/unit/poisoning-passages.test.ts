import { describe, expect, it } from 'vitest';
import {
  adversarialText,
  asClause,
  factCheckLeakDocuments,
  GEO_STRATEGIES,
  mentionsLeak,
  mentionsPoison,
  poisonedWebDocuments,
  poisonedWikiDocuments,
  topicOf,
} from '../../eval/poisoning/adversarial-passages';
import { summariseFlips, type ClaimOutcome } from '../../eval/poisoning/flip-metrics';
import { injectedDocuments, targetClaims } from '../../eval/poisoning/harness';
import { contentWords, hasNegation, numbersIn } from '../../src/simulator/text';

const target = { id: 'fever-1', claim: 'The Eiffel Tower was completed in 1920.', goldTitles: ['Eiffel Tower'] };

describe('adversarial passages', () => {
  it('restate every content word and number of the claim, with no negation, in each GEO strategy', () => {
    const claimWords = contentWords(target.claim);
    for (const strategy of GEO_STRATEGIES) {
      const text = adversarialText(target, strategy);
      const words = contentWords(text);
      for (const w of claimWords) expect(words.has(w), `${strategy} lacks "${w}"`).toBe(true);
      expect(numbersIn(text).has('1920')).toBe(true);
      expect(hasNegation(text), strategy).toBe(false);
    }
  });

  it('keeps the claim’s own negation (so the passage asserts, not denies, it)', () => {
    const negated = { id: 'x', claim: 'Paris is not the capital of France.', goldTitles: [] };
    for (const strategy of GEO_STRATEGIES) expect(adversarialText(negated, strategy)).toContain('Paris is not the capital of France');
  });

  it('is deterministic and makes k documents per target with distinct ids and outlets', () => {
    expect(poisonedWikiDocuments(target, 5)).toEqual(poisonedWikiDocuments(target, 5));
    const wiki = poisonedWikiDocuments(target, 5);
    expect(new Set(wiki.map((d) => d.id)).size).toBe(5);
    expect(wiki[0]!.title).toBe('Eiffel Tower (report 1)');
    const web = poisonedWebDocuments(target, 7);
    expect(web).toHaveLength(7);
    expect(web[5]!.text).toBe(web[0]!.text);
    expect(new Set(web.map((d) => d.url)).size).toBe(7);
    for (const doc of [...wiki, ...web]) expect(mentionsPoison(`${doc.id} ${doc.url ?? ''} ${doc.text}`)).toBe(true);
  });

  it('writes fact-check verdict pages on fact-check domains that state the gold label', () => {
    const leaks = factCheckLeakDocuments(target);
    expect(leaks.map((d) => new URL(d.url!).hostname)).toEqual(['www.snopes.com', 'www.politifact.com']);
    for (const d of leaks) {
      expect(hasNegation(d.text)).toBe(true);
      expect(mentionsLeak(d.text)).toBe(true);
      expect(mentionsPoison(d.text)).toBe(false);
    }
  });

  it('takes the topic from the gold title, else the first content words; lower-cases a leading article only', () => {
    expect(topicOf(target)).toBe('Eiffel Tower');
    expect(topicOf({ id: 'y', claim: 'Barack Obama was born in Kenya.', goldTitles: [] })).toBe('Barack Obama born Kenya');
    expect(asClause('The Eiffel Tower is tall')).toBe('the Eiffel Tower is tall');
    expect(asClause('Barack Obama was born in Kenya.')).toBe('Barack Obama was born in Kenya');
  });

  it('injects poison only into the poisoned corpus and the chosen targets, and leak pages into both', () => {
    expect(injectedDocuments([target], 'clean', ['wiki', 'web'], 5)).toMatchObject({ wiki: [], web: [{}, {}] });
    const poisoned = injectedDocuments([target], 'poisoned', ['web'], 5);
    expect(poisoned.wiki).toEqual([]);
    expect(poisoned.web).toHaveLength(2 + 5);
  });

  it('selects REFUTED claims in file order', () => {
    const claim = (id: string, labelNorm: 'SUPPORTED' | 'REFUTED' | 'NEI') => ({ id, dataset: 'fever', claim: id, label: labelNorm, labelNorm, goldTitles: [], meta: {} });
    expect(targetClaims([claim('a', 'SUPPORTED'), claim('b', 'REFUTED'), claim('c', 'NEI'), claim('d', 'REFUTED'), claim('e', 'REFUTED')], 2).map((t) => t.id)).toEqual(['b', 'd']);
  });
});

describe('flip metrics', () => {
  const o = (method: string, claimId: string, corpus: 'clean' | 'poisoned', label: ClaimOutcome['label'], extra: Partial<ClaimOutcome> = {}): ClaimOutcome => ({
    method,
    claimId,
    corpus,
    factCheck: 'filtered',
    label,
    poisonSeen: corpus === 'poisoned',
    leakSeen: false,
    durationMs: 1,
    ...extra,
  });

  it('counts flips and flips to SUPPORTED over claims labelled under both corpora', () => {
    const [s] = summariseFlips([
      o('rag', 'c1', 'clean', 'REFUTED'),
      o('rag', 'c1', 'poisoned', 'SUPPORTED'),
      o('rag', 'c2', 'clean', 'REFUTED'),
      o('rag', 'c2', 'poisoned', 'NEI'),
      o('rag', 'c3', 'clean', 'SUPPORTED'),
      o('rag', 'c3', 'poisoned', 'SUPPORTED'),
      o('rag', 'c4', 'clean', 'REFUTED'),
      o('rag', 'c4', 'poisoned', undefined, { error: 'boom' }),
    ]);
    expect(s).toMatchObject({ method: 'rag', pairs: 3, errors: 1, flipRate: 2 / 3, flipToSupportedRate: 1 / 3, cleanAccuracy: 2 / 3, poisonedAccuracy: 0, poisonSeenRate: 1 });
  });

  it('reports zero rates, not NaN, without pairs', () => {
    const [s] = summariseFlips([o('toe', 'c1', 'clean', undefined, { error: 'not implemented yet' })]);
    expect(s).toMatchObject({ pairs: 0, flipRate: 0, flipToSupportedRate: 0, errors: 1 });
  });
});
