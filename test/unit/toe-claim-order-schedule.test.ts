import { describe, expect, it } from 'vitest';
import { trainingPositionsOfVersion, versionSeqOfPosition } from '../../src/methods/toe/online/online-schedule';

describe('ToE online policy: the claim-order schedule', () => {
  it('warm-up 8, 4 claims per version: positions 0-7 heuristic, 8-11 version 0, 12-15 version 1, 16 version 2', () => {
    const seqs = [0, 7, 8, 11, 12, 15, 16].map((position) => versionSeqOfPosition(position, 8, 4));
    expect(seqs).toEqual([null, null, 0, 0, 1, 1, 2]);
  });

  it('version 0 is fitted on the warm-up, version k on the block that acted with version k − 1', () => {
    expect(trainingPositionsOfVersion(0, 8, 4)).toEqual({ from: 0, to: 8 });
    expect(trainingPositionsOfVersion(1, 8, 4)).toEqual({ from: 8, to: 12 });
    expect(trainingPositionsOfVersion(2, 8, 4)).toEqual({ from: 12, to: 16 });
  });

  it('every claim acts with a version made only from claims before it', () => {
    for (const [warmup, perVersion] of [[8, 4], [2, 2], [0, 1], [3, 5]] as const) {
      for (let position = 0; position < 40; position++) {
        const seq = versionSeqOfPosition(position, warmup, perVersion);
        if (seq === null) continue;
        expect(trainingPositionsOfVersion(seq, warmup, perVersion).to).toBeLessThanOrEqual(position);
      }
    }
  });

  it('no warm-up: version 0 comes from no claim (the starting weights) and the first claim acts with it', () => {
    expect(versionSeqOfPosition(0, 0, 2)).toBe(0);
    expect(trainingPositionsOfVersion(0, 0, 2)).toEqual({ from: 0, to: 0 });
  });
});
