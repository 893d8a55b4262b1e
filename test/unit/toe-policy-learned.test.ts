import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TOE_ACTIONS } from '../../src/methods/toe/sandbox/toe-policy';
import { defaultWeightsPath, loadLearnedPolicy } from '../../src/methods/toe/policy/learned-policy';
import { STATE_LAYOUT_VERSION } from '../../src/methods/toe/sandbox/logic/state';
import { deserialiseWeights } from '../../src/methods/toe/policy/weights';
import { cutGroups, trainPolicy } from '../../src/methods/toe/training/train-policy';
import { syntheticEpisodes } from '../../src/methods/toe/training/synthetic-episodes';

const state = Array.from({ length: 29 }, (_, i) => (i % 3) / 2);

describe('learned ToE policy', () => {
  it('loads the shipped weights: 8 deterministic probabilities summing to 1, for the state builder’s layout', () => {
    const policy = loadLearnedPolicy();
    expect(policy.version).toMatch(/^toe-policy-[0-9a-f]{16}$/);
    expect(policy.stateLayoutVersion).toBe(STATE_LAYOUT_VERSION);
    const p = policy.actionProbabilities(state);
    expect(p).toHaveLength(TOE_ACTIONS.length);
    expect(p.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    expect(loadLearnedPolicy(defaultWeightsPath()).actionProbabilities(state)).toEqual(p);
  });

  it('rejects states of the wrong size or with non-finite values', () => {
    const policy = loadLearnedPolicy();
    expect(() => policy.actionProbabilities(state.slice(1))).toThrow(/29 values/);
    expect(() => policy.actionProbabilities([...state.slice(1), Number.NaN])).toThrow(/non-finite/);
  });

  it('refuses a weights file whose contents do not match its version, or of the wrong shape', () => {
    const raw = JSON.parse(fs.readFileSync(defaultWeightsPath(), 'utf8')) as Record<string, unknown>;
    expect(() => deserialiseWeights({ ...raw, stateLayoutVersion: 'toe-state-v0' })).toThrow(/does not match its contents/);
    expect(() => deserialiseWeights({ ...raw, actions: [...TOE_ACTIONS].reverse() })).toThrow(/actions must be/);
    expect(() => deserialiseWeights({ ...raw, format: 'other' })).toThrow(/not a ToE policy weights file/);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toe-w-'));
    fs.writeFileSync(path.join(dir, 'bad.json'), '{');
    expect(() => loadLearnedPolicy(path.join(dir, 'bad.json'))).toThrow(/cannot read ToE policy weights/);
    expect(() => loadLearnedPolicy(path.join(dir, 'missing.json'))).toThrow(/not found/);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe('GRPO trainer', () => {
  const start = () => {
    const { mlp, file } = deserialiseWeights(JSON.parse(fs.readFileSync(defaultWeightsPath(), 'utf8')));
    return { mlp, version: file.version, stateLayoutVersion: file.stateLayoutVersion };
  };
  const episodes = syntheticEpisodes(20, 5, STATE_LAYOUT_VERSION);

  it('is reproducible with a seed, independent of the episodes’ input order, and changes the policy', () => {
    const a = trainPolicy(start(), episodes, { seed: 3, source: 'test', hyperparameters: { learningRate: 1e-3 } });
    const b = trainPolicy(start(), [...episodes].reverse(), { seed: 3, source: 'test', hyperparameters: { learningRate: 1e-3 } });
    const c = trainPolicy(start(), episodes, { seed: 4, source: 'test', hyperparameters: { learningRate: 1e-3 } });
    expect(a.weights).toEqual(b.weights);
    expect(c.weights.version).not.toBe(a.weights.version);
    expect(a.weights.version).not.toBe(start().version);
    expect(a.weights.training).toMatchObject({ method: 'grpo', seed: 3, parentVersion: start().version, episodes: 20, updates: 3 * 4 });
    // The saved file decodes to exactly the trained (float32-rounded) network.
    expect(deserialiseWeights(a.weights).mlp).toEqual(a.mlp);
  });

  it('skips empty episodes and episodes of another state layout', () => {
    const mixed = [...episodes, { ...episodes[0]!, id: 'empty', steps: [] }, { ...episodes[1]!, id: 'old', stateLayoutVersion: 'toe-state-v0' }];
    const result = trainPolicy(start(), mixed, { seed: 1, source: 'test' });
    expect(result.skipped).toEqual({ empty: 1, otherLayout: 1 });
    expect(result.episodesUsed).toBe(20);
  });

  it('cuts groups of G and folds a lone remainder into the last group', () => {
    expect(cutGroups([1, 2, 3, 4, 5, 6, 7, 8, 9], 8)).toEqual([[1, 2, 3, 4, 5, 6, 7, 8, 9]]);
    expect(cutGroups([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4, 5]]);
    expect(cutGroups([1, 2, 3], 8)).toEqual([[1, 2, 3]]);
  });
});
