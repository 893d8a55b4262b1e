/**
 * Offline GRPO training of ToE's retrieval policy from logged episodes (toe.md §3.6).
 *
 * Group decision (toe.md §10 #7): a group is a buffer of G = 8 node-episodes, as in the paper's
 * online procedure — episodes are ordered by id, shuffled with the seed, then cut into groups;
 * returns are normalised within each group (a batch baseline, no value network). π_old is the
 * probability the acting policy logged; π_ref is the starting policy, frozen. Each group gets
 * `epochs` full-batch Adam updates with the gradient norm clipped.
 */
import crypto from 'node:crypto';
import { TOE_ACTIONS, type PolicyEpisode } from '../sandbox/toe-policy';
import { discountedReturn, groupAdvantages, PAPER_GRPO, stepLoss, type GrpoHyperparameters } from '../policy/grpo';
import { backward, cloneMlp, forward, logitsOf, softmax, zeroGradients, type Mlp } from '../policy/mlp';
import { adamStep, clipGradientNorm, createAdamState, DEFAULT_ADAM } from '../policy/mlp-adam';
import { mulberry32, shuffled } from '../../../shared/prng';
import { roundToStored, serialiseWeights, type PolicyWeightsFile } from '../policy/weights';

export interface TrainOptions {
  seed: number;
  hyperparameters?: Partial<GrpoHyperparameters>;
  /** Passes over all episodes (each pass reshuffles the groups). */
  passes?: number;
  /** Where the episodes came from (recorded in the weights' metadata). */
  source: string;
}

export interface StartingPolicy {
  mlp: Mlp;
  /** Version of the starting weights, or undefined for a fresh seeded init. */
  version?: string;
  stateLayoutVersion: string;
  /** π_ref of the KL term; default: the starting policy (online updates pass the weights frozen at the end of the warm-up). */
  reference?: Mlp;
}

export interface UpdateLog {
  pass: number;
  group: number;
  episodes: number;
  steps: number;
  meanReturn: number;
  /** Loss before the group's first update and after its last epoch. */
  lossBefore: number;
  lossAfter: number;
  clipFraction: number;
  kl: number;
  entropy: number;
  gradNorm: number;
}

export interface TrainResult {
  weights: PolicyWeightsFile;
  mlp: Mlp;
  updates: UpdateLog[];
  episodesUsed: number;
  /** Episodes skipped: no steps, or a different state layout than the starting policy's. */
  skipped: { empty: number; otherLayout: number };
  meanReturn: number;
}

interface PreparedStep {
  state: number[];
  action: number;
  oldProbability: number;
  advantage: number;
}

export function episodesHash(episodes: readonly PolicyEpisode[]): string {
  return crypto.createHash('sha256').update(JSON.stringify(episodes)).digest('hex').slice(0, 16);
}


/** Cuts into groups of `size`; a final remainder of one episode joins the previous group (a lone episode has no baseline). */
export function cutGroups<T>(items: readonly T[], size: number): T[][] {
  const groups: T[][] = [];
  for (let i = 0; i < items.length; i += size) groups.push(items.slice(i, i + size));
  const last = groups[groups.length - 1];
  if (groups.length > 1 && last && last.length === 1) {
    groups.pop();
    (groups[groups.length - 1] as T[]).push(...last);
  }
  return groups;
}

interface GroupEvaluation {
  loss: number;
  clipFraction: number;
  kl: number;
  entropy: number;
}

function evaluateGroup(mlp: Mlp, reference: Mlp, steps: readonly PreparedStep[], hp: GrpoHyperparameters, gradients?: ReturnType<typeof zeroGradients>): GroupEvaluation {
  let loss = 0;
  let clippedCount = 0;
  let kl = 0;
  let entropy = 0;
  for (const step of steps) {
    const trace = forward(mlp, step.state);
    const probs = softmax(logitsOf(trace));
    const refProbs = softmax(logitsOf(forward(reference, step.state)));
    const terms = stepLoss(probs, refProbs, step.action, step.oldProbability, step.advantage, hp);
    loss += (-terms.surrogate + hp.klCoefficient * terms.kl - hp.entropyCoefficient * terms.entropy) / steps.length;
    if (terms.clipped) clippedCount += 1;
    kl += terms.kl / steps.length;
    entropy += terms.entropy / steps.length;
    if (gradients) backward(mlp, trace, terms.dLogits.map((d) => d / steps.length), gradients);
  }
  return { loss, clipFraction: clippedCount / Math.max(steps.length, 1), kl, entropy };
}

