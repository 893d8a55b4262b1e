import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestCorpus } from '../../src/corpus/ingest';
import { createEsClient } from '../../src/es/client';
import { createPageReader } from '../../src/pages/page-reader';
import { isRetryablePageError, PageFetchError } from '../../src/pages/errors';
import { readRecordedPage } from '../../src/pages/recorded-page';
import { createRecordedProvider, RecordedWebMissingError } from '../../src/search/recorded-provider';
import { createWebSearchProvider } from '../../src/search/provider-factory';
import { RECORDED_HOST, WEB_TARGET, webIndexName } from '../../src/search/web-index';
import { deleteIndicesWithPrefix, SHARED_DATA, testConfig, uniqueName } from '../support/test-env';

const WEB_SAMPLE = path.join(SHARED_DATA, 'corpus', 'web_factcheckbench.jsonl');
const SAMPLE_LINES = 200;
const prefix = uniqueName('web');
const config = testConfig({ ES_INDEX_PREFIX: prefix });
const es = createEsClient({ url: config.elasticsearch.url, requestTimeoutMs: 120_000 });
const index = webIndexName(prefix);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'verity-web-'));

// Pages with real URLs, to test domain filters (the Factcheck-Bench passages have none).
const PAGES_WITH_URLS = [
  { id: 'web:a', title: 'Aurora borealis facts', url: 'https://news.example.com/aurora', text: 'The aurora borealis glows green over Tromso in winter nights.', sentences: null, source: 'test' },
  { id: 'web:b', title: 'Aurora myths checked', url: 'https://www.snopes.com/aurora', text: 'Fact check: the aurora borealis makes no audible sound in Tromso.', sentences: null, source: 'test' },
  { id: 'web:c', title: 'Aurora science', url: 'https://science.org/aurora', text: 'Solar wind particles cause the aurora borealis over Tromso.', sentences: null, source: 'test' },
];

beforeAll(async () => {
  const sampleFile = path.join(tmp, 'web.jsonl');
  const lines = fs.existsSync(WEB_SAMPLE) ? fs.readFileSync(WEB_SAMPLE, 'utf8').split('\n').slice(0, SAMPLE_LINES) : [];
  fs.writeFileSync(sampleFile, [...lines.filter((l) => l.trim() !== ''), ...PAGES_WITH_URLS.map((p) => JSON.stringify(p))].join('\n'));
  const result = await ingestCorpus({ client: es, index, file: sampleFile, target: WEB_TARGET });
  expect(result.failedCount).toBe(0);
});

afterAll(async () => {
  await deleteIndicesWithPrefix(es, prefix);
  await es.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('recorded web search provider', () => {
  it.skipIf(!fs.existsSync(WEB_SAMPLE))('finds a Factcheck-Bench passage and returns normalised results with stand-in URLs', async () => {
    const provider = createRecordedProvider({ es, index });
    const results = await provider.search('oldest sitting member of the Supreme Court Stephen Breyer', { limit: 5 });
    expect(results[0]).toMatchObject({ url: `https://${RECORDED_HOST}/fcbench%3A0`, source: 'recorded', position: 1 });
    expect(results[0]!.snippet).toContain('Breyer');
    expect(results.map((r) => r.position)).toEqual(results.map((_, i) => i + 1));
    expect(new Set(results.map((r) => r.url)).size).toBe(results.length);
  });

  it('honours include and exclude domain lists (subdomains included)', async () => {
    const search = (domains: { include?: string[]; exclude?: string[] }) =>
      createRecordedProvider({ es, index, domains }).search('aurora borealis Tromso', { limit: 10 });
    const all = await search({});
    expect(all.map((r) => r.url)).toEqual(expect.arrayContaining(PAGES_WITH_URLS.map((p) => p.url)));
    const withoutSnopes = await search({ exclude: ['snopes.com'] });
    expect(withoutSnopes.map((r) => r.url)).not.toContain('https://www.snopes.com/aurora');
    const onlyExample = await search({ include: ['EXAMPLE.com'] });
    expect(onlyExample.map((r) => r.url)).toEqual(['https://news.example.com/aurora']);
  });

  it('the factory builds it by default and excludes fact-checking sites', async () => {
    const provider = createWebSearchProvider(config, { es });
    expect(provider.name).toBe('recorded');
    const urls = (await provider.search('aurora borealis Tromso', { limit: 10 })).map((r) => r.url);
    expect(urls).toContain('https://science.org/aurora');
    expect(urls).not.toContain('https://www.snopes.com/aurora');
  });

  it('a missing index is a typed, non-retryable setup error', async () => {
    const provider = createRecordedProvider({ es, index: `${prefix}-absent` });
    await expect(provider.search('anything', { limit: 3 })).rejects.toBeInstanceOf(RecordedWebMissingError);
  });
});

describe('recorded pages', () => {
  it('reads a recorded page by URL without the network', async () => {
    const page = await readRecordedPage(es, index, 'https://science.org/aurora');
    expect(page).toMatchObject({ url: 'https://science.org/aurora', title: 'Aurora science', contentType: 'text/plain' });
    expect(page.text).toContain('Solar wind');
  });

  it.skipIf(!fs.existsSync(WEB_SAMPLE))('joins every passage of a Factcheck-Bench page in order', async () => {
    const page = await readRecordedPage(es, index, `https://${RECORDED_HOST}/fcbench%3A0`);
    expect(page.text.startsWith('August 3, 1994')).toBe(true);
  });

  it('an unknown URL is a non-retryable 404', async () => {
    const failure = await readRecordedPage(es, index, 'https://nowhere.example/none').catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(PageFetchError);
    expect((failure as PageFetchError).status).toBe(404);
    expect(isRetryablePageError(failure)).toBe(false);
  });

  it('createPageReader reads recorded pages offline by default and live otherwise', async () => {
    const reader = createPageReader(config, { es });
    expect(reader.name).toBe('recorded');
    expect((await reader.read('https://news.example.com/aurora')).title).toBe('Aurora borealis facts');
    expect(createPageReader(testConfig({ ES_INDEX_PREFIX: prefix, VERITY_WEB_SEARCH_PROVIDER: 'serper' }), { es }).name).toBe('live');
    expect(createPageReader(testConfig({ VERITY_WEB_SEARCH_PROVIDER: 'serper', VERITY_PAGE_READER: 'recorded' }), { es }).name).toBe('recorded');
  });
});
