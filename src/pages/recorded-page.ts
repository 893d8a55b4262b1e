import type { Client } from '@elastic/elasticsearch';
import { isIndexNotFound } from '../es/client';
import type { WebPassageDoc } from '../search/web-index';
import { PageFetchError } from './errors';
import type { Page } from './read-page';

const MAX_PASSAGES_PER_PAGE = 1000;

type StoredPage = Pick<WebPassageDoc, 'title' | 'text' | 'passage'>;

/**
 * Serves a page from the recorded web (`<prefix>-web`) by its exact URL: its passages in order,
 * joined. Never touches the network; an unknown URL is a non-retryable 404 PageFetchError.
 */
export async function readRecordedPage(es: Client, index: string, url: string): Promise<Page> {
  let hits;
  try {
    const response = await es.search<StoredPage>({
      index,
      size: MAX_PASSAGES_PER_PAGE,
      query: { term: { url } },
      sort: [{ passage: 'asc' }],
      _source: ['title', 'text', 'passage'],
    });
    hits = response.hits.hits;
  } catch (err) {
    if (isIndexNotFound(err)) throw new PageFetchError(url, `recorded web index "${index}" does not exist; run \`verity ingest web <file>\``, 404);
    throw err;
  }
  if (hits.length === 0) throw new PageFetchError(url, 'not in the recorded web', 404);
  const text = hits.map((hit) => hit._source?.text ?? '').join(' ');
  return {
    url,
    title: hits[0]?._source?.title ?? '',
    text,
    contentType: 'text/plain',
    bytes: Buffer.byteLength(text),
    fetchedAt: new Date().toISOString(),
  };
}
