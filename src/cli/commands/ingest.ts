import path from 'node:path';
import { type Command, Option } from 'commander';
import { loadConfig, type VerityConfig } from '../../config/config';
import { CORPUS_FORMATS, type CorpusFormat } from '../../corpus/document';
import { ingestCorpus, type IngestResult, type PassageEmbedder, type PassageTarget } from '../../corpus/ingest';
import { DEFAULT_PASSAGE_CHARS } from '../../corpus/passages';
import { inputFileProblem } from '../../config/input-file';
import type { OmittedDocuments } from '../../corpus/reader';
import { wikiIndexName } from '../../corpus/wiki-index';
import { createEsClient } from '../../es/client';
import { indexName, ownIndexProblem } from '../../es/indices';
import { createLlmGateway } from '../../llm/create-gateway';
import { embeddingEndpointOf } from '../../llm/embedding-endpoint';
import { resolveLlmEndpoint } from '../../llm/endpoint';
import { passageEmbedder, SIMULATED_EMBEDDINGS_NOTICE } from '../../retrieval/embedder';
import { WEB_TARGET, webIndexName } from '../../search/web-index';
import { CliError } from '../errors';
import { notice, printJson, printText } from '../output';
import { parsePositiveInt, toCliError } from '../common';
import { ingestProgress } from '../ingest-progress';
import { registerIngestGenerated } from './ingest-generated';

interface IngestWikiOptions {
  index?: string;
  strict?: boolean;
  passageChars: number;
  format: CorpusFormat;
  json?: boolean;
  embed?: boolean;
}

/** What differs between `ingest wiki`, `ingest scifact` and `ingest web`. */
interface IngestPlan {
  index: (prefix: string) => string;
  target?: PassageTarget;
}

const MALFORMED_LINES_SHOWN = 5;

function summarize(result: IngestResult): string {
  const seconds = (result.tookMs / 1000).toFixed(1);
  let summary =
    `ingested ${result.documents} documents as ${result.passages} passages into ${result.index} in ${seconds}s; ` +
    `skipped ${result.skipped}, malformed ${result.malformedCount}`;
  if (result.malformedCount > 0) {
    const lines = result.malformed.slice(0, MALFORMED_LINES_SHOWN).map((entry) => entry.line);
    summary += ` (lines ${lines.join(', ')}${result.malformedCount > lines.length ? ', …' : ''})`;
  }
  summary += omittedSummary('duplicate ids', result.duplicates) + omittedSummary('without text', result.empty);
  if (result.embedded > 0) summary += `; embedded ${result.embedded} passages`;
  if (result.failedCount > 0) summary += `; ${result.failedCount} passages rejected by Elasticsearch`;
  return summary;
}

/** `, duplicate ids 2 (lines 4, 9)`; nothing when none. */
function omittedSummary(label: string, omitted: OmittedDocuments): string {
  if (omitted.count === 0) return '';
  const lines = omitted.first.slice(0, MALFORMED_LINES_SHOWN).map((entry) => entry.line);
  return `, ${label} ${omitted.count} (line${omitted.count > 1 ? 's' : ''} ${lines.join(', ')}${omitted.count > lines.length ? ', …' : ''})`;
}

function reportProblems(result: IngestResult): void {
  for (const entry of result.malformed.slice(0, MALFORMED_LINES_SHOWN)) notice(`line ${entry.line}: ${entry.reason}`);
  for (const entry of result.duplicates.first.slice(0, MALFORMED_LINES_SHOWN)) notice(`line ${entry.line}: document id ${JSON.stringify(entry.id)} already appeared on an earlier line; skipped`);
  for (const entry of result.empty.first.slice(0, MALFORMED_LINES_SHOWN)) notice(`line ${entry.line}: document ${JSON.stringify(entry.id)} has no text; nothing indexed`);
  for (const failure of result.failures.slice(0, MALFORMED_LINES_SHOWN)) notice(`rejected ${failure.id}: ${failure.reason}`);
}

