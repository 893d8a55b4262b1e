import { splitSentences } from '../../corpus/passages';

const STOPWORDS = new Set(
  'a an and are as at be by for from has have in is it its of on or that the this to was were which with who'.split(' '),
);

function terms(text: string): Set<string> {
  return new Set((text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((term) => term.length > 1 && !STOPWORDS.has(term)));
}

/** The first `count` sentences of a text. */
export function leadingSentences(text: string, count: number): string[] {
  return splitSentences(text).slice(0, count);
}

/**
 * Sentences ranked by how many of the topic's terms they contain (earlier sentences first on ties);
 * sentences sharing no term are left out, and without any match the leading sentences are returned.
 */
export function sentencesAboutTopic(text: string, topic: string, count: number): string[] {
  const wanted = terms(topic);
  const scored = splitSentences(text)
    .map((sentence, position) => ({ sentence, position, overlap: [...terms(sentence)].filter((term) => wanted.has(term)).length }))
    .filter((candidate) => candidate.overlap > 0)
    .sort((a, b) => b.overlap - a.overlap || a.position - b.position);
  return scored.length === 0 ? leadingSentences(text, count) : scored.slice(0, count).map((candidate) => candidate.sentence);
}
