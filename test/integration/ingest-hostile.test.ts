import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createEsClient } from '../../src/es/client';
import { indexName } from '../../src/es/indices';
import { runCli } from '../support/cli-process';
import { deleteIndicesWithPrefix, uniqueName } from '../support/test-env';

const prefix = uniqueName('ingest-hostile');
const es = createEsClient({ url: process.env.ES_URL ?? 'http://127.0.0.1:9200' });
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-ingest-hostile-'));
const env = { ES_URL: process.env.ES_URL ?? 'http://127.0.0.1:9200', ES_INDEX_PREFIX: prefix };

const doc = (id: string, text: string) => JSON.stringify({ id, title: id, text, sentences: null, source: 'test' });

/** `verity ingest` as its own process on real Elasticsearch, with corpora that used to lose documents without a word. */
describe('ingest of hostile corpora', () => {
  afterAll(async () => {
    await deleteIndicesWithPrefix(es, prefix);
    await es.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('names the lines of duplicate document ids and of documents without text', async () => {
    const file = path.join(tmp, 'corpus.jsonl');
    fs.writeFileSync(file, [doc('Paris', 'Paris is the capital of France.'), doc('Paris', 'Paris is a city in Texas.'), doc('Blank', '   '), doc('Rome', 'Rome is the capital of Italy.'), doc('Empty', '')].join('\n'));
    const result = await runCli(['ingest', 'wiki', file], env);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/ingested 2 documents as 2 passages/);
    expect(result.stdout).toMatch(/duplicate ids 1 \(line 2\)/);
    expect(result.stdout).toMatch(/without text 2 \(lines 3, 5\)/);
    expect(result.stderr).toMatch(/line 2: document id "Paris" already appeared on an earlier line; skipped/);
    expect(result.stderr).toMatch(/line 3: document "Blank" has no text; nothing indexed/);
    const stored = await es.search<{ content: string }>({ index: indexName(prefix, 'wiki'), query: { match_all: {} } });
    expect(stored.hits.hits.map((hit) => hit._source!.content).join(' ')).toContain('capital of France');
  });

  it('re-ingesting a shorter version of a document replaces its passages as a unit: no old passage stays searchable', async () => {
    const index = indexName(prefix, 'reingest-wiki');
    const long = Array.from({ length: 18 }, (_, i) => `Sentence ${i} says that the old Lisbon tramway number ${i} ran along the river in colour ${'blue '.repeat(40)}.`).join(' ');
    const file = path.join(tmp, 'reingest.jsonl');
    fs.writeFileSync(file, [doc('Lisbon', long), doc('Porto', 'Porto lies on the Douro.')].join('\n'));
    const first = await runCli(['ingest', 'wiki', file, '--index', index], env);
    expect(first.code, first.stderr).toBe(0);
    const count = async (docId: string) => (await es.count({ index, query: { term: { doc_id: docId } } })).count;
    expect(await count('Lisbon')).toBeGreaterThan(5);
    fs.writeFileSync(file, doc('Lisbon', 'Lisbon is the capital of Portugal.'));
    const second = await runCli(['ingest', 'wiki', file, '--index', index], env);
    expect(second.code, second.stderr).toBe(0);
    expect(await count('Lisbon')).toBe(1);
    expect(await count('Porto')).toBe(1);
    const search = await runCli(['search', 'tramway river colour', '--index', index, '--json'], env);
    expect(search.code, search.stderr).toBe(0);
    expect((JSON.parse(search.stdout) as { hits: { text: string }[] }).hits.map((hit) => hit.text).join(' ')).not.toMatch(/tramway/);
  });

  it('says what a directory or a device is instead of "not found"', async () => {
    const directory = await runCli(['ingest', 'wiki', tmp], env);
    expect(directory.code).toBe(2);
    expect(directory.stderr).toMatch(/is a directory/);
    const device = await runCli(['ingest', 'wiki', '/dev/zero'], env);
    expect(device.code).toBe(2);
    expect(device.stderr).toMatch(/\/dev\/zero is not a regular file/);
  });

  it('reads and writes only indices of this deployment (no _all, no other prefix)', async () => {
    const file = path.join(tmp, 'one.jsonl');
    fs.writeFileSync(file, doc('Oslo', 'Oslo is the capital of Norway.'));
    const outside = await runCli(['ingest', 'wiki', file, '--index', 'other-deployment-wiki'], env);
    expect(outside.code).toBe(2);
    expect(outside.stderr).toMatch(/^verity: --index: index "other-deployment-wiki" is outside this deployment/);
    expect(await es.indices.exists({ index: 'other-deployment-wiki' })).toBe(false);
    const all = await runCli(['verify', 'Oslo is the capital of Norway.', '--index', '_all'], env);
    expect(all.code).toBe(2);
    expect(all.stderr).toMatch(/^verity: --index: index "_all" is not one index name/);
    for (const index of ['_all', '*', 'other-deployment-wiki']) {
      const search = await runCli(['search', 'Oslo', '--index', index], env);
      expect(search.code).toBe(2);
      expect(search.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^verity: --index: index "[^"]+" is (not one index name|outside this deployment)/)]);
    }
  });
});
