import { canonicalJson } from '../llm/canonical-json';
import { entryId } from './dedup';
import { type MemoryEntry, memoryEntrySchema } from './entry';

export class MemoryFileError extends Error {
  override name = 'MemoryFileError';
}

/** One entry per line, keys sorted, so equal memories export to identical files. */
export function entryToJsonLine(entry: MemoryEntry): string {
  return `${canonicalJson(entry)}\n`;
}

/** Moves an entry to another scope; its id follows, so dedup still holds there. */
export function rescope(entry: MemoryEntry, scope: string): MemoryEntry {
  return { ...entry, runScope: scope, id: entryId(scope, entry.dedupKey) };
}

/** Parses one exported line; `lineNumber` is 1-based, for the error message. */
export function parseEntryLine(line: string, lineNumber: number): MemoryEntry {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (err) {
    throw new MemoryFileError(`line ${lineNumber}: not JSON (${(err as Error).message})`);
  }
  const parsed = memoryEntrySchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new MemoryFileError(`line ${lineNumber}: not a memory entry (${issue?.path.join('.') || 'entry'}: ${issue?.message ?? 'invalid'})`);
  }
  if (Number.isNaN(Date.parse(parsed.data.timestamp))) throw new MemoryFileError(`line ${lineNumber}: not a memory entry (timestamp: not an ISO-8601 time)`);
  // The id is the scope and dedup key's hash, never the file's: an edited id or scope cannot overwrite another scope's entry.
  return rescope(parsed.data, parsed.data.runScope);
}
