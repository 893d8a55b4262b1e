import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Client } from '@elastic/elasticsearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadLearnedPolicy } from '../../src/methods/toe/policy/learned-policy';
import { episodesIndex } from '../../src/methods/toe/training/episode-source';
import { runTraining } from '../../src/methods/toe/training/run-training';
import { syntheticEpisodes } from '../../src/methods/toe/training/synthetic-episodes';
import { createEsClient } from '../../src/es/client';
import { STATE_LAYOUT_VERSION } from '../../src/methods/toe/sandbox/logic/state';
import { ToeEpisodeStore } from '../../src/methods/toe/episode-store';
import { deleteIndicesWithPrefix, uniqueName } from '../support/test-env';

describe('toe train on episodes stored in real Elasticsearch', () => {
  let es: Client;
  let prefix: string;
  let dir: string;

  beforeAll(async () => {
    es = createEsClient({ url: process.env.ES_URL ?? 'http://127.0.0.1:9200' });
    prefix = uniqueName('toe-train');
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'toe-train-'));
    // Stored the way the ToE workflow logs them: one document per episode, with its run id.
    const index = episodesIndex(prefix);
    const episodes = syntheticEpisodes(48, 11, STATE_LAYOUT_VERSION);
    const other = syntheticEpisodes(8, 12, STATE_LAYOUT_VERSION).map((e) => ({ ...e, id: `other/${e.id}` }));
    const store = new ToeEpisodeStore(es, index);
    const stored = [...episodes.map((e) => ({ e, runId: 'run-a' })), ...other.map((e) => ({ e, runId: 'run-b' }))];
    for (const { e, runId } of stored) {
      await store.put({ ...e, runId, workflowId: `verify/${runId}/${e.id}/toe`, nodeId: 'n0', totalReward: e.steps.reduce((s, x) => s + x.reward, 0), recordedAt: new Date(0).toISOString() });
    }
  });

  afterAll(async () => {
    await deleteIndicesWithPrefix(es, prefix);
    await es.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const train = (seed: number, out: string) =>
    runTraining({
      es: { client: es, index: episodesIndex(prefix), runId: 'run-a' },
      seed,
      out: path.join(dir, out),
      hyperparameters: { learningRate: 1e-3 },
    });

  it('writes a weights file whose policy differs from the starting one, reproducibly for the same seed', async () => {
    const first = await train(7, 'a.json');
    expect(first.episodes).toMatchObject({ read: 48, used: 48, sources: [`es:${episodesIndex(prefix)}?run=run-a`] });
    expect(first.updates).toHaveLength(6);
    expect(first.parentVersion).toBe(loadLearnedPolicy().version);

    const before = loadLearnedPolicy();
    const after = loadLearnedPolicy(first.weightsFile);
    expect(after.version).toBe(first.version);
    expect(after.version).not.toBe(before.version);
    expect(after.stateLayoutVersion).toBe(STATE_LAYOUT_VERSION);
    const state = syntheticEpisodes(1, 99, STATE_LAYOUT_VERSION)[0]!.steps[0]!.state;
    const shift = before.actionProbabilities(state).reduce((sum, p, i) => sum + Math.abs(p - after.actionProbabilities(state)[i]!), 0);
    expect(shift).toBeGreaterThan(1e-3);
    expect(first.after.meanProbability).not.toEqual(first.before.meanProbability);

    const again = await train(7, 'b.json');
    expect(again.version).toBe(first.version);
    expect(fs.readFileSync(again.weightsFile, 'utf8')).toBe(fs.readFileSync(first.weightsFile, 'utf8'));

    const otherSeed = await train(8, 'c.json');
    expect(otherSeed.version).not.toBe(first.version);
  });

  it('reads every run without --run, and refuses too few episodes', async () => {
    const all = await runTraining({ es: { client: es, index: episodesIndex(prefix) }, seed: 1, out: path.join(dir, 'all.json') });
    expect(all.episodes.read).toBe(56);
    await expect(runTraining({ es: { client: es, index: episodesIndex(prefix), runId: 'nope' }, seed: 1, out: path.join(dir, 'none.json') })).rejects.toThrow(/at least 2 episodes/);
  });
});
