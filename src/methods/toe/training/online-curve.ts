/**
 * The learning curve of ToE's online learner without Temporal: the warm-up fit to the heuristic,
 * then one GRPO update per group of episodes with the online learner's hyperparameters and π_ref
 * the warm-up fit, as OnlineLearner does. Per point: the policy's mean action distribution over a
 * fixed set of states, its distance to the heuristic there, and the group's rewards. Groups come
 * from recorded episodes (replayed in order) or from a world the current policy acts in.
 */
import { TOE_ACTIONS, type PolicyEpisode, type ToeAction } from '../sandbox/toe-policy';
import { discountedReturn, PAPER_GRPO, type GrpoHyperparameters } from '../policy/grpo';
import { policyFromMlp, type LearnedPolicy } from '../policy/learned-policy';
import type { Mlp } from '../policy/mlp';
import { chooseAction, maskProbabilities } from '../policy/select-action';
import { onlineGrpoHyperparameters } from '../online/online-hyperparameters';
import { cloneHeuristic, heuristicTarget } from './clone-heuristic';
import { trainPolicy } from './train-policy';

export interface CurvePoint {
  /** 0: the starting weights; then the warm-up fit; then one point per GRPO update. */
  step: number;
  kind: 'start' | 'warmup-clone' | 'grpo';
  /** Episodes the step trained on (the warm-up's for the fit). */
  episodes: number;
  /** Mean discounted return and mean step reward of those episodes; null for the start. */
  meanReturn: number | null;
  meanStepReward: number | null;
  /**
   * Mean discounted return of the policy itself acting on a fixed evaluation set of claims (the same
   * claims and draws at every point), when the curve has an `evaluate`: unlike `meanReturn`, whose group
   * changes at every update, it moves only when the policy does.
   */
  evaluationReturn?: number;
  /** Mean masked π(a|s) over the evaluation states. */
  distribution: Record<ToeAction, number>;
  /** Mean total-variation distance to the heuristic's masked distribution over the evaluation states. */
  distanceToHeuristic: number;
}

export interface OnlineCurveInput {
  start: Mlp;
  stateLayoutVersion: string;
  /** Episodes the heuristic acted in during the warm-up. */
  warmup: readonly PolicyEpisode[];
  /** The next group of episodes, given the acting policy and the update number (1, 2, …); null: no more. */
  nextGroup: (policy: LearnedPolicy, update: number) => readonly PolicyEpisode[] | null;
  evaluationStates: readonly (readonly number[])[];
  groupSize: number;
  seed: number;
  /** Stop after this many GRPO updates. */
  maxUpdates: number;
  /** The warm-up fit when already computed (it is the costly step); default: fitted here. */
  warmupFit?: Mlp;
  /** Overrides of the online learner's GRPO settings (e.g. the paper's learning rate, for comparison). */
  hyperparameters?: Partial<GrpoHyperparameters>;
  /** The mean return of a policy acting on a fixed evaluation set (closed-loop worlds only). */
  evaluate?: (policy: LearnedPolicy) => number;
}

/** Mean discounted return (γ of Table I) of episodes. */
export function meanDiscountedReturn(episodes: readonly PolicyEpisode[]): number {
  return rewards(episodes).meanReturn;
}

/** Acts as a workflow does: a seeded draw from the masked distribution, logging π_old. */
export function samplingActor(probabilities: (state: readonly number[]) => number[]): (state: number[], key: string) => { action: ToeAction; probability: number } {
  return (state, key) => {
    const { action, probability } = chooseAction(probabilities(state), state, 'sample', key);
    return { action, probability };
  };
}

export function policyDistribution(policy: LearnedPolicy, states: readonly (readonly number[])[]): { distribution: Record<ToeAction, number>; distanceToHeuristic: number } {
  const distribution = Object.fromEntries(TOE_ACTIONS.map((a) => [a, 0])) as Record<ToeAction, number>;
  let distance = 0;
  for (const state of states) {
    const probabilities = maskProbabilities(policy.actionProbabilities(state), state);
    const heuristic = heuristicTarget(state);
    probabilities.forEach((p, i) => {
      distribution[TOE_ACTIONS[i] as ToeAction] += p / states.length;
      distance += Math.abs(p - (heuristic[i] as number)) / 2 / states.length;
    });
  }
  return { distribution, distanceToHeuristic: distance };
}

