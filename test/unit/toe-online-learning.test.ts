import { describe, expect, it } from 'vitest';
import { heuristicActionProbabilities } from '../../src/methods/toe/policy/heuristic';
import { defaultWeightsPath, readWeightsFile } from '../../src/methods/toe/policy/learned-policy';
import { PAPER_GRPO } from '../../src/methods/toe/policy/grpo';
import { onlineLearningCurve, samplingActor, type CurvePoint } from '../../src/methods/toe/training/online-curve';
import { syntheticEpisodes } from '../../src/methods/toe/training/synthetic-episodes';
import { STATE_LAYOUT_VERSION } from '../../src/methods/toe/sandbox/logic/state';
import { TOE_ACTIONS, type PolicyEpisode } from '../../src/methods/toe/sandbox/toe-policy';
import { cloneHeuristic } from '../../src/methods/toe/training/clone-heuristic';
import { policyDistribution } from '../../src/methods/toe/training/online-curve';

const shipped = readWeightsFile(defaultWeightsPath()).mlp;
const heuristicActor = samplingActor(heuristicActionProbabilities);
/** The warm-up: 40 node-episodes (≈ 8 claims of 5 nodes) of the scripted world, acted by the heuristic. */
const warmup = syntheticEpisodes(40, 11, STATE_LAYOUT_VERSION, heuristicActor);
/** Held-out states: other claims of the same world, also visited by the heuristic. */
const heldOut = syntheticEpisodes(100, 99, STATE_LAYOUT_VERSION, heuristicActor).flatMap((e) => e.steps.map((s) => s.state));
const heuristicMean = policyDistribution({ version: 'h', stateLayoutVersion: STATE_LAYOUT_VERSION, actionProbabilities: heuristicActionProbabilities }, heldOut).distribution;

/** A world with one consistent signal: every search with `rewarded` pays 1, every other step 0. */
function consistentReward(rewarded: (typeof TOE_ACTIONS)[number]) {
  return (policy: Parameters<Parameters<typeof onlineLearningCurve>[0]['nextGroup']>[0], update: number): PolicyEpisode[] =>
    syntheticEpisodes(8, 1000 + update, STATE_LAYOUT_VERSION, samplingActor((s) => policy.actionProbabilities(s))).map((episode) => ({
      ...episode,
      steps: episode.steps.map((step) => ({ ...step, reward: step.action === rewarded ? 1 : 0 })),
    }));
}

/** The warm-up fit, as OnlineLearner computes it (seeded; the costly step, so computed once). */
const warmupFit = cloneHeuristic(shipped, warmup.flatMap((e) => e.steps.map((s) => s.state)), 5).mlp;

function curve(updates: number, learningRate?: number): CurvePoint[] {
  return onlineLearningCurve({
    warmupFit,
    start: shipped,
    stateLayoutVersion: STATE_LAYOUT_VERSION,
    warmup,
    nextGroup: consistentReward('reddit'),
    evaluationStates: heldOut,
    groupSize: 8,
    seed: 5,
    maxUpdates: updates,
    ...(learningRate !== undefined ? { hyperparameters: { learningRate } } : {}),
  });
}

describe('ToE online learner: the warm-up ends with a policy that acts like the heuristic', () => {
  const points = curve(0);
  const [start, fitted] = points;

  it('the shipped near-uniform weights are far from the heuristic; the warm-up fit is within tolerance on held-out states', () => {
    expect(start!.distanceToHeuristic).toBeGreaterThan(0.3);
    // Tolerance: mean total-variation distance ≤ 0.12 per state, and each action's mean probability within 0.03.
    expect(fitted!.kind).toBe('warmup-clone');
    expect(fitted!.distanceToHeuristic).toBeLessThan(0.12);
    for (const action of TOE_ACTIONS) expect(Math.abs(fitted!.distribution[action] - heuristicMean[action]), action).toBeLessThan(0.03);
  });
});

describe('ToE online learner: GRPO updates move the policy', () => {
  it('after 10 updates with a consistent reward for one action, its mean probability rises by at least 0.15', () => {
    const points = curve(10);
    const fitted = points.find((p) => p.kind === 'warmup-clone')!;
    const last = points.at(-1)!;
    expect(points.filter((p) => p.kind === 'grpo')).toHaveLength(10);
    expect(last.distribution.reddit - fitted.distribution.reddit).toBeGreaterThan(0.15);
    // The reward follows: the last groups act with reddit more often than the first.
    const groups = points.filter((p) => p.kind === 'grpo');
    const early = (groups[0]!.meanStepReward! + groups[1]!.meanStepReward!) / 2;
    const late = (groups[8]!.meanStepReward! + groups[9]!.meanStepReward!) / 2;
    expect(late).toBeGreaterThan(early);
  });

  it("at the paper's learning rate (1e-5) the same 10 updates leave the probability where it was (the defect the online rate fixes)", () => {
    const points = curve(10, PAPER_GRPO.learningRate);
    const fitted = points.find((p) => p.kind === 'warmup-clone')!;
    expect(Math.abs(points.at(-1)!.distribution.reddit - fitted.distribution.reddit)).toBeLessThan(0.01);
  });

  it('the fit and the updates are reproducible', () => {
    const states = warmup.flatMap((e) => e.steps.map((s) => s.state));
    const fit = () => cloneHeuristic(shipped, states, 9, { maxStates: 64, epochs: 2 }).mlp.layers.map((l) => Array.from(l.weights));
    expect(fit()).toEqual(fit());
    expect(curve(2).map((p) => p.distribution)).toEqual(curve(2).map((p) => p.distribution));
  });
});
