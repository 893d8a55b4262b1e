import { describe, expect, it } from 'vitest';
import { indexReplicas } from '../../src/es/index-replicas';

describe('indexReplicas (VERITY_ES_REPLICAS)', () => {
  it('is 0 on the single dev node when unset or empty', () => {
    expect(indexReplicas({})).toBe(0);
    expect(indexReplicas({ VERITY_ES_REPLICAS: ' ' })).toBe(0);
  });
  it('takes the configured count on a cluster', () => {
    expect(indexReplicas({ VERITY_ES_REPLICAS: '1' })).toBe(1);
    expect(indexReplicas({ VERITY_ES_REPLICAS: '2' })).toBe(2);
  });
  it('refuses what is not a small non-negative integer, naming the variable', () => {
    expect(() => indexReplicas({ VERITY_ES_REPLICAS: 'one' })).toThrow(/VERITY_ES_REPLICAS/);
    expect(() => indexReplicas({ VERITY_ES_REPLICAS: '-1' })).toThrow(/VERITY_ES_REPLICAS/);
    expect(() => indexReplicas({ VERITY_ES_REPLICAS: '1.5' })).toThrow(/VERITY_ES_REPLICAS/);
  });
});