export function trainPolicy(start: StartingPolicy, allEpisodes: readonly PolicyEpisode[], options: TrainOptions): TrainResult {
  const hp: GrpoHyperparameters = { ...PAPER_GRPO, ...options.hyperparameters };
  const passes = options.passes ?? 1;
  const skipped = { empty: 0, otherLayout: 0 };
  const episodes = [...allEpisodes]
    .filter((e) => {
      if (e.stateLayoutVersion !== start.stateLayoutVersion) return (skipped.otherLayout += 1), false;
      if (e.steps.length === 0) return (skipped.empty += 1), false;
      return true;
    })
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  if (episodes.length < 2) {
    throw new Error(
      `GRPO needs at least 2 episodes with steps in state layout ${start.stateLayoutVersion}; got ${episodes.length} (skipped ${skipped.empty} empty, ${skipped.otherLayout} of another layout)`,
    );
  }

  const reference = cloneMlp(start.reference ?? start.mlp);
  const mlp = cloneMlp(start.mlp);
  const adam = createAdamState(mlp);
  const random = mulberry32(options.seed);
  const updates: UpdateLog[] = [];
  const returns = episodes.map((e) => discountedReturn(e.steps.map((s) => s.reward), hp.gamma));

  for (let pass = 1; pass <= passes; pass += 1) {
    const order = shuffled(
      episodes.map((episode, index) => ({ episode, ret: returns[index] as number })),
      random,
    );
    cutGroups(order, hp.groupSize).forEach((group, groupIndex) => {
      const advantages = groupAdvantages(group.map((g) => g.ret));
      const steps: PreparedStep[] = group.flatMap((g, i) =>
        g.episode.steps.map((s) => ({
          state: s.state,
          action: TOE_ACTIONS.indexOf(s.action),
          oldProbability: s.probability,
          advantage: advantages[i] as number,
        })),
      );
      const before = evaluateGroup(mlp, reference, steps, hp);
      let gradNorm = 0;
      let last = before;
      for (let epoch = 0; epoch < hp.epochs; epoch += 1) {
        const gradients = zeroGradients(mlp);
        last = evaluateGroup(mlp, reference, steps, hp, gradients);
        gradNorm = clipGradientNorm(gradients, hp.maxGradNorm);
        adamStep(mlp, gradients, adam, { ...DEFAULT_ADAM, learningRate: hp.learningRate });
      }
      const after = evaluateGroup(mlp, reference, steps, hp);
      updates.push({
        pass,
        group: groupIndex + 1,
        episodes: group.length,
        steps: steps.length,
        meanReturn: group.reduce((sum, g) => sum + g.ret, 0) / group.length,
        lossBefore: before.loss,
        lossAfter: after.loss,
        clipFraction: last.clipFraction,
        kl: after.kl,
        entropy: after.entropy,
        gradNorm,
      });
    });
  }

  const stored = roundToStored(mlp);
  const weights = serialiseWeights(stored, start.stateLayoutVersion, {
    method: 'grpo',
    seed: options.seed,
    ...(start.version ? { parentVersion: start.version } : {}),
    episodes: episodes.length,
    steps: episodes.reduce((n, e) => n + e.steps.length, 0),
    source: options.source,
    episodesHash: episodesHash(episodes),
    hyperparameters: { ...hp, passes },
    updates: updates.length * hp.epochs,
  });
  return {
    weights,
    mlp: stored,
    updates,
    episodesUsed: episodes.length,
    skipped,
    meanReturn: returns.reduce((a, b) => a + b, 0) / returns.length,
  };
}
