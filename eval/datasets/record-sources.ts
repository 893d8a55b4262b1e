import fs from 'node:fs';
import readline from 'node:readline';

/** Where a record sits in its file: a 1-based line (JSONL, TSV) or a 0-based index (JSON arrays). */
export type RecordPosition = { line: number } | { index: number };

/** One raw record, or the reason it could not even be decoded. */
export type SourceRecord = { position: RecordPosition } & ({ ok: true; value: unknown } | { ok: false; reason: string });

export function describePosition(position: RecordPosition): string {
  return 'line' in position ? `line ${position.line}` : `record index ${position.index}`;
}

/** Streams the non-blank lines of a text file with their 1-based line numbers. */
export async function* textLines(file: string): AsyncGenerator<{ line: number; text: string }> {
  const lines = readline.createInterface({ input: fs.createReadStream(file, 'utf8'), crlfDelay: Infinity });
  let line = 0;
  for await (const text of lines) {
    line += 1;
    if (text.trim() !== '') yield { line, text };
  }
}

/** Streams a JSON Lines file, one decoded object per line. */
export async function* jsonLines(file: string): AsyncGenerator<SourceRecord> {
  for await (const { line, text } of textLines(file)) {
    try {
      yield { position: { line }, ok: true, value: JSON.parse(text) as unknown };
    } catch (err) {
      yield { position: { line }, ok: false, reason: `invalid JSON (${(err as Error).message})` };
    }
  }
}

/**
 * Yields the elements of a file holding one JSON array. The array is parsed whole: the released
 * HoVer and AVeriTeC files are a few MB at most.
 */
export async function* jsonArrayElements(file: string): AsyncGenerator<SourceRecord> {
  const json = JSON.parse(await fs.promises.readFile(file, 'utf8')) as unknown;
  if (!Array.isArray(json)) throw new Error(`${file}: expected a JSON array of records`);
  for (const [index, value] of json.entries()) yield { position: { index }, ok: true, value: value as unknown };
}
