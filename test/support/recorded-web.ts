import { ingestCorpus } from '../../src/corpus/ingest';
import { WEB_TARGET, webIndexName } from '../../src/search/web-index';
import type { WorkerHarness } from './worker-harness';

/** Ingests a recorded web (JSONL pages) into the harness's web index and makes it searchable. */
export async function ingestRecordedWeb(harness: WorkerHarness, file: string): Promise<void> {
  await ingestCorpus({ client: harness.es, index: webIndexName(harness.prefix), file, target: WEB_TARGET });
  await harness.es.indices.refresh({ index: webIndexName(harness.prefix) });
}
