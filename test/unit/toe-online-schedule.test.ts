import { describe, expect, it } from 'vitest';
import { nextUpdateGroup, updateSeed } from '../../src/methods/toe/online/online-schedule';
import { initMlp } from '../../src/methods/toe/policy/mlp-init';
import { TOE_POLICY_SIZES } from '../../src/methods/toe/policy/weights';
import { trainPolicy } from '../../src/methods/toe/training/train-policy';
import { STATE_LAYOUT_VERSION } from '../../src/methods/toe/sandbox/logic/state';
import { resolveToeSettings, onlineScopeOf } from '../../src/methods/toe/sandbox/toe-settings';
import { toeSettingsSchema } from '../../src/methods/toe/settings-schema';
import type { PolicyEpisode } from '../../src/methods/toe/sandbox/toe-policy';

const ids = (n: number) => Array.from({ length: n }, (_, i) => `e${i + 1}`);

describe('ToE online learner schedule (paper §III-B: warm-up of 8 claims, then an update per group of 8 episodes)', () => {
  it('waits for the warm-up claims, however many episodes there are', () => {
    expect(nextUpdateGroup({ claimsDone: 7, warmupClaims: 8, groupSize: 8, episodeIds: ids(40), consumed: new Set() })).toBeNull();
    expect(nextUpdateGroup({ claimsDone: 8, warmupClaims: 8, groupSize: 8, episodeIds: ids(40), consumed: new Set() })).toEqual(ids(8));
  });

  it('takes the oldest group of episodes not yet trained on, and only a full one', () => {
    const consumed = new Set(ids(8));
    expect(nextUpdateGroup({ claimsDone: 9, warmupClaims: 8, groupSize: 8, episodeIds: ids(16), consumed })).toEqual(ids(16).slice(8));
    expect(nextUpdateGroup({ claimsDone: 9, warmupClaims: 8, groupSize: 8, episodeIds: ids(15), consumed })).toBeNull();
  });

  it('seeds each update reproducibly per scope and sequence number', () => {
    expect(updateSeed('run:r/model:m', 1)).toBe(updateSeed('run:r/model:m', 1));
    expect(updateSeed('run:r/model:m', 1)).not.toBe(updateSeed('run:r/model:m', 2));
    expect(updateSeed('run:r/model:m', 1)).not.toBe(updateSeed('run:r/model:n', 1));
  });

  it('defaults to the paper values and one learner per run and model; the schema accepts policy online', () => {
    const settings = resolveToeSettings({ policy: 'online', online: { groupSize: 4 } as never });
    expect(settings.online).toEqual({ warmupClaims: 8, groupSize: 4, claimsPerVersion: 4 });
    expect(onlineScopeOf(settings, 'run-1', 'gpt-x')).toBe('run:run-1/model:gpt-x');
    expect(onlineScopeOf(resolveToeSettings({ online: { warmupClaims: 8, groupSize: 8, claimsPerVersion: 4, scope: 'shared' } }), 'run-1', 'gpt-x')).toBe('shared');
    expect(toeSettingsSchema.safeParse({ policy: 'online', online: { warmupClaims: 2, groupSize: 2 } }).success).toBe(true);
    expect(toeSettingsSchema.safeParse({ online: { groupSize: 1 } }).success).toBe(false);
    expect(toeSettingsSchema.safeParse({ online: { claimsPerVersion: 0 } }).success).toBe(false);
  });
});

describe('GRPO update against a frozen reference (π_ref = the weights at the end of the warm-up)', () => {
  const state = Array.from({ length: 29 }, (_, i) => (i % 5) / 5);
  const episodes: PolicyEpisode[] = [1, 2].map((n) => ({
    schemaVersion: 1,
    id: `ep${n}`,
    claim: 'c',
    policy: 'heuristic',
    stateLayoutVersion: STATE_LAYOUT_VERSION,
    steps: [{ state, action: 'web', probability: 1, reward: n }],
  }));

  it('measures its KL from the given reference, not from the starting weights', () => {
    const start = initMlp(TOE_POLICY_SIZES, 1);
    const reference = initMlp(TOE_POLICY_SIZES, 2);
    const hp = { learningRate: 0, groupSize: 2, epochs: 1 };
    const fromStart = trainPolicy({ mlp: start, stateLayoutVersion: STATE_LAYOUT_VERSION }, episodes, { seed: 1, source: 't', hyperparameters: hp });
    const fromReference = trainPolicy({ mlp: start, stateLayoutVersion: STATE_LAYOUT_VERSION, reference }, episodes, { seed: 1, source: 't', hyperparameters: hp });
    expect(fromStart.updates[0]!.kl).toBeCloseTo(0, 12);
    expect(fromReference.updates[0]!.kl).toBeGreaterThan(0);
  });
});
