/**
 * ToE's learned retrieval policy before and after GRPO training on episodes recorded by real ToE
 * runs: verifies N claims with `--method toe` (the acting policy logs every node's retrieval
 * episode to `<prefix>-toe-episodes`) through real Temporal + ES with the simulator, reads the
 * episodes back, trains (toe.md §3.6 hyperparameters unless overridden) and prints the action
 * distributions and the training loss/return.
 *
 *   npx tsx eval/bench/toe-policy.ts --dataset fixture --claims 12
 *
 * Then the online learner's learning curve (src/methods/toe/training/online-curve.ts): the warm-up fit
 * to the heuristic on the first --warmup claims' episodes, then one GRPO update (online learning rate)
 * per group of --group-size episodes in recorded order; per update the mean action distribution over
 * all recorded states, its distance to the heuristic and the group's mean reward. With --synthetic the
 * curve is closed-loop: the learner acts in the scripted world, --updates groups after the warm-up.
 *
 * Options: --dataset fixture|fever|hover|<claims.jsonl> (+ --corpus), --claims N (12), --concurrency n (3),
 * --max-iterations T (ToE's T_max, default 20), --acting heuristic|learned (heuristic: the paper's
 * warm-up policy), --seed s, --lr, --passes, --epochs, --warmup W (8), --group-size G (8), --updates U (30),
 * --episodes-out <jsonl> (export what was recorded), --weights-out <file>, --json-out <file> (the curve),
 * --synthetic N (no ToE runs: the documented synthetic world, src/methods/toe/training/synthetic-episodes.ts).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { formatTrainingReport } from '../../src/methods/toe/training/training-report-text';
import { loadConfig } from '../../src/config/config';
import { createEsClient } from '../../src/es/client';
import { STATE_LAYOUT_VERSION } from '../../src/methods/toe/sandbox/logic/state';
import { episodesIndex, readEpisodesFromEs, readEpisodesJsonl, writeEpisodesJsonl } from '../../src/methods/toe/training/episode-source';
import { runTraining } from '../../src/methods/toe/training/run-training';
import { syntheticEpisodes } from '../../src/methods/toe/training/synthetic-episodes';
import { formatCurve, meanDiscountedReturn, onlineLearningCurve, recordedGroups, samplingActor, type CurvePoint } from '../../src/methods/toe/training/online-curve';
import { heuristicActionProbabilities } from '../../src/methods/toe/policy/heuristic';
import { defaultWeightsPath, readWeightsFile } from '../../src/methods/toe/policy/learned-policy';
import { ONLINE_LEARNING_RATE } from '../../src/methods/toe/online/online-hyperparameters';
import type { PolicyEpisode } from '../../src/methods/toe/sandbox/toe-policy';
import { startSimulator } from '../../src/simulator/server';
import { loadDataset } from '../../src/datasets';
import { buildConditionIndices, deleteIndices } from '../poisoning/poison-corpus';
import { startSession } from '../poisoning/verity-session';
import { DEFAULT_RECORDED_WEB, resolveClaimsAndCorpus } from './support/claims-and-corpus';
import { exitWithUsageIfAsked } from './support/usage';
import { pool } from './support/pool';

exitWithUsageIfAsked(__filename);

/** Claims of the closed-loop curve's fixed evaluation set. */
const EVALUATION_CLAIMS = 200;


function int(value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`not a non-negative integer: ${value}`);
  return n;
}

