import fs from 'node:fs';
import readline from 'node:readline';
import { once } from 'node:events';
import { entryToJsonLine, parseEntryLine, rescope } from './jsonl';
import type { MemoryEntry } from './entry';
import type { EvidenceMemoryStore } from './memory-store';
import { assertValidScope } from './scope';

const IMPORT_BATCH = 500;

/** Writes every entry of the scope to a JSONL file, oldest first; resolves to the entry count. */
export async function exportMemory(store: EvidenceMemoryStore, scope: string, file: string): Promise<number> {
  const out = fs.createWriteStream(file, { encoding: 'utf8' });
  let count = 0;
  try {
    for await (const entry of store.entriesOf(assertValidScope(scope))) {
      if (!out.write(entryToJsonLine(entry))) await once(out, 'drain');
      count += 1;
    }
  } finally {
    out.end();
    await once(out, 'finish');
  }
  return count;
}

/** Loads an exported JSONL file (into `scope` when given); blank lines are skipped, a bad line fails the import before anything is written. */
export async function importMemory(store: EvidenceMemoryStore, file: string, scope?: string): Promise<{ entries: number; scopes: string[] }> {
  const entries = await readMemoryFile(file);
  const placed = scope === undefined ? entries : entries.map((entry) => rescope(entry, assertValidScope(scope)));
  for (let start = 0; start < placed.length; start += IMPORT_BATCH) await store.put(placed.slice(start, start + IMPORT_BATCH));
  return { entries: placed.length, scopes: [...new Set(placed.map((entry) => entry.runScope))] };
}

export async function readMemoryFile(file: string): Promise<MemoryEntry[]> {
  const lines = readline.createInterface({ input: fs.createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  const entries: MemoryEntry[] = [];
  let lineNumber = 0;
  for await (const line of lines) {
    lineNumber += 1;
    if (line.trim() !== '') entries.push(parseEntryLine(line, lineNumber));
  }
  return entries;
}
