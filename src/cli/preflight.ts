import type { VerityConfig } from '../config/config';
import { publicUrl } from '../config/config-identity';
import { isSecuredOrRemote } from '../config/es-connection';
import { redactUrlsIn } from '../config/redact-url';
import { describeEsAccessError } from '../es/access-errors';
import { createEsClient, probeElasticsearch } from '../es/client';
import { hasPassageEmbeddings } from '../retrieval/dense';
import { MissingEmbeddingsError } from '../retrieval/errors';
import type { RetrievalMode } from '../shared/retrieval';
import { CliError } from './errors';
import { esUnreachableLine } from './service-lines';

/** Fails with one clear line when Elasticsearch does not answer or refuses the credentials. */
export async function requireElasticsearch(config: VerityConfig): Promise<void> {
  const probe = await probeElasticsearch(config.elasticsearch, 3_000);
  if (probe.state === 'refused') throw new CliError(describeEsAccessError(probe.status, probe.message, config.elasticsearch));
  if (probe.state === 'down' && probe.notElasticsearch) throw new CliError(probe.reason);
  if (probe.state === 'down') {
    const hint = isSecuredOrRemote(config.elasticsearch) ? 'check ES_URL / ES_CLOUD_ID and ES_CA_CERT' : 'run `verity infra up` or set ES_URL';
    throw new CliError(esUnreachableLine(config.elasticsearch.url, probe.reason, hint));
  }
}

/** Fails with one clear line when the index to search has not been created by an ingest. */
export async function requireIndex(config: VerityConfig, index: string, ingest = 'verity ingest wiki <file.jsonl>'): Promise<void> {
  const es = createEsClient(config.elasticsearch);
  try {
    if (!(await es.indices.exists({ index }))) {
      throw new CliError(`index "${index}" does not exist; ingest a corpus first with \`${ingest}\``);
    }
  } finally {
    await es.close();
  }
}

/** Fails with one clear line when dense or hybrid retrieval is asked of an index without passage embeddings. */
export async function requireEmbeddings(config: VerityConfig, index: string, mode: RetrievalMode | undefined): Promise<void> {
  if (mode !== 'dense' && mode !== 'hybrid') return;
  const es = createEsClient(config.elasticsearch);
  try {
    if (!(await hasPassageEmbeddings(es, index))) throw new CliError(new MissingEmbeddingsError(index).message, 2);
  } finally {
    await es.close();
  }
}

/** Fails with one clear line when a configured LLM endpoint does not answer at all. */
export async function requireLlmEndpoint(config: VerityConfig): Promise<void> {
  if (config.llm.provider === 'simulator' || !config.llm.baseUrl) return;
  try {
    await fetch(`${config.llm.baseUrl.replace(/\/$/, '')}/models`, { signal: AbortSignal.timeout(5_000) });
  } catch (err) {
    throw new CliError(`the LLM endpoint ${publicUrl(config.llm.baseUrl)} is not reachable (${redactUrlsIn((err as Error).message)}); check OPENAI_BASE_URL`);
  }
}
