/**
 * What a sweep with Tool-MAD settles before it starts, so that its debates follow the paper:
 * the answer-relevance gate calibrated for the embedding model that computes it (pinned into the
 * run's parameters and recorded in the manifest), and passage vectors for the RAG debater's dense
 * retrieval (without them it would silently fall back to BM25).
 */
import type { Client } from '@elastic/elasticsearch';
import type { VerityConfig } from '../config/config';
import { RELEVANCE_THRESHOLDS, relevanceThresholdOf, SIMULATED_EMBEDDINGS_KEY } from '../methods/tool-mad/relevance-thresholds';
import { hasPassageEmbeddings } from '../retrieval/dense';
import { IndexNotFoundError } from '../retrieval/errors';
import type { RunCalibration, RunConfig } from '../runs/run-manifest';
import { resolveToolMadSettings, type ToolMadSettings } from '../methods/tool-mad/sandbox/tool-mad-settings';
import type { SweepInput } from '../shared/sweep';

export class ToolMadProtocolError extends Error {
  override name = 'ToolMadProtocolError';
}

type ToolMadParameters = Partial<ToolMadSettings> & Record<string, unknown>;

function toolMadParameters(run: RunConfig): ToolMadParameters | undefined {
  if (!run.methods.includes('tool-mad')) return undefined;
  return (run.parameters['tool-mad'] ?? {}) as ToolMadParameters;
}

/** The model that embeds claim and questions for answer relevance, and its key in the threshold table. */
export function relevanceEmbedding(config: VerityConfig, configured?: string): { model: string; key: string } {
  const model = configured ?? config.embedding.queryModel;
  const simulated = !config.embedding.baseUrl && config.llm.provider === 'simulator';
  return { model, key: simulated ? SIMULATED_EMBEDDINGS_KEY : model };
}

/**
 * The run with Tool-MAD's relevance gate pinned (embedding model and threshold in
 * `parameters.tool-mad`, so every worker uses the pair the manifest records), and the calibration
 * record. A threshold the config sets is kept; otherwise the table's for the model; a model the
 * table does not know is refused with one line.
 */
export function calibrateToolMadRun(config: VerityConfig, run: RunConfig): { run: RunConfig; calibrations: RunCalibration[] } {
  const parameters = toolMadParameters(run);
  if (!parameters) return { run, calibrations: [] };
  const { model, key } = relevanceEmbedding(config, parameters.relevanceEmbeddingModel);
  let calibration: RunCalibration;
  if (parameters.relevanceThreshold !== undefined) {
    calibration = { method: 'tool-mad', setting: 'relevanceThreshold', value: parameters.relevanceThreshold, embeddingModel: model, from: 'configured', source: 'parameters.tool-mad.relevanceThreshold of the sweep config' };
  } else {
    const entry = relevanceThresholdOf(key);
    if (!entry) {
      throw new ToolMadProtocolError(
        `parameters.tool-mad.relevanceThreshold: no calibrated answer-relevance threshold for embedding model "${model}" (the paper's 0.8 belongs to its model's cosines; calibrated: ${RELEVANCE_THRESHOLDS.map((e) => e.model).join(', ')}); measure one with \`npm run bench:tool-mad -- --sample 50 -o relevanceEmbeddingModel=${model}\` and set relevanceThreshold (src/methods/tool-mad/README.md, "Calibrating the relevance threshold")`,
      );
    }
    calibration = { method: 'tool-mad', setting: 'relevanceThreshold', value: entry.threshold, embeddingModel: model, from: 'table', source: entry.source };
  }
  const pinned = { ...parameters, relevanceEmbeddingModel: model, relevanceThreshold: calibration.value };
  return { run: { ...run, parameters: { ...run.parameters, 'tool-mad': pinned } }, calibrations: [calibration] };
}

/**
 * One line when a Tool-MAD RAG debater would retrieve dense (the paper's retriever, verity's default)
 * from an index without passage vectors, where it would fall back to BM25; null otherwise.
 */
export async function toolMadVectorProblem(es: Client, run: RunConfig, input: SweepInput): Promise<string | null> {
  const parameters = toolMadParameters(run);
  if (!parameters) return null;
  const settings = resolveToolMadSettings(parameters);
  if (!settings.debaters.includes('rag') || (settings.ragMode ?? 'dense') === 'bm25') return null;
  const indices = [...new Set(input.datasets.map((dataset) => dataset.index ?? input.rag.index))];
  for (const index of indices) {
    const embedded = await hasPassageEmbeddings(es, index).catch((err: unknown) => {
      if (err instanceof IndexNotFoundError) return false;
      throw err;
    });
    if (!embedded) {
      return `tool-mad: index "${index}" has no passage vectors, so the RAG debater would retrieve with BM25 instead of the paper's dense retrieval; ingest the corpus with --embed (\`verity ingest wiki <file> --embed\`), or set parameters.tool-mad.ragMode: bm25 to run BM25 on purpose`;
    }
  }
  return null;
}
