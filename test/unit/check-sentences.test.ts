import { describe, expect, it } from 'vitest';
import { splitSentences } from '../../src/check/sentences';
import { sentenceContext } from '../../src/shared/check/context';

describe('splitSentences', () => {
  it('gives each sentence with its exact span in the text', () => {
    const text = '  The Eiffel Tower is in Paris. It was completed in 1889!\n\nIs it tall? Yes.';
    const sentences = splitSentences(text);
    expect(sentences.map((s) => s.text)).toEqual(['The Eiffel Tower is in Paris.', 'It was completed in 1889!', 'Is it tall?', 'Yes.']);
    for (const sentence of sentences) expect(text.slice(sentence.start, sentence.end)).toBe(sentence.text);
    expect(sentences.map((s) => s.index)).toEqual([0, 1, 2, 3]);
  });

  it('keeps abbreviations, initials and decimals inside their sentence', () => {
    const sentences = splitSentences('Dr. Smith met J. R. Tolkien in St. Andrews. The tower is 3.5 km away, e.g. near the river.');
    expect(sentences.map((s) => s.text)).toEqual(['Dr. Smith met J. R. Tolkien in St. Andrews.', 'The tower is 3.5 km away, e.g. near the river.']);
  });

  it('counts spans in UTF-16 units, as JavaScript strings index them', () => {
    const text = 'Ça va 😀. Zürich liegt in der Schweiz.';
    const [, second] = splitSentences(text);
    expect(text.slice(second!.start, second!.end)).toBe('Zürich liegt in der Schweiz.');
  });

  it('skips segments with no letter or digit, and finds none in white space', () => {
    expect(splitSentences('... !!! ---')).toEqual([]);
    expect(splitSentences(' \n\t ')).toEqual([]);
    expect(splitSentences('No full stop at the end').map((s) => s.text)).toEqual(['No full stop at the end']);
  });
});

describe('sentenceContext', () => {
  const sentences = ['One.', 'Two two.', 'Three three three.', 'Four.', 'Five.'];

  it('grows around the sentence, one on each side in turn, within the limit', () => {
    expect(sentenceContext(sentences, 2, 1000)).toBe('One. Two two. Three three three. Four. Five.');
    expect(sentenceContext(sentences, 2, 'Three three three.'.length + 'Two two.'.length + 'Four.'.length + 2)).toBe('Two two. Three three three. Four.');
    expect(sentenceContext(sentences, 0, 10)).toBe('One.');
  });

  it('always includes the sentence itself', () => {
    expect(sentenceContext(sentences, 2, 3)).toBe('Three three three.');
    expect(sentenceContext(sentences, 9, 100)).toBe('');
  });
});
