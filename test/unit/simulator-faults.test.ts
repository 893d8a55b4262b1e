import { describe, expect, it } from 'vitest';
import { FaultInjector, parseFaultSpec } from '../../src/simulator/faults';

describe('fault injection', () => {
  it('parses probability and every-Nth specs', () => {
    expect(parseFaultSpec('429:0.25')).toEqual({ kind: '429', probability: 0.25 });
    expect(parseFaultSpec('timeout:every=3')).toEqual({ kind: 'timeout', everyNth: 3 });
    expect(() => parseFaultSpec('418:0.1')).toThrow(/invalid fault/);
    expect(() => parseFaultSpec('500:2')).toThrow(/probability/);
    expect(() => parseFaultSpec('500:every=0')).toThrow();
  });

  it('injects every Nth request', () => {
    const injector = new FaultInjector([{ kind: '500', everyNth: 2 }]);
    expect([1, 2, 3, 4].map(() => injector.next())).toEqual([undefined, '500', undefined, '500']);
  });

  it('draws probabilities deterministically from its seed', () => {
    const draw = () => {
      const injector = new FaultInjector([{ kind: '429', probability: 0.5 }], 42);
      return Array.from({ length: 40 }, () => injector.next());
    };
    const first = draw();
    expect(draw()).toEqual(first);
    const hits = first.filter(Boolean).length;
    expect(hits).toBeGreaterThan(8);
    expect(hits).toBeLessThan(32);
  });
});
