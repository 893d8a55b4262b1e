import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestCorpus, type IngestResult } from '../../src/corpus/ingest';
import { createEsClient } from '../../src/es/client';
import { searchPassages } from '../../src/retrieval/bm25';
import { IndexNotFoundError, InvalidQueryError } from '../../src/retrieval/errors';

const ES_URL = process.env.ES_URL ?? 'http://127.0.0.1:9200';
const DEMO_CORPUS = path.resolve(__dirname, '../../eval/demo/corpus.jsonl');
const FIXTURE_CORPUS = path.resolve(__dirname, '../../../shared/data/fixture/corpus.jsonl');
const FIXTURE_CLAIMS = path.resolve(__dirname, '../../../shared/data/fixture/claims.jsonl');

const client = createEsClient({ url: ES_URL, requestTimeoutMs: 120_000 });
const testIndex = (label: string) => `test-${randomBytes(4).toString('hex')}-${label}-wiki`;
const createdIndices: string[] = [];

async function allIds(index: string): Promise<string[]> {
  const response = await client.search({ index, size: 10_000, _source: false, sort: ['_doc'] });
  return response.hits.hits.map((hit) => hit._id ?? '').sort();
}

async function ingestInto(index: string, file: string): Promise<IngestResult> {
  createdIndices.push(index);
  return ingestCorpus({ client, index, file });
}

afterAll(async () => {
  if (createdIndices.length > 0) await client.indices.delete({ index: createdIndices }, { ignore: [404] });
  await client.close();
});

describe('demo corpus: ingest and BM25 search', () => {
  const index = testIndex('demo');
  let first: IngestResult;

  beforeAll(async () => {
    first = await ingestInto(index, DEMO_CORPUS);
  });

  it('indexes every document as at least one passage', async () => {
    const documents = fs.readFileSync(DEMO_CORPUS, 'utf8').trim().split('\n').length;
    expect(first).toMatchObject({ documents, skipped: 0, malformedCount: 0, failedCount: 0 });
    expect(first.passages).toBeGreaterThanOrEqual(documents);
    expect((await client.count({ index })).count).toBe(first.passages);
  });

  it('is idempotent: a second ingest keeps the same passages and ids', async () => {
    const idsBefore = await allIds(index);
    const second = await ingestCorpus({ client, index, file: DEMO_CORPUS });
    expect(second.passages).toBe(first.passages);
    expect((await client.count({ index })).count).toBe(first.passages);
    expect(await allIds(index)).toEqual(idsBefore);
  });

  it('ranks the matching demo page first', async () => {
    const hits = await searchPassages(client, index, 'Who discovered penicillin in 1928?', 5);
    expect(hits[0]).toMatchObject({ title: 'Penicillin', docId: 'demo:Penicillin', id: 'demo:Penicillin#0', passage: 0 });
    expect(hits[0]?.score).toBeGreaterThan(0);
    const everest = await searchPassages(client, index, 'first ascent of the highest mountain, Hillary and Tenzing Norgay', 3);
    expect(everest[0]?.title).toBe('Mount Everest');
  });

  it('rejects an empty query', async () => {
    await expect(searchPassages(client, index, '   ', 5)).rejects.toBeInstanceOf(InvalidQueryError);
  });

  it('reports a missing index as IndexNotFoundError naming the index', async () => {
    const missing = testIndex('missing');
    const error = await searchPassages(client, missing, 'anything', 5).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(IndexNotFoundError);
    expect((error as Error).message).toContain(missing);
    expect((error as Error).message).toContain('verity ingest wiki');
  });
});

describe('ingest edge cases', () => {
  it('indexes FEVER wiki-pages and reports malformed lines', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-ingest-'));
    const file = path.join(dir, 'pages.jsonl');
    const pages = [
      { id: 'Blue_Nile_-LRB-river-RRB-', text: 'The Blue Nile is a river .', lines: '0\tThe Blue Nile is a river .\tNile' },
      { id: 'Empty', text: '', lines: '' },
    ];
    fs.writeFileSync(file, [...pages.map((page) => JSON.stringify(page)), '{oops'].join('\n'));
    const index = testIndex('fever');
    const result = await ingestInto(index, file);
    fs.rmSync(dir, { recursive: true, force: true });
    expect(result).toMatchObject({ documents: 1, passages: 1, skipped: 1, malformedCount: 1, malformed: [{ line: 3 }] });
    const [hit] = await searchPassages(client, index, 'Blue Nile river', 1);
    expect(hit).toMatchObject({ title: 'Blue Nile (river)', id: 'fever-wiki:Blue Nile (river)#0' });
  });

  it('counts and reports passages Elasticsearch rejects', async () => {
    const index = testIndex('rejects');
    createdIndices.push(index);
    // An index that refuses the `content` field makes every passage fail.
    await client.indices.create({ index, mappings: { dynamic: 'strict', properties: { title: { type: 'text' } } } });
    const result = await ingestCorpus({ client, index, file: DEMO_CORPUS });
    expect(result.failedCount).toBe(result.passages);
    expect(result.failures[0]?.reason).toMatch(/strict_dynamic_mapping_exception/);
    expect(result.failures[0]?.id).toMatch(/^demo:.+#0$/);
  });
});

describe.skipIf(!fs.existsSync(FIXTURE_CORPUS))('shared fixture corpus', () => {
  const index = testIndex('fixture');
  let result: IngestResult;

  beforeAll(async () => {
    result = await ingestInto(index, FIXTURE_CORPUS);
  });

  it('reads all 451 documents', () => {
    expect(result).toMatchObject({ documents: 451, malformedCount: 0, failedCount: 0 });
    expect(result.passages).toBeGreaterThanOrEqual(451);
  });

  it('finds a fixture claim’s gold page in the top 5', async () => {
    const claim = fs
      .readFileSync(FIXTURE_CLAIMS, 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as { claim: string; gold_titles: string[] })
      .find((record) => record.gold_titles.length > 0);
    const gold = claim!.gold_titles[0]!;
    for (const query of [gold, claim!.claim]) {
      const titles = (await searchPassages(client, index, query, 5)).map((hit) => hit.title);
      expect(titles).toContain(gold);
    }
  });
});

if (!fs.existsSync(FIXTURE_CORPUS)) console.warn(`skipping fixture tests: ${FIXTURE_CORPUS} not found`);
