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

describe('a provider rate limit (429:above=<rps>)', () => {
  it('parses the spec', () => {
    expect(parseFaultSpec('429:above=2.5')).toEqual({ kind: '429', aboveRps: 2.5 });
    expect(() => parseFaultSpec('429:above=0')).toThrow(/positive/);
  });

  it('refuses the requests over the rate, one second of burst allowed, and lets the rate through again', () => {
    const injector = new FaultInjector([{ kind: '429', aboveRps: 2 }]);
    // Ten requests at once: two pass (one second's worth), the rest are refused.
    expect(Array.from({ length: 10 }, () => injector.next('', 0)).filter(Boolean)).toHaveLength(8);
    // Then one every 500 ms (the rate): none is refused.
    expect(Array.from({ length: 20 }, (_, i) => injector.next('', 500 * (i + 1))).filter(Boolean)).toHaveLength(0);
    // One every 250 ms (twice the rate): about half are refused.
    const fast = Array.from({ length: 40 }, (_, i) => injector.next('', 10_000 + 250 * (i + 1))).filter(Boolean).length;
    expect(fast).toBeGreaterThanOrEqual(18);
    expect(fast).toBeLessThanOrEqual(22);
  });
});
