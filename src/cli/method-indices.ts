import type { VerityConfig } from '../config/config';
import type { MethodName } from '../shared/constants';
import { webIndexName } from '../search/web-index';

export interface RequiredIndex {
  index: string;
  /** The command that creates it. */
  ingest: string;
}

/** Methods that read the wiki passage index (retrieval, Wikipedia tools or a RAG debater). */
const USES_WIKI: readonly MethodName[] = ['rag', 'mermaid', 'tool-mad', 'toe'];
/** Methods that search the web (the recorded web offline). */
const USES_WEB: readonly MethodName[] = ['mermaid', 'emulate', 'fire', 'tool-mad', 'toe'];

/** The Elasticsearch indices a verification with `method` cannot run without, on this configuration. */
export function requiredIndices(config: VerityConfig, method: MethodName, wikiIndex: string): RequiredIndex[] {
  const required: RequiredIndex[] = [];
  if (USES_WIKI.includes(method) && (method === 'rag' || config.wikipedia.provider === 'index')) {
    required.push({ index: wikiIndex, ingest: 'verity ingest wiki <file.jsonl>' });
  }
  if (USES_WEB.includes(method) && config.web.provider === 'recorded') {
    required.push({ index: webIndexName(config.elasticsearch.indexPrefix), ingest: 'verity ingest web <file.jsonl>' });
  }
  return required;
}
