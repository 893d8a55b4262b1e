import path from 'node:path';
import type { Command } from 'commander';
import { followBulkIngest, startBulkIngest } from '../../client/bulk-ingest';
import { connectTemporal } from '../../client/temporal';
import { loadConfig } from '../../config/config';
import { sha256OfFile } from '../../corpus/generated-passages';
import { wikiIndexName } from '../../corpus/wiki-index';
import { ownIndexProblem } from '../../es/indices';
import { inputFileProblem } from '../../config/input-file';
import { projectRoot } from '../../project-root';
import { CliError } from '../errors';
import { notice, printJson, printText } from '../output';
import { parsePositiveInt, toCliError } from '../common';
import { CommandProgress } from '../progress';

interface IngestGeneratedOptions {
  total: number;
  seed: number;
  source: string;
  index?: string;
  batch: number;
  parallel: number;
  shards: number;
  json?: boolean;
}

const DEFAULT_SOURCE = path.join(projectRoot(), '..', 'shared', 'data', 'corpus', 'wiki.jsonl');

async function ingestGenerated(options: IngestGeneratedOptions): Promise<void> {
  const problem = inputFileProblem(options.source);
  if (problem) throw new CliError(`--source: ${problem}`, 2);
  const config = loadConfig();
  const indexProblem = options.index === undefined ? undefined : ownIndexProblem(options.index, config.elasticsearch.indexPrefix);
  if (indexProblem) throw new CliError(`--index: ${indexProblem}`, 2);
  const index = options.index ?? wikiIndexName(config.elasticsearch.indexPrefix);
  notice(`GENERATED corpus, not a real dump: ${options.total} passages of shuffled words from ${options.source} (seed ${options.seed})`);
  const client = await connectTemporal(config);
  const bar = new CommandProgress({ label: `ingest generated → ${index}`, unit: 'passages', intervalMs: config.progressIntervalMs });
  try {
    const { handle, attached } = await startBulkIngest(client, config.temporal.taskQueue, {
      index,
      corpus: { sourceFile: path.resolve(options.source), sourceSha256: sha256OfFile(options.source), seed: options.seed, total: options.total },
      batchSize: options.batch,
      parallel: options.parallel,
      shards: options.shards,
    });
    notice(`${attached ? 'attached to the running' : 'started'} ${handle.workflowId} (a \`verity worker\` runs it; interrupting this command does not stop it, running it again attaches)`);
    const result = await followBulkIngest(handle, (progress) => bar.update({ done: progress.passages, total: progress.total, detail: `${progress.nextBatch}/${progress.batches} batches, ${progress.inFlight} in flight` }), 2_000);
    bar.finish();
    if (options.json) printJson(result);
    else printText(`ingested ${result.passages} generated passages into ${result.index} in ${result.batches} batches; checksum ${result.checksum}\n`);
  } catch (err) {
    bar.finish();
    throw toCliError(err, config.elasticsearch.url);
  } finally {
    await client.connection.close();
  }
}

/** `verity ingest generated`: the durable bulk ingest of a generated corpus (scale tests). */
export function registerIngestGenerated(ingest: Command): void {
  ingest
    .command('generated')
    .description(
      'Load a GENERATED corpus (passages of shuffled words from a source corpus, distinct ids; not a real dump) ' +
        'at scale with the durable bulk ingest: a workflow over fixed batches with deterministic ids, which a ' +
        '`verity worker` runs and which resumes after any crash without duplicates or gaps.',
    )
    .requiredOption('--total <n>', 'passages to generate', parsePositiveInt)
    .option('--seed <n>', 'generator seed', parsePositiveInt, 1)
    .option('--source <file>', 'corpus whose words are shuffled', DEFAULT_SOURCE)
    .option('--index <name>', 'index to write to (default: <ES_INDEX_PREFIX>-wiki)')
    .option('--batch <n>', 'passages per batch (one bulk request)', parsePositiveInt, 2000)
    .option('--parallel <n>', 'batches in flight', parsePositiveInt, 8)
    .option('--shards <n>', 'primary shards when the index is created', parsePositiveInt, 1)
    .option('--json', 'print the result as JSON on stdout')
    .action((options: IngestGeneratedOptions) => ingestGenerated(options));
}
