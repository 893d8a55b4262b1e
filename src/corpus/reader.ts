import fs from 'node:fs';
import readline from 'node:readline';
import type { CorpusDocument, CorpusFormat } from './document';
import { FingerprintSet } from './fingerprint-set';
import { parseCorpusLine } from './formats';

/** Only the first malformed lines are kept with their reasons; all are counted. */
export const MAX_REPORTED_MALFORMED = 100;

export interface MalformedLine {
  line: number;
  reason: string;
}

/** A document left out, with its line: a repeated id (the first one is kept) or no text at all. */
export interface OmittedDocument {
  line: number;
  id: string;
}

/** Counted in full; the first MAX_REPORTED_MALFORMED kept with their lines. */
export interface OmittedDocuments {
  count: number;
  first: OmittedDocument[];
}

export interface ReadCorpusOptions {
  format?: CorpusFormat;
  /** Fail on the first malformed line instead of skipping it. */
  strict?: boolean;
}

/** Counters a reader updates while it streams; read them during or after iteration. */
export interface CorpusReadStats {
  lines: number;
  documents: number;
  skipped: number;
  malformedCount: number;
  malformed: MalformedLine[];
  /** Documents whose id an earlier line already had (their passages would overwrite its passages). */
  duplicates: OmittedDocuments;
  /** Documents without any text: they have no passage. */
  empty: OmittedDocuments;
  bytesRead: number;
}

export class CorpusFormatError extends Error {
  override name = 'CorpusFormatError';
  constructor(
    readonly file: string,
    readonly line: number,
    readonly reason: string,
  ) {
    super(`${file}:${line}: malformed corpus line (${reason})`);
  }
}

export function emptyReadStats(): CorpusReadStats {
  return { lines: 0, documents: 0, skipped: 0, malformedCount: 0, malformed: [], duplicates: { count: 0, first: [] }, empty: { count: 0, first: [] }, bytesRead: 0 };
}

function recordOmitted(omitted: OmittedDocuments, line: number, id: string): void {
  omitted.count += 1;
  if (omitted.first.length < MAX_REPORTED_MALFORMED) omitted.first.push({ line, id });
}

function hasText(document: CorpusDocument): boolean {
  return document.text.trim() !== '' || (document.sentences ?? []).some((sentence) => sentence.trim() !== '');
}

function recordMalformed(stats: CorpusReadStats, line: number, reason: string): void {
  stats.malformedCount += 1;
  if (stats.malformed.length < MAX_REPORTED_MALFORMED) stats.malformed.push({ line, reason });
}

/** Streams a JSONL corpus line by line; blank lines are ignored, bad lines, repeated ids and documents without text skipped and counted. */
export async function* readCorpus(
  file: string,
  options: ReadCorpusOptions = {},
  stats: CorpusReadStats = emptyReadStats(),
): AsyncGenerator<CorpusDocument> {
  const stream = fs.createReadStream(file);
  const lines = readline.createInterface({ input: stream, crlfDelay: Infinity });
  const seen = new FingerprintSet();
  try {
    for await (const line of lines) {
      stats.lines += 1;
      stats.bytesRead = stream.bytesRead;
      if (line.trim() === '') continue;
      const parsed = parseCorpusLine(line, options.format);
      if (parsed.kind === 'document') {
        if (!seen.add(parsed.document.id)) recordOmitted(stats.duplicates, stats.lines, parsed.document.id);
        else if (!hasText(parsed.document)) recordOmitted(stats.empty, stats.lines, parsed.document.id);
        else {
          stats.documents += 1;
          yield parsed.document;
        }
      } else if (parsed.kind === 'skipped') {
        stats.skipped += 1;
      } else if (options.strict) {
        throw new CorpusFormatError(file, stats.lines, parsed.reason);
      } else {
        recordMalformed(stats, stats.lines, parsed.reason);
      }
    }
    stats.bytesRead = stream.bytesRead;
  } finally {
    lines.close();
    stream.destroy();
  }
}
