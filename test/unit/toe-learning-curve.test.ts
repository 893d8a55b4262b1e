import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { heuristicActionProbabilities } from '../../src/methods/toe/policy/heuristic';
import { defaultWeightsPath, readWeightsFile } from '../../src/methods/toe/policy/learned-policy';
import { ONLINE_LEARNING_RATE } from '../../src/methods/toe/online/online-hyperparameters';
import { meanDiscountedReturn, onlineLearningCurve, samplingActor, type CurvePoint } from '../../src/methods/toe/training/online-curve';
import { syntheticEpisodes } from '../../src/methods/toe/training/synthetic-episodes';
import { STATE_LAYOUT_VERSION } from '../../src/methods/toe/sandbox/logic/state';
import { projectRoot } from '../../src/project-root';

const RESULTS = path.join(projectRoot(), 'eval', 'bench', 'results');
const committed = (file: string) => JSON.parse(fs.readFileSync(path.join(RESULTS, file), 'utf8')) as { command: string; onlineLearningRate: number; curve: CurvePoint[] };

// Issue 37 (10): the committed curve moved the policy but its mean return did not rise (a replay of
// recorded episodes, where the policy never acts). Learning is shown in closed loop, on a fixed
// evaluation set whose return moves only when the policy does.
describe('ToE online learning raises the return where it can (issue 37, defect 10)', () => {
  it('the curve reports the policy\'s own return on a fixed evaluation set at every point', () => {
    const actor = samplingActor(heuristicActionProbabilities);
    const evaluate = (policy: { actionProbabilities: (state: readonly number[]) => number[] }) =>
      meanDiscountedReturn(syntheticEpisodes(20, 4242, STATE_LAYOUT_VERSION, samplingActor((s) => policy.actionProbabilities(s))));
    const points = onlineLearningCurve({
      start: readWeightsFile(defaultWeightsPath()).mlp,
      stateLayoutVersion: STATE_LAYOUT_VERSION,
      warmup: syntheticEpisodes(16, 11, STATE_LAYOUT_VERSION, actor),
      evaluationStates: syntheticEpisodes(10, 99, STATE_LAYOUT_VERSION, actor).flatMap((e) => e.steps.map((s) => s.state)),
      groupSize: 8,
      seed: 0,
      maxUpdates: 2,
      evaluate,
      nextGroup: (policy, update) => syntheticEpisodes(8, 1000 + update, STATE_LAYOUT_VERSION, samplingActor((s) => policy.actionProbabilities(s))),
    });
    expect(points).toHaveLength(4);
    for (const point of points) expect(point.evaluationReturn).toBeTypeOf('number');
    // Same claims, same draws: the same policy gets the same return.
    expect(evaluate({ actionProbabilities: heuristicActionProbabilities })).toBe(evaluate({ actionProbabilities: heuristicActionProbabilities }));
  });

  it('the committed closed-loop curves: the online rate raises the evaluation return well beyond its noise, the paper\'s 1e-5 does not in 200 updates', () => {
    const online = committed('toe-policy-curve-synthetic-lr1e-3.json');
    const paper = committed('toe-policy-curve-synthetic-lr1e-5.json');
    expect(online.onlineLearningRate).toBe(ONLINE_LEARNING_RATE);
    expect(paper.onlineLearningRate).toBe(1e-5);
    for (const run of [online, paper]) expect(run.command).toMatch(/^npm run bench:toe-policy -- --synthetic 50 --updates 200/);
    const gain = (run: typeof online) => run.curve.at(-1)!.evaluationReturn! - run.curve[1]!.evaluationReturn!;
    expect(gain(online)).toBeGreaterThan(0.2);
    expect(Math.abs(gain(paper))).toBeLessThan(0.05);
  });
});