/** The gateway's embed against the configured endpoint (or the simulator, said on stderr). */
async function openEmbedder(config: VerityConfig): Promise<{ embed: PassageEmbedder; close: () => Promise<void> }> {
  const endpoint = await resolveLlmEndpoint(config);
  if (embeddingEndpointOf(config, endpoint).simulated) notice(SIMULATED_EMBEDDINGS_NOTICE);
  return { embed: passageEmbedder(createLlmGateway({ config, endpoint })), close: () => endpoint.close() };
}

async function ingestFile(file: string, options: IngestWikiOptions, plan: IngestPlan): Promise<void> {
  const problem = inputFileProblem(file);
  if (problem) throw new CliError(`cannot read the corpus: ${problem}`, 2);
  const config = loadConfig();
  const indexProblem = options.index === undefined ? undefined : ownIndexProblem(options.index, config.elasticsearch.indexPrefix);
  if (indexProblem) throw new CliError(`--index: ${indexProblem}`, 2);
  const client = createEsClient({ ...config.elasticsearch, requestTimeoutMs: 120_000 });
  const embedder = options.embed ? await openEmbedder(config) : undefined;
  const { progress: bar, onProgress } = ingestProgress(`ingest ${path.basename(file)}`, config.progressIntervalMs);
  try {
    const result = await ingestCorpus({
      client,
      index: options.index ?? plan.index(config.elasticsearch.indexPrefix),
      file,
      format: options.format,
      strict: options.strict,
      passageChars: options.passageChars,
      onProgress,
      target: plan.target,
      embed: embedder?.embed,
    });
    bar.finish();
    reportProblems(result);
    if (options.json) printJson(result);
    else printText(`${summarize(result)}\n`);
    if (result.failedCount > 0) process.exitCode = 1;
  } catch (err) {
    bar.finish();
    throw toCliError(err, config.elasticsearch.url);
  } finally {
    await client.close();
    await embedder?.close();
  }
}

function addIngestOptions(command: Command, defaultIndex: string): Command {
  return command
    .argument('<file>', 'JSON Lines corpus file, one document per line')
    .option('--index <name>', `index to write to (default: ${defaultIndex})`)
    .option('--embed', 'also embed every passage (VERITY_EMBEDDING_MODEL at the LLM endpoint, or the simulator) for dense/hybrid retrieval')
    .option('--strict', 'fail on the first malformed line instead of skipping it (exit code 2)')
    .option('--passage-chars <n>', 'maximum characters per passage', parsePositiveInt, DEFAULT_PASSAGE_CHARS)
    .addOption(new Option('--format <format>', 'input format; auto detects it per line').choices(CORPUS_FORMATS).default('auto'))
    .option('--json', 'print the ingest summary as JSON on stdout');
}

export function registerIngestCommand(program: Command): void {
  const ingest = program.command('ingest').description('Load text collections into Elasticsearch for retrieval.');
  addIngestOptions(
    ingest
      .command('wiki')
      .description(
        'Split a JSONL corpus (verity corpus format or FEVER wiki-pages) into passages and index them for BM25 ' +
          '(and, with --embed, dense) search. Re-ingesting the same file overwrites instead of duplicating.',
      ),
    '<ES_INDEX_PREFIX>-wiki',
  ).action((file: string, options: IngestWikiOptions) => ingestFile(file, options, { index: (prefix) => wikiIndexName(prefix) }));
  addIngestOptions(
    ingest.command('scifact').description('Index the SciFact abstracts (corpus/scifact.jsonl) as their own passage index.'),
    '<ES_INDEX_PREFIX>-scifact',
  ).action((file: string, options: IngestWikiOptions) => ingestFile(file, options, { index: (prefix) => indexName(prefix, 'scifact') }));
  addIngestOptions(
    ingest
      .command('web')
      .description(
        'Index recorded web passages (e.g. corpus/web_factcheckbench.jsonl) for the offline `recorded` web search ' +
          'provider and page reader; records without a url get a stand-in https://recorded.invalid/<id>.',
      ),
    '<ES_INDEX_PREFIX>-web',
  ).action((file: string, options: IngestWikiOptions) => ingestFile(file, options, { index: (prefix) => webIndexName(prefix), target: WEB_TARGET }));
  registerIngestGenerated(ingest);
}
