import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { mulberry32, shuffled } from '../shared/prng';
import { DEFAULT_PASSAGE_CHARS, splitIntoPassages, type CorpusPassage } from './passages';
import type { CorpusDocument } from './document';

/**
 * A deterministic stand-in for a Wikipedia passage dump (no registry ships one): passage `i` of
 * seed `s` takes a passage of the shared corpus chosen by a PRNG seeded from (s, i) and shuffles
 * its words. Ids are distinct (`gen-<s>:<i>`), text is random access (no file is ever written), and
 * the same (source file, seed, i) always gives the same passage. It is GENERATED text, not a real dump.
 */
export interface GeneratedCorpusSpec {
  /** The JSONL corpus the words come from (e.g. /work/shared/data/corpus/wiki.jsonl). */
  sourceFile: string;
  /** sha256 of that file: a worker with another file refuses instead of generating other text. */
  sourceSha256: string;
  seed: number;
  /** Passages in the whole corpus. */
  total: number;
}

export interface GeneratedPassage extends CorpusPassage {
  /** The source passage the words were taken from (`<doc id>#<passage>`). */
  from: string;
}

export const GENERATED_SOURCE_LABEL = 'generated';

export interface SourcePassages {
  sha256: string;
  passages: CorpusPassage[];
}

/** Reads the source corpus once and splits it into passages (the generator's vocabulary of texts). */
export function loadSourcePassages(file: string): SourcePassages {
  const raw = fs.readFileSync(file);
  const passages: CorpusPassage[] = [];
  for (const line of raw.toString('utf8').split('\n')) {
    if (line.trim() === '') continue;
    const parsed = JSON.parse(line) as { id?: unknown; title?: unknown; text?: unknown };
    if (typeof parsed.id !== 'string' || typeof parsed.text !== 'string') continue;
    const document: CorpusDocument = { id: parsed.id, title: typeof parsed.title === 'string' ? parsed.title : '', text: parsed.text, sentences: null, source: 'source' };
    passages.push(...splitIntoPassages(document, DEFAULT_PASSAGE_CHARS));
  }
  if (passages.length === 0) throw new Error(`${file} has no passages to generate from`);
  return { sha256: createHash('sha256').update(raw).digest('hex'), passages };
}

export function sha256OfFile(file: string): string {
  return createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

/** A 32-bit seed per (seed, i), so every passage is generated on its own (random access). */
function passageSeed(seed: number, index: number): number {
  return (Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(index + 1, 0xc2b2ae35)) >>> 0;
}

export function generatedDocId(seed: number, index: number): string {
  return `gen-${seed}:${index}`;
}

export function generatedPassage(source: SourcePassages, seed: number, index: number): GeneratedPassage {
  const random = mulberry32(passageSeed(seed, index));
  const from = source.passages[Math.floor(random() * source.passages.length)]!;
  const words = from.text.split(/\s+/).filter((word) => word !== '');
  return {
    docId: generatedDocId(seed, index),
    title: from.title,
    passage: 0,
    text: shuffled(words, random).join(' '),
    from: `${from.docId}#${from.passage}`,
  };
}

/** Passages [start, end) of the generated corpus. */
export function generatedRange(source: SourcePassages, seed: number, start: number, end: number): GeneratedPassage[] {
  const out: GeneratedPassage[] = [];
  for (let index = start; index < end; index += 1) out.push(generatedPassage(source, seed, index));
  return out;
}
