import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEsClient } from '../../src/es/client';
import { indexName } from '../../src/es/indices';
import { entryId } from '../../src/memory/dedup';
import type { MemoryEntry } from '../../src/memory/entry';
import { entryToJsonLine } from '../../src/memory/jsonl';
import { EvidenceMemoryStore } from '../../src/memory/memory-store';
import { exportMemory, importMemory } from '../../src/memory/transfer';
import { deleteIndicesWithPrefix, uniqueName } from '../support/test-env';

const prefix = uniqueName('memory-import');
const es = createEsClient({ url: process.env.ES_URL ?? 'http://127.0.0.1:9200' });
const store = new EvidenceMemoryStore(es, indexName(prefix, 'evidence-memory'));
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-memory-import-'));

function entry(scope: string, query: string, overrides: Partial<MemoryEntry> = {}): MemoryEntry {
  const dedupKey = `query:${query}`;
  return {
    id: entryId(scope, dedupKey),
    runScope: scope,
    claimId: 'c1',
    entityKeys: ['Eiffel Tower'],
    keywords: ['eiffel tower'],
    tool: 'search_wikipedia',
    args: { query },
    query,
    evidence: `evidence about ${query}`,
    sources: ['https://en.wikipedia.org/wiki/Eiffel_Tower'],
    timestamp: '2026-01-01T00:00:00.000Z',
    insertionOrder: 0,
    dedupKey,
    embedding: [0.1, 0.2, 0.3, 0.4],
    embeddingModel: 'test',
    ...overrides,
  };
}

const entriesIn = async (scope: string) => {
  const found: MemoryEntry[] = [];
  for await (const stored of store.entriesOf(scope)) found.push(stored);
  return found;
};

/** `memory import` of edited or broken files on real Elasticsearch: ids come from (scope, dedup key), and a file is imported whole or not at all. */
describe('memory import of hostile files', () => {
  beforeAll(async () => {
    await store.put([entry('run:victim', 'eiffel tower height'), entry('run:kept', 'eiffel tower paint', { evidence: 'original evidence' })]);
  });

  afterAll(async () => {
    await deleteIndicesWithPrefix(es, prefix);
    await es.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it("an entry whose scope was edited lands in that scope under its own id and leaves the other scope's entry alone", async () => {
    const file = path.join(tmp, 'victim.jsonl');
    expect(await exportMemory(store, 'run:victim', file)).toBe(1);
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('"runScope":"run:victim"', '"runScope":"run:attacker"'));
    expect(await importMemory(store, file)).toEqual({ entries: 1, scopes: ['run:attacker'] });
    expect((await entriesIn('run:victim')).map((e) => e.id)).toEqual([entryId('run:victim', 'query:eiffel tower height')]);
    expect((await entriesIn('run:attacker')).map((e) => e.id)).toEqual([entryId('run:attacker', 'query:eiffel tower height')]);
  });

  it('a line that is no valid entry fails the import before anything is written', async () => {
    const file = path.join(tmp, 'bad-date.jsonl');
    const lines = [entry('run:atomic', 'q1'), entry('run:atomic', 'q2'), entry('run:atomic', 'q3', { timestamp: 'yesterday' })];
    fs.writeFileSync(file, lines.map(entryToJsonLine).join(''));
    await expect(importMemory(store, file)).rejects.toThrow(/line 3/);
    expect(await entriesIn('run:atomic')).toEqual([]);
  });

  it('a write that Elasticsearch refuses midway leaves the memory as it was', async () => {
    const file = path.join(tmp, 'bad-vector.jsonl');
    // The index holds 4-dimensional vectors: a 3-dimensional one passes the file check but not Elasticsearch.
    const lines = [entry('run:kept', 'new entry'), entry('run:kept', 'eiffel tower paint', { evidence: 'replaced evidence' }), entry('run:kept', 'odd vector', { embedding: [1, 2, 3] })];
    fs.writeFileSync(file, lines.map(entryToJsonLine).join(''));
    await expect(importMemory(store, file)).rejects.toThrow(/nothing was imported/);
    const kept = await entriesIn('run:kept');
    expect(kept.map((e) => [e.query, e.evidence])).toEqual([['eiffel tower paint', 'original evidence']]);
  });

  it('says what a directory or a device is instead of reading it', async () => {
    await expect(importMemory(store, tmp)).rejects.toThrow(/is a directory/);
    await expect(importMemory(store, '/dev/zero')).rejects.toThrow(/\/dev\/zero is not a regular file/);
    await expect(importMemory(store, path.join(tmp, 'missing.jsonl'))).rejects.toThrow(/does not exist/);
  });
});
