/**
 * `verity toe train` without the CLI: load the starting policy and the recorded episodes, run
 * GRPO, write the new weights file, and report the action distributions before and after.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Client } from '@elastic/elasticsearch';
import { type PolicyEpisode, type ToeAction } from '../sandbox/toe-policy';
import { type GrpoHyperparameters } from '../policy/grpo';
import { defaultWeightsPath, policyFromMlp, readWeightsFile } from '../policy/learned-policy';
import { initMlp } from '../policy/mlp-init';
import { TOE_POLICY_SIZES } from '../policy/weights';
import { actionDistribution, allStates, loggedActionShares, type ActionDistribution } from './action-distribution';
import { readEpisodesFromEs, readEpisodesJsonl } from './episode-source';
import { trainPolicy, type StartingPolicy, type UpdateLog } from './train-policy';

export interface RunTrainingOptions {
  /** JSONL files of PolicyEpisode lines. */
  episodeFiles?: string[];
  /** Read the ES episodes index with this client (optionally only one run's episodes). */
  es?: { client: Client; index: string; runId?: string };
  /** Starting weights file; default: the shipped weights. Ignored with `fresh`. */
  initWeights?: string;
  /** Start from a seeded init instead (needs `stateLayoutVersion`). */
  fresh?: { stateLayoutVersion: string };
  seed: number;
  hyperparameters?: Partial<GrpoHyperparameters>;
  passes?: number;
  /** Output file; default `<outDir>/<version>.json`. */
  out?: string;
  outDir?: string;
}

export interface TrainingReport {
  weightsFile: string;
  version: string;
  parentVersion?: string;
  stateLayoutVersion: string;
  episodes: { read: number; used: number; skippedEmpty: number; skippedOtherLayout: number; steps: number; sources: string[] };
  meanReturn: number;
  loggedActions: Record<ToeAction, number>;
  before: ActionDistribution;
  after: ActionDistribution;
  updates: UpdateLog[];
}

export async function loadEpisodes(options: Pick<RunTrainingOptions, 'episodeFiles' | 'es'>): Promise<{ episodes: PolicyEpisode[]; sources: string[] }> {
  const episodes: PolicyEpisode[] = [];
  const sources: string[] = [];
  for (const file of options.episodeFiles ?? []) {
    episodes.push(...readEpisodesJsonl(file));
    sources.push(`jsonl:${path.basename(file)}`);
  }
  if (options.es) {
    episodes.push(...(await readEpisodesFromEs(options.es.client, options.es.index, options.es.runId)));
    sources.push(`es:${options.es.index}${options.es.runId ? `?run=${options.es.runId}` : ''}`);
  }
  if (sources.length === 0) throw new Error('no episode source: give a JSONL file and/or the ES episodes index');
  // The same episode may be both exported and indexed; keep one per id.
  const byId = new Map(episodes.map((e) => [e.id, e]));
  return { episodes: [...byId.values()], sources };
}

export async function runTraining(options: RunTrainingOptions): Promise<TrainingReport> {
  const { episodes, sources } = await loadEpisodes(options);
  let start: StartingPolicy;
  if (options.fresh) {
    start = { mlp: initMlp(TOE_POLICY_SIZES, options.seed), stateLayoutVersion: options.fresh.stateLayoutVersion };
  } else {
    const { weights, mlp } = readWeightsFile(options.initWeights ?? defaultWeightsPath());
    start = { mlp, version: weights.version, stateLayoutVersion: weights.stateLayoutVersion };
  }
  const result = trainPolicy(start, episodes, {
    seed: options.seed,
    hyperparameters: options.hyperparameters,
    passes: options.passes,
    source: sources.join('+'),
  });
  const used = episodes.filter((e) => e.stateLayoutVersion === start.stateLayoutVersion && e.steps.length > 0);
  const states = allStates(used);
  const before = actionDistribution(policyFromMlp(start.mlp, start.version ?? 'fresh', start.stateLayoutVersion), states);
  const after = actionDistribution(policyFromMlp(result.mlp, result.weights.version, start.stateLayoutVersion), states);

  const weightsFile = path.resolve(options.out ?? path.join(options.outDir ?? '.', `${result.weights.version}.json`));
  fs.mkdirSync(path.dirname(weightsFile), { recursive: true });
  fs.writeFileSync(weightsFile, `${JSON.stringify(result.weights, null, 1)}\n`);

  return {
    weightsFile,
    version: result.weights.version,
    ...(start.version ? { parentVersion: start.version } : {}),
    stateLayoutVersion: start.stateLayoutVersion,
    episodes: {
      read: episodes.length,
      used: result.episodesUsed,
      skippedEmpty: result.skipped.empty,
      skippedOtherLayout: result.skipped.otherLayout,
      steps: states.length,
      sources,
    },
    meanReturn: result.meanReturn,
    loggedActions: loggedActionShares(used),
    before,
    after,
    updates: result.updates,
  };
}
