import { createHash } from 'node:crypto';
import type { Client } from '@elastic/elasticsearch';
import { ensureIndex, type IndexDefinition } from '../es/ensure-index';
import { indexName } from '../es/indices';
import type { CorpusPassage } from './passages';

/** One passage as stored in the wiki index. */
export interface WikiPassageDoc {
  doc_id: string;
  title: string;
  passage: number;
  text: string;
  /** `<title>: <text>`, the field BM25 searches. */
  content: string;
  source: string;
  embedding?: number[];
}

export const WIKI_INDEX_DEFINITION: IndexDefinition = {
  settings: { refresh_interval: '1s' },
  mappings: {
    dynamic: 'strict',
    properties: {
      doc_id: { type: 'keyword' },
      title: { type: 'text', analyzer: 'standard', fields: { keyword: { type: 'keyword', ignore_above: 512 } } },
      passage: { type: 'integer' },
      text: { type: 'text', analyzer: 'standard' },
      content: { type: 'text', analyzer: 'standard' },
      source: { type: 'keyword' },
      // No dims: the first vector stored sets them, so the index follows the embedding model it was built with.
      embedding: { type: 'dense_vector', index: true, similarity: 'cosine' },
    },
  },
};

/** The configured wiki index, unless an explicit index name overrides it. */
export function wikiIndexName(prefix: string, override?: string): string {
  return override ?? indexName(prefix, 'wiki');
}

const MAX_ID_BYTES = 512;

/**
 * Deterministic `_id`, so ingesting the same corpus again overwrites instead of duplicating.
 * Ids over Elasticsearch's 512-byte limit keep a prefix and a hash of the full id.
 */
export function passageId(docId: string, passage: number): string {
  const id = `${docId}#${passage}`;
  if (Buffer.byteLength(id) <= MAX_ID_BYTES) return id;
  const hash = createHash('sha256').update(id).digest('hex');
  return `${docId.slice(0, 200)}~${hash}#${passage}`;
}

export function toWikiPassageDoc(passage: CorpusPassage, source: string): WikiPassageDoc {
  const content = passage.title === '' ? passage.text : `${passage.title}: ${passage.text}`;
  return { doc_id: passage.docId, title: passage.title, passage: passage.passage, text: passage.text, content, source };
}

export function ensureWikiIndex(client: Client, index: string): Promise<void> {
  return ensureIndex(client, index, WIKI_INDEX_DEFINITION);
}
