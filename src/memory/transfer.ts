import fs from 'node:fs';
import readline from 'node:readline';
import { once } from 'node:events';
import { entryToJsonLine, MemoryFileError, parseEntryLine, rescope } from './jsonl';
import type { MemoryEntry } from './entry';
import type { EvidenceMemoryStore } from './memory-store';
import { inputFileProblem, MAX_DATA_FILE_BYTES } from '../config/input-file';
import { assertValidScope } from './scope';

const IMPORT_BATCH = 500;

/** Writes every entry of the scope to a JSONL file, oldest first; resolves to the entry count. */
export async function exportMemory(store: EvidenceMemoryStore, scope: string, file: string): Promise<number> {
  const validScope = assertValidScope(scope);
  const out = fs.createWriteStream(file, { encoding: 'utf8', fd: openFile(file, 'w') });
  let failed: Error | undefined;
  out.on('error', (err) => (failed ??= err));
  let count = 0;
  try {
    for await (const entry of store.entriesOf(validScope)) {
      if (failed) break;
      if (!out.write(entryToJsonLine(entry))) await once(out, 'drain');
      count += 1;
    }
  } finally {
    await new Promise<void>((resolve) => out.end(() => resolve()));
    if (!out.closed) await once(out, 'close').catch(() => undefined);
  }
  if (failed) throw new MemoryFileError(`cannot write ${file}: ${failed.message}`);
  return count;
}

/** Opens `file`, or fails with one line naming it (a missing directory, no permission, a directory). */
function openFile(file: string, flags: 'r' | 'w'): number {
  try {
    return fs.openSync(file, flags);
  } catch (err) {
    throw new MemoryFileError(`cannot ${flags === 'w' ? 'write' : 'read'} ${file}: ${(err as Error).message}`);
  }
}

/**
 * Loads an exported JSONL file (into `scope` when given); blank lines are skipped. All or nothing:
 * a bad line fails the import before anything is written, and a write Elasticsearch refuses midway
 * puts back what the import replaced and removes what it added.
 */
export async function importMemory(store: EvidenceMemoryStore, file: string, scope?: string): Promise<{ entries: number; scopes: string[] }> {
  const entries = await readMemoryFile(file);
  const placed = scope === undefined ? entries : entries.map((entry) => rescope(entry, assertValidScope(scope)));
  const ids = [...new Set(placed.map((entry) => entry.id))];
  const previous = await store.getEntries(ids);
  try {
    for (let start = 0; start < placed.length; start += IMPORT_BATCH) await store.put(placed.slice(start, start + IMPORT_BATCH));
  } catch (err) {
    const existed = new Set(previous.map((entry) => entry.id));
    await store.remove(ids.filter((id) => !existed.has(id)));
    for (let start = 0; start < previous.length; start += IMPORT_BATCH) await store.put(previous.slice(start, start + IMPORT_BATCH));
    throw new MemoryFileError(`${file}: nothing was imported (${(err as Error).message.split('\n')[0]})`);
  }
  return { entries: placed.length, scopes: [...new Set(placed.map((entry) => entry.runScope))] };
}

export async function readMemoryFile(file: string): Promise<MemoryEntry[]> {
  const problem = inputFileProblem(file, MAX_DATA_FILE_BYTES);
  if (problem) throw new MemoryFileError(`cannot read ${problem}`);
  const lines = readline.createInterface({ input: fs.createReadStream(file, { encoding: 'utf8', fd: openFile(file, 'r') }), crlfDelay: Infinity });
  const entries: MemoryEntry[] = [];
  let lineNumber = 0;
  for await (const line of lines) {
    lineNumber += 1;
    if (line.trim() !== '') entries.push(parseEntryLine(line, lineNumber));
  }
  return entries;
}
