import fs from 'node:fs';
import { inputFileProblem, MAX_DATA_FILE_BYTES, readInputFile } from '../config/input-file';

/** Where a record sits in its file: a 1-based line (JSONL, TSV) or a 0-based index (JSON arrays). */
export type RecordPosition = { line: number } | { index: number };

/** One raw record, or the reason it could not even be decoded. */
export type SourceRecord = { position: RecordPosition } & ({ ok: true; value: unknown } | { ok: false; reason: string });

export function describePosition(position: RecordPosition): string {
  return 'line' in position ? `line ${position.line}` : `record index ${position.index}`;
}

/** A line longer than this is not a record (a claim record is a few KB; this bounds what one line may take in memory). */
export const MAX_RECORD_LINE_BYTES = 1024 * 1024;

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** One line of a text file, or why it cannot be read as one (too long, not UTF-8). */
export type TextLine = { line: number; text: string } | { line: number; problem: string };

/**
 * Streams the non-blank lines of a UTF-8 text file with their 1-based line numbers (LF or CRLF; a
 * leading byte-order mark is dropped). A line that is not valid UTF-8, or longer than
 * MAX_RECORD_LINE_BYTES, is yielded as a problem (and a too-long line is skipped unread).
 */
export async function* textLines(file: string): AsyncGenerator<TextLine> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let parts: Buffer[] = [];
  let length = 0;
  let tooLong = false;
  let line = 0;
  let first = true;
  const finish = (): TextLine | undefined => {
    line += 1;
    const bytes = Buffer.concat(parts);
    parts = [];
    length = 0;
    if (tooLong) {
      tooLong = false;
      return { line, problem: `line is longer than ${MAX_RECORD_LINE_BYTES / (1024 * 1024)} MiB` };
    }
    const end = bytes.length > 0 && bytes[bytes.length - 1] === 0x0d ? bytes.length - 1 : bytes.length;
    let text: string;
    try {
      text = decoder.decode(bytes.subarray(0, end));
    } catch {
      return { line, problem: 'not valid UTF-8 (convert the file to UTF-8)' };
    }
    return text.trim() === '' ? undefined : { line, text };
  };
  for await (const data of fs.createReadStream(file)) {
    let chunk = data as Buffer;
    if (first) {
      first = false;
      if (chunk.subarray(0, 3).equals(UTF8_BOM)) chunk = chunk.subarray(3);
    }
    let start = 0;
    for (let newline = chunk.indexOf(0x0a, start); newline !== -1; newline = chunk.indexOf(0x0a, start)) {
      append(chunk.subarray(start, newline));
      const done = finish();
      if (done) yield done;
      start = newline + 1;
    }
    append(chunk.subarray(start));
  }
  if (length > 0 || tooLong) {
    const done = finish();
    if (done) yield done;
  }

  function append(bytes: Buffer): void {
    if (tooLong || bytes.length === 0) return;
    if (length + bytes.length > MAX_RECORD_LINE_BYTES) {
      tooLong = true;
      parts = [];
      length = 0;
      return;
    }
    parts.push(bytes);
    length += bytes.length;
  }
}

/** Streams a JSON Lines file, one decoded object per line. */
export async function* jsonLines(file: string): AsyncGenerator<SourceRecord> {
  for await (const read of textLines(file)) {
    const position = { line: read.line };
    if ('problem' in read) {
      yield { position, ok: false, reason: read.problem };
      continue;
    }
    try {
      yield { position, ok: true, value: JSON.parse(read.text) as unknown };
    } catch (err) {
      yield { position, ok: false, reason: `invalid JSON (${(err as Error).message})` };
    }
  }
}

/**
 * Yields the elements of a file holding one JSON array (UTF-8, a leading byte-order mark dropped).
 * The array is parsed whole: the released HoVer and AVeriTeC files are a few MB at most.
 */
export async function* jsonArrayElements(file: string): AsyncGenerator<SourceRecord> {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(readInputFile(file, MAX_DATA_FILE_BYTES));
  } catch (err) {
    if (err instanceof TypeError) throw new Error(`${file}: not valid UTF-8 (convert the file to UTF-8)`);
    throw err;
  }
  const json = JSON.parse(text) as unknown;
  if (!Array.isArray(json)) throw new Error(`${file}: expected a JSON array of records`);
  for (const [index, value] of json.entries()) yield { position: { index }, ok: true, value: value as unknown };
}

/** Refuses what is not a regular file (a directory, /dev/zero, a FIFO): reading it would never end, or fail obscurely. */
export function requireRegularFile(file: string): void {
  const problem = inputFileProblem(file);
  if (problem) throw new Error(`dataset file: ${problem}`);
}