function rewards(episodes: readonly PolicyEpisode[]): { meanReturn: number; meanStepReward: number } {
  const steps = episodes.flatMap((e) => e.steps);
  const returns = episodes.map((e) => discountedReturn(e.steps.map((s) => s.reward), PAPER_GRPO.gamma));
  return {
    meanReturn: returns.reduce((a, b) => a + b, 0) / Math.max(returns.length, 1),
    meanStepReward: steps.reduce((a, s) => a + s.reward, 0) / Math.max(steps.length, 1),
  };
}

export function onlineLearningCurve(input: OnlineCurveInput): CurvePoint[] {
  const policyOf = (mlp: Mlp): LearnedPolicy => policyFromMlp(mlp, 'curve', input.stateLayoutVersion);
  const point = (step: number, kind: CurvePoint['kind'], mlp: Mlp, episodes: readonly PolicyEpisode[]): CurvePoint => ({
    step,
    kind,
    episodes: episodes.length,
    ...(episodes.length > 0 ? rewards(episodes) : { meanReturn: null, meanStepReward: null }),
    ...(input.evaluate ? { evaluationReturn: input.evaluate(policyOf(mlp)) } : {}),
    ...policyDistribution(policyOf(mlp), input.evaluationStates),
  });
  const curve = [point(0, 'start', input.start, [])];
  const reference = input.warmupFit ?? cloneHeuristic(input.start, input.warmup.flatMap((e) => e.steps.map((s) => s.state)), input.seed).mlp;
  curve.push(point(1, 'warmup-clone', reference, input.warmup));
  let current = reference;
  for (let update = 1; update <= input.maxUpdates; update += 1) {
    const group = input.nextGroup(policyOf(current), update);
    if (!group || group.length < 2) break;
    current = trainPolicy({ mlp: current, stateLayoutVersion: input.stateLayoutVersion, reference }, group, {
      seed: input.seed + update,
      hyperparameters: { ...onlineGrpoHyperparameters(input.groupSize), ...input.hyperparameters },
      source: 'online-curve',
    }).mlp;
    curve.push(point(update + 1, 'grpo', current, group));
  }
  return curve;
}

/** The claim an episode belongs to: its verification workflow id (`<workflow id>/<node id>`). */
export function episodeClaim(episode: PolicyEpisode): string {
  return episode.id.slice(0, Math.max(episode.id.lastIndexOf('/'), 0));
}

/**
 * Recorded episodes in recorded order (claims in order, each claim's nodes by id): the warm-up
 * claims' episodes, and the groups of G the online learner would train on (the warm-up episodes
 * included: the fit only reads their states).
 */
export function recordedGroups(episodes: readonly PolicyEpisode[], warmupClaims: number, groupSize: number): { warmup: PolicyEpisode[]; groups: PolicyEpisode[][] } {
  const claims: string[] = [];
  for (const e of episodes) if (!claims.includes(episodeClaim(e))) claims.push(episodeClaim(e));
  const warmupSet = new Set(claims.slice(0, warmupClaims));
  const warmup = episodes.filter((e) => warmupSet.has(episodeClaim(e)));
  const groups: PolicyEpisode[][] = [];
  for (let i = 0; i + groupSize <= episodes.length; i += groupSize) groups.push(episodes.slice(i, i + groupSize));
  return { warmup, groups };
}

export function formatCurve(curve: readonly CurvePoint[]): string {
  const evaluated = curve.some((p) => p.evaluationReturn !== undefined);
  const header = `${'step'.padStart(4)} ${'kind'.padEnd(12)} ${'ep'.padStart(4)} ${'return'.padStart(8)} ${'r/step'.padStart(8)}${evaluated ? ` ${'eval ret'.padStart(8)}` : ''} ${'TV→heur'.padStart(8)} ${TOE_ACTIONS.map((a) => a.padStart(9)).join(' ')}`;
  const rows = curve.map((p) =>
    [
      String(p.step).padStart(4),
      p.kind.padEnd(12),
      String(p.episodes).padStart(4),
      (p.meanReturn === null ? '–' : p.meanReturn.toFixed(4)).padStart(8),
      (p.meanStepReward === null ? '–' : p.meanStepReward.toFixed(4)).padStart(8),
      ...(evaluated ? [(p.evaluationReturn === undefined ? '–' : p.evaluationReturn.toFixed(4)).padStart(8)] : []),
      p.distanceToHeuristic.toFixed(4).padStart(8),
      TOE_ACTIONS.map((a) => p.distribution[a].toFixed(4).padStart(9)).join(' '),
    ].join(' '),
  );
  return [header, ...rows].join('\n');
}
