import fs from 'node:fs';
import path from 'node:path';
import type { Client } from '@elastic/elasticsearch';
import { ingestCorpus } from '../../src/corpus/ingest';
import { indexName } from '../../src/es/indices';
import { SHARED_DATA } from './test-env';

export const FIXTURE_CORPUS = path.join(SHARED_DATA, 'fixture', 'corpus.jsonl');
export const FIXTURE_CLAIMS = path.join(SHARED_DATA, 'fixture', 'claims.jsonl');
export const hasFixtureCorpus = fs.existsSync(FIXTURE_CORPUS) && fs.existsSync(FIXTURE_CLAIMS);

/** Ingests a corpus into `<prefix>-wiki` and returns the index name. */
export async function ingestWiki(es: Client, prefix: string, file: string): Promise<string> {
  const index = indexName(prefix, 'wiki');
  await ingestCorpus({ client: es, index, file });
  await es.indices.refresh({ index });
  return index;
}
