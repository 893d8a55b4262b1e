import type { Client } from '@elastic/elasticsearch';
import type { CorpusDocument } from '../corpus/document';
import type { PassageTarget } from '../corpus/ingest';
import type { CorpusPassage } from '../corpus/passages';
import { toWikiPassageDoc, WIKI_INDEX_DEFINITION, type WikiPassageDoc } from '../corpus/wiki-index';
import { ensureIndex, type IndexDefinition } from '../es/ensure-index';
import { indexName } from '../es/indices';
import { normaliseHost } from './domain-filter';

/** One passage of a recorded web page: a wiki passage plus where it was found. */
export interface WebPassageDoc extends WikiPassageDoc {
  url: string;
  /** The URL's hostname and every parent domain (news.example.com, example.com, com), for domain filters. */
  hosts: string[];
}

export const WEB_INDEX_DEFINITION: IndexDefinition = {
  settings: WIKI_INDEX_DEFINITION.settings,
  mappings: {
    ...WIKI_INDEX_DEFINITION.mappings,
    properties: { ...WIKI_INDEX_DEFINITION.mappings.properties, url: { type: 'keyword' }, hosts: { type: 'keyword' } },
  },
};

/** Host of the stand-in URL of records without one (RFC 2606 `.invalid`: never resolvable, never fetched). */
export const RECORDED_HOST = 'recorded.invalid';

export function webIndexName(prefix: string, override?: string): string {
  return override ?? indexName(prefix, 'web');
}

/** The record's URL, or a stable stand-in built from its id (Factcheck-Bench passages have none). */
export function recordedUrl(document: Pick<CorpusDocument, 'id' | 'url'>): string {
  return document.url ?? `https://${RECORDED_HOST}/${encodeURIComponent(document.id)}`;
}

export function hostSuffixes(url: string): string[] {
  let hostname: string;
  try {
    hostname = normaliseHost(new URL(url).hostname);
  } catch {
    return [];
  }
  const labels = hostname.split('.');
  return labels.map((_, i) => labels.slice(i).join('.')).filter((host) => host !== '');
}

export function toWebPassageDoc(passage: CorpusPassage, document: CorpusDocument): WebPassageDoc {
  const url = recordedUrl(document);
  return { ...toWikiPassageDoc(passage, document.source), url, hosts: hostSuffixes(url) };
}

export const WEB_TARGET: PassageTarget = {
  ensureIndex: (client: Client, index: string) => ensureIndex(client, index, WEB_INDEX_DEFINITION),
  toDoc: toWebPassageDoc,
};