async function recordEpisodes(values: Record<string, string | boolean | undefined>, file: string): Promise<string> {
  const name = String(values.dataset);
  const { claimsFile, wikiFile: wiki } = resolveClaimsAndCorpus(name, values.corpus ? String(values.corpus) : undefined);
  const { claims } = await loadDataset(claimsFile);
  const chosen = claims.slice(0, int(values.claims as string | undefined, 12));
  const prefix = `toe-policy-${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
  const es = createEsClient({ ...loadConfig().elasticsearch, requestTimeoutMs: 300_000 });
  const simulator = await startSimulator({ port: 0 });
  try {
    process.stderr.write(`toe-policy: indexing ${wiki} + recorded web into ${prefix}-wiki / -web\n`);
    await buildConditionIndices(es, prefix, { wiki, web: DEFAULT_RECORDED_WEB }, { wiki: [], web: [] });
    const session = await startSession({ prefix, env: { OPENAI_BASE_URL: simulator.url, OPENAI_API_KEY: 'sk-simulator', VERITY_WEB_SEARCH_PROVIDER: 'recorded', VERITY_WIKI_PROVIDER: 'index' } });
    const runId = `${prefix}-run`;
    try {
      let done = 0;
      const verifyOne = async (claim: (typeof chosen)[number]): Promise<void> => {
        const result = await session.verify({
          runId,
          claimId: claim.id,
          claim: claim.claim,
          method: 'toe',
          dataset: claim.dataset,
          settings: { toe: { policy: values.acting === 'learned' ? 'learned' : 'heuristic', sampling: 'sample', ...(values['max-iterations'] ? { maxIterations: int(values['max-iterations'] as string, 20) } : {}) } },
          timeoutMs: 900_000,
        });
        done += 1;
        process.stderr.write(`toe-policy: ${done}/${chosen.length} ${claim.id}: ${'error' in result ? `error ${result.error}` : result.verdict.label}\n`);
      };
      await pool(chosen, int(values.concurrency as string | undefined, 3) || 1, verifyOne, { progress: { label: 'bench toe-policy', unit: 'claims', intervalMs: loadConfig().progressIntervalMs } });
    } finally {
      await session.close();
    }
    // In claim order (the order the online learner would have seen them), each claim's nodes by id.
    const claimOrder = new Map(chosen.map((claim, index) => [`verify/${runId}/${claim.id}/`, index]));
    const rank = (id: string): number => [...claimOrder].find(([prefix]) => id.startsWith(prefix))?.[1] ?? chosen.length;
    const episodes = (await readEpisodesFromEs(es, episodesIndex(prefix), runId)).sort((a, b) => rank(a.id) - rank(b.id) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    writeEpisodesJsonl(file, episodes);
    process.stderr.write(`toe-policy: ${episodes.length} episodes recorded by ${chosen.length} ToE runs → ${file}\n`);
    return `${chosen.length} ToE verifications of ${path.basename(claimsFile)} (${values.acting === 'learned' ? 'learned' : 'heuristic'} acting policy, simulator LLM)`;
  } finally {
    await deleteIndices(es, prefix).catch(() => undefined);
    await simulator.close();
    await es.close();
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      dataset: { type: 'string', default: 'fixture' },
      corpus: { type: 'string' },
      claims: { type: 'string' },
      concurrency: { type: 'string' },
      acting: { type: 'string', default: 'heuristic' },
      seed: { type: 'string' },
      lr: { type: 'string' },
      passes: { type: 'string' },
      epochs: { type: 'string' },
      'episodes-out': { type: 'string' },
      'weights-out': { type: 'string' },
      synthetic: { type: 'string' },
      'max-iterations': { type: 'string' },
      warmup: { type: 'string' },
      'group-size': { type: 'string' },
      updates: { type: 'string' },
      'json-out': { type: 'string' },
    },
  });
  const episodesFile = values['episodes-out'] ?? path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'toe-policy-')), 'episodes.jsonl');
  const synthetic = values.synthetic !== undefined;
  let origin: string;
  if (synthetic) {
    const count = int(values.synthetic, 200);
    writeEpisodesJsonl(episodesFile, syntheticEpisodes(count, 1, STATE_LAYOUT_VERSION));
    origin = `${count} SYNTHETIC episodes (scripted world, uniform behaviour policy) — not a measurement of ToE`;
  } else {
    origin = await recordEpisodes(values, episodesFile);
  }
  const report = await runTraining({
    episodeFiles: [episodesFile],
    seed: int(values.seed, 0),
    passes: int(values.passes, 1) || 1,
    hyperparameters: {
      ...(values.lr ? { learningRate: Number(values.lr) } : {}),
      ...(values.epochs ? { epochs: int(values.epochs, 4) } : {}),
    },
    out: values['weights-out'] ?? path.join(os.tmpdir(), 'toe-policy-bench.json'),
  });
  process.stdout.write(`episodes from: ${origin}\n`);
  process.stdout.write(formatTrainingReport(report));

  const curve = learningCurve(values, synthetic, readEpisodesJsonl(episodesFile));
  process.stdout.write(`\nonline learning curve (${curve.origin}):\n${formatCurve(curve.points)}\n`);
  if (values['json-out']) {
    const command = `npm run bench:toe-policy -- ${process.argv.slice(2).join(' ')}`;
    fs.writeFileSync(values['json-out'], `${JSON.stringify({ command, episodesFrom: origin, curveFrom: curve.origin, onlineLearningRate: values.lr ? Number(values.lr) : ONLINE_LEARNING_RATE, curve: curve.points }, null, 1)}\n`);
  }
}

/**
 * Recorded: the online schedule replayed on the recorded episodes (the policy does not act, so the
 * groups' rewards are the recorded ones). Synthetic: closed loop, the learner acts in the scripted world.
 */
function learningCurve(values: Record<string, string | boolean | undefined>, synthetic: boolean, recorded: PolicyEpisode[]): { origin: string; points: CurvePoint[] } {
  const groupSize = int(values['group-size'] as string | undefined, 8) || 8;
  const warmupClaims = int(values.warmup as string | undefined, 8);
  const seed = int(values.seed as string | undefined, 0);
  const start = readWeightsFile(defaultWeightsPath()).mlp;
  const hyperparameters = values.lr ? { learningRate: Number(values.lr) } : {};
  if (synthetic) {
    const updates = int(values.updates as string | undefined, 30);
    const warmup = syntheticEpisodes(warmupClaims * 5, 11, STATE_LAYOUT_VERSION, samplingActor(heuristicActionProbabilities));
    const evaluation = syntheticEpisodes(100, 99, STATE_LAYOUT_VERSION, samplingActor(heuristicActionProbabilities)).flatMap((e) => e.steps.map((s) => s.state));
    // The policy's own return on 200 fixed scripted claims (same claims and draws at every point).
    const evaluate = (policy: { actionProbabilities: (state: readonly number[]) => number[] }) =>
      meanDiscountedReturn(syntheticEpisodes(EVALUATION_CLAIMS, 4242, STATE_LAYOUT_VERSION, samplingActor((s) => policy.actionProbabilities(s))));
    const points = onlineLearningCurve({
      start, stateLayoutVersion: STATE_LAYOUT_VERSION, warmup, evaluationStates: evaluation, groupSize, seed, maxUpdates: updates, hyperparameters, evaluate,
      nextGroup: (policy, update) => syntheticEpisodes(groupSize, 1000 + update, STATE_LAYOUT_VERSION, samplingActor((s) => policy.actionProbabilities(s))),
    });
    return { origin: `closed loop in the SYNTHETIC world: warm-up ${warmup.length} heuristic episodes, ${updates} groups of ${groupSize} acted by the learner`, points };
  }
  const { warmup, groups } = recordedGroups(recorded, warmupClaims, groupSize);
  const points = onlineLearningCurve({
    start, stateLayoutVersion: STATE_LAYOUT_VERSION, warmup, groupSize, seed, hyperparameters,
    evaluationStates: recorded.flatMap((e) => e.steps.map((s) => s.state)),
    maxUpdates: groups.length,
    nextGroup: (_policy, update) => groups[update - 1] ?? null,
  });
  return { origin: `recorded episodes replayed in claim order: warm-up fit on the first ${warmupClaims} claims (${warmup.length} episodes), ${groups.length} groups of ${groupSize}`, points };
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`toe-policy: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
