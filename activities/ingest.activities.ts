import type { Client } from '@elastic/elasticsearch';
import { ApplicationFailure, Context } from '@temporalio/activity';
import { batchRange, finishBulkIndex, indexGeneratedBatch, prepareBulkIndex, type BatchOutcome } from '../src/corpus/bulk-ingest';
import { loadSourcePassages, type GeneratedCorpusSpec, type SourcePassages } from '../src/corpus/generated-passages';
import { FAILURE_TYPES } from '../src/shared/constants';
import { toEsFailure } from './support/es-failure';

/** The source corpus of each generated corpus, read once per worker. */
function sourceCache(): (spec: GeneratedCorpusSpec) => SourcePassages {
  const loaded = new Map<string, SourcePassages>();
  return (spec) => {
    let source = loaded.get(spec.sourceFile);
    if (!source) {
      source = loadSourcePassages(spec.sourceFile);
      loaded.set(spec.sourceFile, source);
    }
    if (source.sha256 !== spec.sourceSha256) {
      throw ApplicationFailure.nonRetryable(`${spec.sourceFile} on this worker is not the file the ingest was started with (sha256 differs)`, FAILURE_TYPES.invalidInput);
    }
    return source;
  };
}

export function createIngestActivities(deps: { es: Client }) {
  const sourceOf = sourceCache();
  return {
    async prepareBulkIndex(input: { index: string; shards: number }): Promise<void> {
      try {
        await prepareBulkIndex(deps.es, input.index, input.shards);
      } catch (err) {
        throw toEsFailure(err);
      }
    },

    /** One batch of the generated corpus, under deterministic ids (a repeated batch overwrites itself). */
    async ingestGeneratedBatch(input: { index: string; corpus: GeneratedCorpusSpec; batch: number; batchSize: number }): Promise<BatchOutcome> {
      const { start, end } = batchRange(input.batch, input.batchSize, input.corpus.total);
      const source = sourceOf(input.corpus);
      Context.current().heartbeat();
      try {
        return await indexGeneratedBatch(deps.es, input.index, source, input.corpus, start, end);
      } catch (err) {
        throw toEsFailure(err);
      }
    },

    async finishBulkIndex(input: { index: string }): Promise<void> {
      try {
        await finishBulkIndex(deps.es, input.index);
      } catch (err) {
        throw toEsFailure(err);
      }
    },
  };
}
