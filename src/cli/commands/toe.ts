import path from 'node:path';
import { type Command, InvalidArgumentError } from 'commander';
import { loadConfig } from '../../config/config';
import { createEsClient } from '../../es/client';
import { episodesIndex } from '../../methods/toe/training/episode-source';
import { PolicyVersionStore, toePolicyVersionsIndex, writeVersionWeights } from '../../methods/toe/online/policy-version-store';
import { versionRecordSchema, versionSummarySchema } from '../../methods/toe/online/version-record-schema';
import { runTraining } from '../../methods/toe/training/run-training';
import { formatTrainingReport } from '../../methods/toe/training/training-report-text';
import { CliError } from '../errors';
import { notice, printJson, printText } from '../output';
import { toCliError } from '../common';

interface TrainOptions {
  episodes: string[];
  es?: boolean;
  index?: string;
  run?: string;
  init?: string;
  fresh?: string;
  out?: string;
  seed: number;
  lr?: number;
  epochs?: number;
  passes: number;
  groupSize?: number;
  json?: boolean;
}

function number(kind: 'int' | 'float') {
  return (value: string): number => {
    const parsed = kind === 'int' ? Number.parseInt(value, 10) : Number(value);
    if (!Number.isFinite(parsed) || (kind === 'int' && String(parsed) !== value.trim())) throw new InvalidArgumentError(`not a${kind === 'int' ? 'n integer' : ' number'}: ${value}`);
    return parsed;
  };
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

export function registerToeCommand(program: Command): void {
  const toe = program.command('toe').description('ToE (Tree of Evidence) tools: train the learned retrieval policy, list and export online weights versions.');
  toe
    .command('versions')
    .description(
      'List the weights versions the online learner (policy=online) wrote for a scope (default scope of a run: run:<run>/model:<model>), or export one as a weights file for policy=learned.',
    )
    .argument('<scope>', 'learner scope, e.g. run:toe-dev/model:gpt-4o-mini')
    .option('--export <version>', 'write this version as a weights file (needs --out)')
    .option('--out <file>', 'weights file to write with --export')
    .option('--json', 'print the versions as JSON')
    .action(async (scope: string, options: { export?: string; out?: string; json?: boolean }) => {
      if (options.export && !options.out) throw new CliError('--export needs --out <file>', 2);
      const config = loadConfig();
      const client = createEsClient({ ...config.elasticsearch, requestTimeoutMs: 60_000 });
      const store = new PolicyVersionStore(client, toePolicyVersionsIndex(config.elasticsearch.indexPrefix));
      try {
        if (options.export) {
          const stored = await store.get(scope, options.export);
          if (!stored) throw new CliError(`no version ${options.export} of scope ${scope} in ${store.index}`, 1);
          const parsed = versionRecordSchema.safeParse(stored);
          if (!parsed.success) throw new CliError(`version ${options.export} of scope ${scope} is damaged (${parsed.error.issues[0]?.path.join('.') ?? 'record'}: ${parsed.error.issues[0]?.message ?? 'invalid'}); nothing written`, 1);
          const record = parsed.data as typeof stored;
          writeVersionWeights(record, options.out!);
          process.stdout.write(`wrote ${record.version} (update ${record.seq} of ${scope}) to ${path.resolve(options.out!)}\n`);
          return;
        }
        const stored = await store.versions(scope);
        const versions = stored.flatMap((record) => {
          const parsed = versionSummarySchema.safeParse(record);
          return parsed.success ? [parsed.data] : [];
        });
        if (versions.length < stored.length) notice(`${stored.length - versions.length} damaged version record(s) of ${scope} left out`);
        if (options.json) return printJson(versions);
        if (versions.length === 0) process.stdout.write(`no versions of ${scope} yet (still warming up, or another scope)\n`);
        for (const v of versions) {
          const trainedOn = v.update === 'warmup-clone' ? `heuristic fit on ${v.clonedFrom?.length ?? 0} warm-up episodes` : `${v.episodeIds.length} episodes`;
          process.stdout.write(`${v.seq}\t${v.version}\tfrom ${v.parentVersion}\t${trainedOn}\tmean return ${v.meanReturn.toFixed(4)}\t${v.createdAt}\n`);
        }
      } catch (err) {
        if (err instanceof CliError) throw err;
        throw toCliError(err, config.elasticsearch.url);
      } finally {
        await client.close();
      }
    });
  toe
    .command('train')
    .description(
      'Train the retrieval policy (29→128→128→64→8 softmax MLP) with GRPO on recorded episodes (toe.md §3.6: γ 0.99, clip 0.2, entropy 0.01, KL 0.1, lr 1e-5, grad norm 0.5, G 8) and write a versioned weights file.',
    )
    .option('--episodes <file>', 'JSONL file of PolicyEpisode lines (repeatable)', collect, [])
    .option('--es', 'also read the episodes index <ES_INDEX_PREFIX>-toe-episodes')
    .option('--index <name>', 'read this episodes index instead (implies --es)')
    .option('--run <runId>', 'only episodes of this run (implies --es)')
    .option('--init <file>', 'weights to start from (default: the shipped weights)')
    .option('--fresh <stateLayoutVersion>', 'start from a seeded init for this state layout instead of --init')
    .option('--out <file>', 'weights file to write (default: <VERITY_DATA_DIR>/toe-policy/<version>.json)')
    .option('--seed <n>', 'seed of the group shuffle (and of --fresh init)', number('int'), 0)
    .option('--lr <rate>', 'Adam learning rate (paper: 1e-5)', number('float'))
    .option('--epochs <n>', 'updates per group (default 4)', number('int'))
    .option('--passes <n>', 'passes over all episodes, reshuffled each time', number('int'), 1)
    .option('--group-size <n>', 'episodes per GRPO group (paper: 8)', number('int'))
    .option('--json', 'print the report as JSON')
    .action(async (options: TrainOptions) => {
      const config = loadConfig();
      const useEs = Boolean(options.es || options.index || options.run);
      if (!useEs && options.episodes.length === 0) throw new CliError('give --episodes <file.jsonl> and/or --es / --run <runId>', 2);
      const client = useEs ? createEsClient({ ...config.elasticsearch, requestTimeoutMs: 120_000 }) : undefined;
      try {
        const report = await runTraining({
          episodeFiles: options.episodes,
          ...(client ? { es: { client, index: options.index ?? episodesIndex(config.elasticsearch.indexPrefix), runId: options.run } } : {}),
          initWeights: options.init,
          ...(options.fresh ? { fresh: { stateLayoutVersion: options.fresh } } : {}),
          seed: options.seed,
          hyperparameters: {
            ...(options.lr !== undefined ? { learningRate: options.lr } : {}),
            ...(options.epochs !== undefined ? { epochs: options.epochs } : {}),
            ...(options.groupSize !== undefined ? { groupSize: options.groupSize } : {}),
          },
          passes: options.passes,
          out: options.out,
          outDir: path.join(config.dataDir, 'toe-policy'),
        });
        if (options.json) printJson(report);
        else printText(formatTrainingReport(report));
      } catch (err) {
        if (client) throw toCliError(err, config.elasticsearch.url);
        throw new CliError(err instanceof Error ? err.message : String(err), 2);
      } finally {
        await client?.close();
      }
    });
}
