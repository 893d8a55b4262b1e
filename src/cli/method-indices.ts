import type { VerityConfig } from '../config/config';
import { methodDefinition, type MethodName } from '../methods/registry';
import { webIndexName } from '../search/web-index';

export interface RequiredIndex {
  index: string;
  /** The command that creates it. */
  ingest: string;
}

/** The Elasticsearch indices a verification with `method` cannot run without, on this configuration (its definition's `indices`). */
export function requiredIndices(config: VerityConfig, method: MethodName, wikiIndex: string): RequiredIndex[] {
  const { wiki, web } = methodDefinition(method).indices;
  const required: RequiredIndex[] = [];
  if (wiki === 'always' || (wiki === 'wikipedia-tools' && config.wikipedia.provider === 'index')) {
    required.push({ index: wikiIndex, ingest: 'verity ingest wiki <file.jsonl>' });
  }
  if (web && config.web.provider === 'recorded') {
    required.push({ index: webIndexName(config.elasticsearch.indexPrefix), ingest: 'verity ingest web <file.jsonl>' });
  }
  return required;
}
