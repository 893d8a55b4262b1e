import type { SentenceSpan } from '../shared/check/document';

/** Abbreviations after which Intl.Segmenter ends a sentence too early ("Dr. | Smith"). */
const ABBREVIATIONS = new Set(['dr', 'mr', 'mrs', 'ms', 'prof', 'st', 'sr', 'jr', 'vs', 'etc', 'e.g', 'i.e', 'no', 'fig', 'approx', 'inc', 'ltd', 'co', 'mt', 'gen', 'col', 'lt', 'u.s', 'u.k', 'jan', 'feb', 'mar', 'apr', 'jun', 'jul', 'aug', 'sep', 'sept', 'oct', 'nov', 'dec']);

function endsWithAbbreviation(segment: string): boolean {
  const match = /(?:^|[\s(])([A-Za-z](?:[A-Za-z.]*[A-Za-z])?)\.\s*$/.exec(segment);
  if (!match) return false;
  const word = match[1]!.toLowerCase();
  // A single letter is an initial ("J. Smith").
  return ABBREVIATIONS.has(word) || /^[a-z]$/.test(word);
}

/**
 * The document's sentences with their character spans (UTF-16 offsets, end exclusive, surrounding
 * white space excluded), by Unicode sentence segmentation with common abbreviations rejoined.
 * Segments that are only white space or punctuation are not sentences.
 */
export function splitSentences(text: string, locale = 'en'): SentenceSpan[] {
  const segments = [...new Intl.Segmenter(locale, { granularity: 'sentence' }).segment(text)];
  const merged: { start: number; end: number }[] = [];
  let pendingStart: number | undefined;
  for (const { segment, index } of segments) {
    const start = pendingStart ?? index;
    const end = index + segment.length;
    if (endsWithAbbreviation(segment) && end < text.length) {
      pendingStart = start;
      continue;
    }
    pendingStart = undefined;
    merged.push({ start, end });
  }
  if (pendingStart !== undefined) merged.push({ start: pendingStart, end: text.length });

  const sentences: SentenceSpan[] = [];
  for (const { start, end } of merged) {
    const raw = text.slice(start, end);
    const leading = raw.length - raw.trimStart().length;
    const trimmed = raw.trim();
    if (!/[\p{L}\p{N}]/u.test(trimmed)) continue;
    const from = start + leading;
    sentences.push({ index: sentences.length, start: from, end: from + trimmed.length, text: trimmed });
  }
  return sentences;
}
