import type { CorpusDocument } from './document';

export const DEFAULT_PASSAGE_CHARS = 600;

export interface CorpusPassage {
  docId: string;
  title: string;
  /** 0-based position of the passage within its document. */
  passage: number;
  text: string;
}

// A boundary is whitespace after . ! or ? (optionally closed by a quote or bracket)
// that is followed by something that can start a sentence.
const SENTENCE_BOUNDARY = /(?<=[.!?]["'”’)\]]?)\s+(?=["'“‘([]?[\p{Lu}\p{N}])/u;

/** Splits unsplit text at sentence-like boundaries and at line breaks. */
export function splitSentences(text: string): string[] {
  return text
    .split(/\n+/)
    .flatMap((paragraph) => paragraph.split(SENTENCE_BOUNDARY))
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence !== '');
}

/** Cuts a piece longer than maxChars at whitespace (or hard, if it has none) into pieces that fit. */
function cutToFit(text: string, maxChars: number): string[] {
  const pieces: string[] = [];
  let rest = text;
  while (rest.length > maxChars) {
    const space = rest.lastIndexOf(' ', maxChars);
    const cut = space > 0 ? space : maxChars;
    pieces.push(rest.slice(0, cut).trim());
    rest = rest.slice(cut).trim();
  }
  if (rest !== '') pieces.push(rest);
  return pieces;
}

/** Greedily packs consecutive sentences into windows of at most maxChars (joined by spaces). */
export function packSentences(sentences: string[], maxChars: number): string[] {
  const windows: string[] = [];
  let current = '';
  for (const sentence of sentences.flatMap((s) => cutToFit(s, maxChars))) {
    if (current === '') {
      current = sentence;
    } else if (current.length + 1 + sentence.length <= maxChars) {
      current = `${current} ${sentence}`;
    } else {
      windows.push(current);
      current = sentence;
    }
  }
  if (current !== '') windows.push(current);
  return windows;
}

function sentencesOf(document: CorpusDocument): string[] {
  const given = document.sentences?.map((sentence) => sentence.trim()).filter((sentence) => sentence !== '');
  return given && given.length > 0 ? given : splitSentences(document.text);
}

/** Splits a document into passages of consecutive sentences of about maxChars characters. */
export function splitIntoPassages(document: CorpusDocument, maxChars = DEFAULT_PASSAGE_CHARS): CorpusPassage[] {
  if (!Number.isInteger(maxChars) || maxChars < 1) throw new RangeError(`passage size must be a positive integer, got ${maxChars}`);
  return packSentences(sentencesOf(document), maxChars).map((text, passage) => ({
    docId: document.id,
    title: document.title,
    passage,
    text,
  }));
}
